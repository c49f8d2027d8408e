// What a typed page (LabPageOf) reads of a running lab, it reads from the latest snapshot: a
// worker inside a long unit (an epoch of a large network) is never waited for by the window,
// and closing the page cuts such a unit instead of waiting it out.
#include "core/lab/LiveRun.h"
#include "ui/common/FormWidgets.h"
#include "ui/common/LabPageOf.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <ostream>
#include <vector>

namespace {

/// A run whose first unit (or, built with `gatedBuild`, its constructor: the first scoring of a
/// large network) waits at a gate: the page must answer without the worker while it waits.
struct Gate;
struct GatedConfig {
    int tag = 0;
    bool gatedBuild = false;
    Gate* gate = nullptr;
};
struct GatedSnapshot : fa::LabSnapshotOf<GatedConfig> {
    std::vector<int> rows;
};
struct Gate {
    std::atomic<bool> open{false}, inside{false}, timedOut{false}, cut{false};
};
class GatedRun : public fa::LiveRun {
  public:
    GatedRun(const GatedConfig& config, fa::AbandonFlag abandon)
        : LiveRun(std::move(abandon)), m_config(config), m_gate(config.gate) {
        if (config.gatedBuild)
            waitAtGate();
    }
    long advance(long) override {
        if (!waitAtGate())
            return 0;
        m_rows.push_back(int(++m_position));
        return 1;
    }
    long position() const override { return m_position; }
    long length() const override { return m_length; }
    void setLength(long n) { m_length = std::max(n, m_position); }
    std::string unit() const override { return "epochs"; }
    std::shared_ptr<const fa::LabSnapshot> labSnapshot() const override {
        auto s = std::make_shared<GatedSnapshot>();
        s->position = m_position;
        s->length = m_length;
        s->config = m_config;
        s->rows = m_rows;
        return s;
    }
    const GatedConfig& config() const { return m_config; }

  private:
    /// Waits until the gate opens (true) or the run is abandoned (false: cut), in pieces of
    /// 1 ms (a unit's mini-batches); gives up after 20 s.
    bool waitAtGate() {
        m_gate->inside = true;
        QElapsedTimer waited;
        waited.start();
        while (!m_gate->open && !(m_gate->timedOut = waited.elapsed() > 20000)) {
            if (abandoned()) { // one "mini-batch" of the unit: the page is going
                m_gate->inside = false;
                m_gate->cut = true;
                return false;
            }
            QThread::msleep(1);
        }
        m_gate->inside = false;
        return true;
    }

  private:
    GatedConfig m_config;
    Gate* m_gate;
    long m_position = 0, m_length = 10;
    std::vector<int> m_rows;
};

class GatedPage : public LabPageOf<GatedRun, GatedSnapshot> {
  public:
    explicit GatedPage(Gate* gate) : m_gate(gate) {}
    void reset() override {}
    GatedConfig config() const override { return {}; }
    void setConfig(const GatedConfig&) override {}
    void draw(const GatedSnapshot&) override {}
    std::vector<std::pair<QString, QWidget*>> charts() const override { return {}; }
    void begin(GatedConfig config) {
        config.gate = m_gate;
        start(config, Start::Paused);
    }
    using LabPageOf::connectLength;
    using LabPageOf::exportRows;
    using LabPageOf::runningConfig;

  private:
    Gate* m_gate;
};

} // namespace

class TestLabPageOf : public QObject {
    Q_OBJECT
  private slots:
    void thePageNeverWaitsForTheWorker() {
        // While the worker is inside a long unit, what the window reads of the run (its
        // configuration for a session or a refused change, its rows for Ctrl+E, whether
        // background work is out) comes from the latest snapshot: each answer arrives while
        // the unit still waits at its gate (before, this waited out the unit).
        Gate gate;
        GatedPage page(&gate);
        page.begin(GatedConfig{7});
        QTRY_VERIFY(page.latestSnapshot());
        page.runUntil(2);
        QTRY_VERIFY(gate.inside);
        const auto config = page.runningConfig();
        QVERIFY(config && config->tag == 7);
        QTemporaryDir dir;
        const QString csv = dir.filePath("rows.csv");
        QVERIFY(page.exportRows(csv, [](std::ostream& out, const std::vector<int>& rows) {
            out << "rows " << rows.size() << "\n";
        }));
        QVERIFY(!page.backgroundPending());
        QVERIFY(gate.inside && !gate.timedOut); // still waiting: nothing above waited for it
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("rows 0\n")); // the snapshot's rows, at 0
        QSignalSpy reached(&page, &LabPage::reached);
        gate.open = true;
        QVERIFY(reached.wait(10000));
        QCOMPARE(page.latestSnapshot()->rows, (std::vector<int>{1, 2}));
    }

    void aLengthBelowThePositionEndsTheRunThere() {
        // The run-length field lowered below the units run: the run ends where it stands, the
        // field shows that length, not the one typed, and the status bar says why.
        Gate gate;
        gate.open = true;
        GatedPage page(&gate);
        const std::unique_ptr<IntSpinBox> length(intBox(1, 1000, 10, "Epochs"));
        const bool quiet = false;
        page.connectLength(length.get(), quiet);
        page.begin(GatedConfig{});
        QTRY_VERIFY(page.latestSnapshot());
        QSignalSpy reached(&page, &LabPage::reached), said(&page, &LabPage::message);
        page.runUntil(5);
        QVERIFY(reached.wait(10000));
        QTRY_COMPARE(page.latestSnapshot()->position, 5L);
        length->setValue(3);
        QTRY_COMPARE(length->value(), 5);
        QCOMPARE(said.size(), 1);
        QCOMPARE(said[0][0].toString(),
                 QString("5 epochs had run already, more than 3: the run ends where it stands"));
        QTRY_COMPARE(page.latestSnapshot()->length, 5L);
        length->setValue(8); // above the position: taken as typed, without a word
        QTRY_COMPARE(page.latestSnapshot()->length, 8L);
        QCOMPARE(said.size(), 1);
    }

    void closingThePageCutsALongUnit() {
        // The window closing while a unit runs: the page's destructor abandons the run, which
        // ends at its next piece; the destructor does not wait the unit out (before, it did).
        Gate gate;
        auto* page = new GatedPage(&gate);
        page->begin(GatedConfig{1});
        QTRY_VERIFY(page->latestSnapshot());
        page->runUntil(2);
        QTRY_VERIFY(gate.inside);
        delete page;
        QVERIFY(gate.cut && !gate.timedOut && !gate.open);
    }

    void closingThePageCutsARunBeingBuilt() {
        // The window closing while a run is still being built (the first scoring of a large
        // network takes seconds): the worker's flag reaches the constructor, which ends at its
        // next piece; the destructor does not wait it out (before, it waited 20 s here).
        Gate gate;
        auto* page = new GatedPage(&gate);
        GatedConfig config;
        config.gatedBuild = true;
        page->begin(config);
        QTRY_VERIFY(gate.inside);
        QElapsedTimer closing;
        closing.start();
        delete page;
        QVERIFY(gate.cut && !gate.timedOut && !gate.open);
        QVERIFY2(closing.elapsed() < 10000, "the page waited for the constructor");
    }
};

QTEST_MAIN(TestLabPageOf)
#include "test_lab_page_of.moc"
