#pragma once
// CSV cells for the experiment tables: shortest round-trip doubles, "nan" for missing values,
// quoted text. Each lab writes (and reads) its own rows with these in its own folder
// (core/explorer/FaSweepCsv.h, core/latent/LatentCsv.h, ...): this file knows no lab.
#include <ostream>
#include <string>
#include <vector>

namespace fa::io {

std::string formatDouble(double v);
/// A text cell: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string textCell(const std::string& text);
/// A number that may not apply: empty for NaN, else formatDouble.
std::string optionalCell(double v);
/// "50,50" quoted; nothing for an empty text.
std::string quotedCell(const std::string& text);

/// One line of a table: the cells as `out << cell` writes them, separated by commas.
template <class First, class... Rest>
void csvLine(std::ostream& out, const First& first, const Rest&... rest) {
    out << first;
    ((out << ',' << rest), ...);
    out << '\n';
}

/// A table: the header line, then line(out, row) for every row (which writes its line with
/// csvLine, or nothing for a row the table leaves out).
template <class Row, class Line>
void writeCsv(std::ostream& out, const char* header, const std::vector<Row>& rows, Line line) {
    out << header << '\n';
    for (const Row& r : rows)
        line(out, r);
}

} // namespace fa::io
