#pragma once
// CSV cells for the experiment tables: shortest round-trip doubles, "nan" for missing values,
// quoted text. Each lab writes (and reads) its own rows with these in its own folder
// (core/explorer/FaSweepCsv.h, core/latent/LatentCsv.h, ...): this file knows no lab.
#include <string>

namespace fa::io {

std::string formatDouble(double v);
/// A text cell: quoted (quotes doubled) when it holds a comma, a quote or a line break.
std::string textCell(const std::string& text);
/// A number that may not apply: empty for NaN, else formatDouble.
std::string optionalCell(double v);
/// "50,50" quoted; nothing for an empty text.
std::string quotedCell(const std::string& text);

} // namespace fa::io
