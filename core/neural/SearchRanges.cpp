#include "core/neural/SearchRanges.h"

#include <cstdio>
#include <stdexcept>

namespace fa {
namespace {
bool isRange(double lo, double hi) {
    return lo > 0.0 && lo <= hi && hi <= 1e8; // false for NaN
}
SearchRange& required(SearchRanges& r, std::size_t index) {
    switch (index) {
    case 0:
        return r.prior;
    case 1:
        return r.noise;
    case 2:
        return r.sigma;
    default:
        throw std::out_of_range("no such search range");
    }
}
} // namespace

void checkSearchRanges(const SearchRanges& r) {
    const auto check = [](const SearchRange& range, const char* what) {
        if (!isRange(range.lo, range.hi))
            throw std::invalid_argument(std::string("the search range of the ") + what +
                                        " must satisfy 0 < low <= high <= 1e8");
    };
    check(r.prior, "prior precision");
    check(r.noise, "noise precision");
    check(r.sigma, "VIPPCA sigma");
    if (r.laplace)
        check(*r.laplace, "Laplace rate");
}

const std::array<SearchRangeParam, 4>& searchRangeParams() {
    static const std::array<SearchRangeParam, 4> p{{
        {"prior-range", "α range", "The search's log-uniform range of the prior precision α.",
         false},
        {"noise-range", "β range",
         "The search's range of the noise precision β of the standardised target.", false},
        {"sigma-range", "VIPPCA σ range", "The search's range of VIPPCA's σ.", false},
        {"laplace-range", "Laplace b range",
         "The search's range of the Laplace prior's rate b, searched itself (the report's "
         "appendix A: 0.01,10); default: b = √(2α) of the searched α.",
         true},
    }};
    return p;
}

std::optional<SearchRange> rangeAt(const SearchRanges& ranges, std::size_t index) {
    if (index == 3)
        return ranges.laplace;
    SearchRanges copy = ranges; // eight numbers: one switch serves both ways
    return required(copy, index);
}

void setRangeAt(SearchRanges& ranges, std::size_t index, double lo, double hi,
                const std::string& what) {
    if (!isRange(lo, hi))
        throw std::invalid_argument(what + " must be LO,HI with 0 < LO <= HI <= 1e8");
    if (index == 3)
        ranges.laplace = SearchRange{lo, hi};
    else
        required(ranges, index) = {lo, hi};
}

void unsetRangeAt(SearchRanges& ranges, std::size_t index, const std::string& what) {
    if (index != 3)
        throw std::invalid_argument(what + " must be LO,HI with 0 < LO <= HI <= 1e8");
    ranges.laplace.reset();
}

std::string rangeText(const std::optional<SearchRange>& range) {
    if (!range)
        return "";
    char text[64];
    std::snprintf(text, sizeof text, "%.15g,%.15g", range->lo, range->hi);
    return text;
}

} // namespace fa
