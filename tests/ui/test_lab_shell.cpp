// What the shell asks of each lab without knowing which lab it is (issue 26, item 5): every
// registered lab's page says the unit its run counts, whether it counts samples, how far a
// --screenshot runs and how a recording spaces its frames (what app/gui/main.cpp and
// ui/shell/MainWindowPresets.cpp used to pick by comparing the lab's id), and hands over its
// speed field and its parameter column (what ui/shell/ViewControls.cpp used to find by object
// name). tests/tools/check_layers.sh checks that no lab id is compared in app/gui or ui/shell.
#include "tests/support/SettingsIsolation.h"
#include "ui/common/LabPage.h"
#include "ui/shell/Labs.h"

#include <QMap>
#include <QSpinBox>
#include <QSplitter>
#include <QtTest>
#include <memory>

namespace {
struct Expected {
    QString unit;
    bool countsSamples;
    long defaultLength;
    bool logScale;
};
} // namespace

class TestLabShell : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void everyLabSaysWhatItsRunCounts() {
        // As faexplorer --screenshot has always had them: the explorer runs 20000 samples
        // (--after-samples) and records on a log scale; the neural lab 60 epochs, the latent lab
        // 300 iterations, the others 2000 epochs (--after-epochs).
        const QMap<QString, Expected> expected{{"explorer", {"sample", true, 20000, true}},
                                               {"posterior", {"epoch", false, 2000, false}},
                                               {"neural", {"epoch", false, 60, false}},
                                               {"latent", {"iteration", false, 300, false}},
                                               {"nonlinear", {"epoch", false, 2000, false}}};
        QCOMPARE(qsizetype(labRegistry().size()), expected.size());
        for (const LabEntry& lab : labRegistry()) {
            QVERIFY2(expected.contains(lab.id), qPrintable(lab.id));
            const Expected e = expected.value(lab.id);
            const std::unique_ptr<LabPage> page(lab.make());
            QCOMPARE(page->unitName(), e.unit);
            QCOMPARE(page->countsSamples(), e.countsSamples);
            QCOMPARE(page->defaultLength(), e.defaultLength);
            QCOMPARE(page->recordsOnLogScale(), e.logScale);
        }
    }

    void everyLabHandsOverItsSpeedAndItsParameters() {
        for (const LabEntry& lab : labRegistry()) {
            const std::unique_ptr<LabPage> page(lab.make());
            QSpinBox* speed = page->speedBox();
            QWidget* column = page->parameterColumn();
            QVERIFY2(speed && column, qPrintable(lab.id));
            QVERIFY2(page->isAncestorOf(column), qPrintable(lab.id));
            // The speed field is one of the parameters (the toolbar keeps it at hand when
            // presentation mode hides them).
            QVERIFY2(column->isAncestorOf(speed), qPrintable(lab.id));
            // The column is the first side of the page's splitter: hidden, the views fill it.
            auto* split = qobject_cast<QSplitter*>(column->parentWidget());
            QVERIFY2(split && split->widget(0) == column && split->count() == 2,
                     qPrintable(lab.id));
        }
    }

    void everyLabHasItsViewHelp() {
        for (const LabEntry& lab : labRegistry()) {
            QVERIFY2(lab.help && !lab.help().empty(), qPrintable(lab.id));
            QCOMPARE(&viewHelp(lab.id), &lab.help());
        }
        QVERIFY(viewHelp("no such lab").empty());
    }
};

QTEST_MAIN(TestLabShell)
#include "test_lab_shell.moc"
