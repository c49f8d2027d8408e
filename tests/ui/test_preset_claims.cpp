// The numbers the presets' captions state (issue 28 item 6): each claim of "preset.checks" is
// written in the caption as given, and a run of the preset, played to the claim's position and
// exported as the CLI's rows (Ctrl+E), has that number within the stated tolerance. A caption
// that drifts from the code fails here; so does a claim about a row the run does not write.
#include "tests/support/CsvCells.h"
#include "ui/common/LabPage.h"
#include "ui/session/PresetFile.h"
#include "ui/shell/MainWindow.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

namespace {

/// The cell of `claim.column` in the one row whose cells match `claim.row`; NaN and a message
/// if there is no such row, or more than one.
double claimedCell(const QList<QStringList>& rows, const fa::io::PresetClaim& claim, QString& why) {
    if (rows.isEmpty()) {
        why = "no rows were exported";
        return std::nan("");
    }
    const QStringList& header = rows.front();
    const auto column = [&](const QString& name) { return header.indexOf(name); };
    QList<QStringList> found;
    for (qsizetype r = 1; r < rows.size(); ++r)
        if (std::all_of(claim.row.begin(), claim.row.end(), [&](const auto& cell) {
                const qsizetype c = column(cell.first);
                return c >= 0 && c < rows[r].size() && rows[r][c] == cell.second;
            }))
            found << rows[r];
    const qsizetype c = column(claim.column);
    if (found.size() != 1 || c < 0) {
        why = QString("%1 rows match, column '%2' %3")
                  .arg(found.size())
                  .arg(claim.column, c < 0 ? "absent" : "present");
        return std::nan("");
    }
    return found.front()[c].toDouble();
}

} // namespace

class TestPresetClaims : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("FA Explorer tests");
        QSettings().clear();
    }

    void someCaptionsStateNumbers() {
        int claims = 0;
        for (const fa::io::Preset& p : fa::io::listPresets(fa::io::presetDirectory()))
            claims += static_cast<int>(p.claims.size());
        QVERIFY(claims >= 4);
    }

    void eachCaptionsNumbersAreWhatItsRunGives_data() {
        QTest::addColumn<QString>("name");
        for (const fa::io::Preset& p : fa::io::listPresets(fa::io::presetDirectory()))
            if (!p.claims.empty())
                QTest::newRow(qPrintable(p.name)) << p.name;
    }
    void eachCaptionsNumbersAreWhatItsRunGives() {
        QFETCH(QString, name);
        const fa::io::Preset preset = fa::io::findPreset(fa::io::presetDirectory(), name);
        MainWindow window;
        window.resize(1280, 800);
        QVERIFY2(window.openPreset(name), qPrintable(window.lastError()));
        LabPage* page = window.currentPage();
        long until = 0;
        for (const fa::io::PresetClaim& c : preset.claims)
            until = std::max(until, c.after);
        QSignalSpy reached(page, &LabPage::reached);
        QSignalSpy failed(page, &LabPage::runError);
        page->runUntil(until);
        QVERIFY2(reached.wait(300000),
                 qPrintable(failed.isEmpty() ? QString("timeout") : failed[0][0].toString()));
        QTRY_VERIFY_WITH_TIMEOUT(!page->backgroundPending(), 120000); // the batch refits
        const QTemporaryDir dir;
        const QString csv = dir.filePath("rows.csv");
        QVERIFY(page->exportCurves(csv));
        const QList<QStringList> rows = test::readCsvCells(csv);
        QStringList wrong; // every claim is read before any fails, so that all are named
        for (const fa::io::PresetClaim& claim : preset.claims) {
            QString why;
            const double got = claimedCell(rows, claim, why);
            qInfo("%s: %s = %.4g (caption: %s ± %g)", qPrintable(name), qPrintable(claim.column),
                  got, qPrintable(claim.text), claim.tolerance);
            if (!preset.caption.contains(claim.text))
                wrong << QString("the caption does not state %1").arg(claim.text);
            else if (!std::isfinite(got))
                wrong << why;
            else if (std::abs(got - claim.value) > claim.tolerance)
                wrong << QString("%1 is %2, the caption says %3 ± %4")
                             .arg(claim.column)
                             .arg(got)
                             .arg(claim.text)
                             .arg(claim.tolerance);
        }
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join("; ")));
    }
};

QTEST_MAIN(TestPresetClaims)
#include "test_preset_claims.moc"
