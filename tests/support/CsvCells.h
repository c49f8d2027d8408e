#pragma once
// A CSV file written by the CLI as rows of cells (the header first); a quoted cell may hold
// commas ("50,50"), its quotes dropped. A file that cannot be read gives no rows.
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include <cmath>

namespace test {

/// One line's cells.
inline QStringList csvCells(const QString& line) {
    QStringList cells{QString()};
    bool quoted = false;
    for (const QChar c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            cells << QString();
        else
            cells.last() += c;
    }
    return cells;
}

inline QList<QStringList> readCsvCells(const QString& path) {
    QFile f(path);
    QList<QStringList> rows;
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts))
        rows << csvCells(line);
    return rows;
}

/// The rows without one column (a run's seconds, which no two runs share).
inline QList<QStringList> withoutColumn(QList<QStringList> rows, int column) {
    for (QStringList& r : rows)
        r.removeAt(column);
    return rows;
}

/// A finite number: an empty cell (how the CSV writes "does not apply") is not one.
inline bool finiteCell(const QString& cell) {
    bool ok = false;
    const double v = cell.toDouble(&ok);
    return ok && std::isfinite(v);
}

} // namespace test
