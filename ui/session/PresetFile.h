#pragma once
// Presets: session files in share/faexplorer/presets (resources/presets in the source tree),
// each with a "preset" block saying which seed figure or lesson it shows and what to watch.
// Opening one is opening its session; the block is the menu entry and the caption.
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace fa::io {

/// A number the caption states and a run of the preset must reproduce (issue 28: captions that
/// cannot drift from the code): in the run's Ctrl+E rows (the CLI's columns) after `after`
/// units, the row whose cells match `row` has `column` within `tolerance` of `value`, and the
/// caption writes `value` as given ("0.09").
struct PresetClaim {
    long after = 0;
    /// The page's table the row is in: empty, its rows (Ctrl+E, the CLI's columns); else a name
    /// LabPage::exportTable knows ("imputation").
    QString table;
    std::vector<std::pair<QString, QString>> row; ///< column name → cell text
    QString column;
    double value = 0.0, tolerance = 0.0;
    QString text; ///< the value as the caption writes it
};

struct Preset {
    QString name;    ///< the file's stem: `faexplorer --preset NAME`
    QString path;    ///< the session file
    QString lab;     ///< the session's mode (explorer, posterior, ...)
    QString group;   ///< the menu it sits in ("Thesis", "VIFA report", "Lessons: ...")
    QString title;   ///< the menu entry
    QString source;  ///< the figure or table of the seed it shows
    QString caption; ///< what to watch and why it happens
    int order = 0;   ///< the menu order within all presets
    /// Frames of a recording evenly spaced in "log" or "linear" position (empty: the lab's own
    /// axis: log for the explorer): the lesson's time scale (the EM staircase's first steps).
    QString recordingScale;
    std::vector<PresetClaim> claims; ///< "preset.checks"
};

/// share/faexplorer/SUB beside the running program (bin/../share/faexplorer/SUB), the same in
/// the build tree and in an installed tree; FAEXPLORER_SHARE=DIR makes it DIR/SUB.
QString shareDirectory(const QString& sub);
inline QString presetDirectory() {
    return shareDirectory("presets");
}

/// The preset block of a session file; throws SessionError naming the file and the problem
/// (no block, a missing or empty title or caption).
Preset readPreset(const QString& path);
/// Every *.json preset in the folder, by (order, name). A file that is not a valid preset is
/// skipped and named in errors (when given).
std::vector<Preset> listPresets(const QString& folder, QStringList* errors = nullptr);
/// The preset of this name (a file stem) in the folder; throws SessionError listing the names
/// when there is none.
Preset findPreset(const QString& folder, const QString& name);

} // namespace fa::io
