#include "core/lab/Params.h"

#include <cmath>
#include <cstdio>

namespace fa {

std::string valueText(double value) {
    char buf[32];
    if (value == std::floor(value) && std::abs(value) < 1e16) // seeds up to 2^53 in full
        std::snprintf(buf, sizeof buf, "%.0f", value);
    else
        std::snprintf(buf, sizeof buf, "%.10g", value);
    return buf;
}

std::string rangeText(const ParamInfo& p) {
    if (p.kind == ParamKind::Whole)
        return "between " + valueText(p.lo) + " and " + valueText(p.hi);
    return "in [" + valueText(p.lo) + ", " + valueText(p.hi) + "]";
}

bool accepts(const ParamInfo& p, double value) {
    if (!(value >= p.lo && value <= p.hi))
        return false; // NaN too
    return p.kind == ParamKind::Real || value == std::floor(value);
}

} // namespace fa
