#pragma once
// Regression data from files: a strict CSV loader, the four bundled UCI sets and where they live.
#include "core/data/NumericTable.h"
#include "core/data/RegressionData.h"

#include <istream>
#include <string>
#include <vector>

namespace fa::io {

/// Reads a CSV with one header row and numeric cells only. The target is the named column, or
/// the last one when targetColumn is empty; columns listed in dropColumns are left out of X.
/// Policy for bad input: nothing is guessed. An empty or non-numeric cell (including "NA",
/// "nan" and "inf"), a row with the wrong number of cells, a repeated or unknown column name,
/// or fewer than two data rows throws std::invalid_argument naming the row (1-based, header =
/// row 1) and the column.
RegressionData loadRegressionCsv(const std::string& path, const std::string& targetColumn = {},
                                 const std::vector<std::string>& dropColumns = {});
/// The same from a stream; path names it in messages and gives the data set's name. Lines are
/// capped at 1 MB, a UTF-8 byte-order mark is skipped, CR LF is read, CR-only endings are named.
RegressionData readRegressionCsv(std::istream& in, const std::string& path,
                                 const std::string& targetColumn = {},
                                 const std::vector<std::string>& dropColumns = {});

/// Every column of numbers of a CSV as a variable (the latent lab), under the same rules; with
/// allowMissing an empty cell (nothing but spaces) is read as NaN, a missing value. A column
/// whose first data cell is a word (an id, a label) is left out and listed in leftOut; a word
/// in a column of numbers ("NA" included) is refused, naming its row. At least two columns of
/// numbers and two rows.
NumericTable readNumericCsv(std::istream& in, const std::string& path, bool allowMissing);
NumericTable loadNumericCsv(const std::string& path, bool allowMissing);
/// A bundled set (its inputs, then its target, as columns; never missing), an image set
/// (core/io/ImageSets.h: its pixels as columns, the images' rows asked for, with the layout and
/// the classes) or a CSV path.
NumericTable loadTable(const std::string& dataset, bool allowMissing,
                       const std::string& dataDir = {}, const ImageQuery& images = {});
TableLoader tableLoader(const std::string& dataDir = {});
/// The bundled UCI sets: boston, concrete, energy (heating load; cooling load dropped), yacht.
std::vector<std::string> builtinDatasetNames();
/// A bundled set or the generated in-between set (core/data/InBetween.h, kInBetweenName).
bool isBuiltinDataset(const std::string& name);
/// The file a data set is read from: a bundled set's CSV in dataDir (empty: the default), or
/// the name itself (a CSV path).
std::string datasetFile(const std::string& dataset, const std::string& dataDir = {});
/// Loads a bundled set from dataDir (resources/data in the source tree), or builds the
/// in-between set.
RegressionData loadBuiltinDataset(const std::string& name, const std::string& dataDir);
/// Where the bundled sets live: $FAEXPLORER_DATA if set, else share/faexplorer/data beside the
/// program's bin/ folder (the build tree mirrors an installed tree).
std::string defaultDataDirectory();

/// A bundled set by name, otherwise a CSV path (target: its column, empty = the last).
RegressionData loadDataset(const std::string& dataset, const std::string& target,
                           const std::string& dataDir = {});
/// loadDataset with this data folder (empty = defaultDataDirectory()), for the engine's runners.
DatasetLoader datasetLoader(const std::string& dataDir = {});

} // namespace fa::io
