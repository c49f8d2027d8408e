#include "core/io/CsvFormat.h"

#include <charconv>
#include <cmath>

namespace fa::io {

std::string formatDouble(double v) {
    if (std::isnan(v))
        return "nan";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v); // shortest exact round trip
    return std::string(buf, res.ptr);
}

std::string textCell(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (const char ch : text)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

std::string optionalCell(double v) {
    return std::isnan(v) ? std::string() : formatDouble(v);
}

std::string quotedCell(const std::string& text) {
    std::string out;
    if (!text.empty())
        out.append(1, '"').append(text).append(1, '"');
    return out;
}

} // namespace fa::io
