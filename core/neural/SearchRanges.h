#pragma once
// The neural lab's random search ranges (docs/maths/neural.md §3) and their one description: the
// CLI's --prior-range, --noise-range, --sigma-range and --laplace-range and the window's
// splits-table fields read the flags, labels, help and checks here.
#include <array>
#include <optional>
#include <string>

namespace fa {

/// A log-uniform search range [lo, hi].
struct SearchRange {
    double lo = 0.0, hi = 0.0;
};
/// The random search's ranges. The Laplace prior's rate b: unset, the drawn prior precision's
/// sqrt(2 alpha); set, b drawn itself (the report's appendix A, [0.01, 10]) and the fit given
/// alpha = b^2 / 2.
struct SearchRanges {
    SearchRange prior{0.01, 10.0}, noise{1.0, 100.0}, sigma{0.01, 1.0};
    std::optional<SearchRange> laplace;
};
/// Throws std::invalid_argument unless 0 < lo <= hi <= 1e8 for every range.
void checkSearchRanges(const SearchRanges& ranges);

/// One of the ranges as the CLI and the window offer it.
struct SearchRangeParam {
    const char* flag;  ///< "prior-range": the CLI's --flag
    const char* label; ///< the window's label
    const char* help;
    bool optional; ///< may be unset (the Laplace rate's)
};
/// prior, noise, sigma, laplace: the order of rangeAt and setRangeAt.
const std::array<SearchRangeParam, 4>& searchRangeParams();
std::optional<SearchRange> rangeAt(const SearchRanges& ranges, std::size_t index);
/// Sets range `index` to [lo, hi]; throws std::invalid_argument ("WHAT must be LO,HI with
/// 0 < LO <= HI <= 1e8") unless it is a range.
void setRangeAt(SearchRanges& ranges, std::size_t index, double lo, double hi,
                const std::string& what);
/// Unsets an optional range (the Laplace rate's); throws std::invalid_argument for the others.
void unsetRangeAt(SearchRanges& ranges, std::size_t index, const std::string& what);
/// "0.01,10", or "" for an unset range.
std::string rangeText(const std::optional<SearchRange>& range);

} // namespace fa
