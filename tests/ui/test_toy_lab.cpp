// docs/ARCHITECTURE.md, "How to add a lab", kept true (issue 26, item 9): a toy lab made here
// from the window's steps of that list only — a configuration with its parameter schema and a
// run (step 1, core/lab/LiveRun.h, core/lab/Params.h), a page on LabPageOf with fields built
// from the schema and sessions written with writeParams / readParams (step 5), one registry
// entry with its view help (step 6) — reaches every place of the shell: its tab and Mode entry,
// Play to its end with its own unit in the status bar, the speed box, presentation mode's
// parameter column, Help's "What am I looking at?", File → Save and Open of its sessions. If
// the shell needed one more edit for a new lab, this lab would miss it and a check here fail.
#include "core/lab/LiveRun.h"
#include "core/lab/Params.h"
#include "tests/support/SettingsIsolation.h"
#include "ui/common/LabPageOf.h"
#include "ui/common/ParamFields.h"
#include "ui/session/JsonFields.h"
#include "ui/shell/Labs.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/ViewControls.h"

#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>
#include <cmath>

namespace {

// Step 1: the configuration, its schema and the run. The toy halves its distance to a target
// each round by a rate: after n rounds the distance is (1 - rate)^n, a closed form to check.
struct ToyConfig {
    double rate = 0.5;
    long rounds = 30;
};

const fa::Schema<ToyConfig>& toyParams() {
    static const fa::Schema<ToyConfig> s = fa::withDefaults<ToyConfig>(
        {fa::field({"rate", "run.rate", "rate", fa::ParamKind::Real, 0.01, 0.99,
                    "The share of the distance closed each round."},
                   &ToyConfig::rate),
         fa::field({"rounds", "run.length", "run length", fa::ParamKind::Whole, 1, 1000,
                    "Rounds in the run."},
                   &ToyConfig::rounds)});
    return s;
}

struct ToySnapshot : fa::LabSnapshotOf<ToyConfig> {
    double distance = 1.0;
};

class ToyRun : public fa::LiveRun {
  public:
    ToyRun(const ToyConfig& config, fa::AbandonFlag abandon = {})
        : LiveRun(std::move(abandon)), m_config(config) {
        fa::checkParams(toyParams(), config);
    }
    long advance(long n) override {
        const long done = std::max(0L, std::min(n, m_config.rounds - m_round));
        for (long k = 0; k < done; ++k)
            m_distance *= 1.0 - m_config.rate;
        m_round += done;
        return done;
    }
    long position() const override { return m_round; }
    long length() const override { return m_config.rounds; }
    std::string unit() const override { return "rounds"; }
    std::shared_ptr<const fa::LabSnapshot> labSnapshot() const override {
        auto s = std::make_shared<ToySnapshot>();
        s->position = m_round;
        s->length = m_config.rounds;
        s->status = "toy: closing in";
        s->config = m_config;
        s->distance = m_distance;
        return s;
    }
    const ToyConfig& config() const { return m_config; }

  private:
    ToyConfig m_config;
    long m_round = 0;
    double m_distance = 1.0;
};

// Step 5: sessions through the schema, and the page.
using ToySession = fa::io::LabSession<ToyConfig, 0>;

QByteArray toySessionToJson(const ToySession& s) {
    QJsonObject root{{"format", fa::io::kSessionFormat},
                     {"version", fa::io::kSessionVersion},
                     {"mode", "toy"},
                     {"speed", s.speed},
                     {"rounds", static_cast<double>(s.position)}};
    fa::io::writeParams(root, toyParams(), s.config);
    return QJsonDocument(root).toJson();
}

ToySession toySessionFromJson(const QByteArray& json) {
    const QJsonObject root = fa::io::sessionRoot(json);
    ToySession s;
    fa::io::readParams(root, toyParams(), s.config);
    s.speed = fa::io::real(root, "session", "speed");
    s.position = fa::io::whole(root, "session", "rounds", 0, 1000);
    return s;
}

using ToySessionFiles = fa::io::SessionFiles<ToySession, toySessionToJson, toySessionFromJson>;

class ToyPage : public LabPageOf<ToyRun, ToySnapshot, ToySessionFiles> {
  public:
    ToyPage()
        : LabPageOf(nullptr, {.sessionKind = "toy", .unitName = "round", .defaultLength = 30}),
          m_fields(toyParams()), m_distance(new QLabel) {
        makeRunFields(10, 1, "rounds", "Rounds per Step (→).");
        m_column = new QWidget;
        auto* fields = new QVBoxLayout(m_column);
        fields->addWidget(m_fields.field("rate"));
        fields->addWidget(m_fields.field("rounds"));
        fields->addWidget(m_speed);
        fields->addWidget(m_step);
        auto* page = new QVBoxLayout(this);
        page->addWidget(m_column);
        page->addWidget(m_distance);
    }
    ToyConfig config() const override {
        ToyConfig c;
        m_fields.read(c);
        return c;
    }
    void setConfig(const ToyConfig& c) override { m_fields.show(c); }
    std::vector<std::pair<QString, QWidget*>> charts() const override {
        return {{"toy-distance", m_distance}};
    }
    QWidget* parameterColumn() const override { return m_column; }
    QAbstractSpinBox* field(const std::string& key) { return m_fields.field(key); }
    double shownDistance() const { return m_distance->text().toDouble(); }

  protected:
    void draw(const ToySnapshot& s) override {
        m_distance->setText(QString::number(s.distance, 'g', 17));
    }

  private:
    ParamFields<ToyConfig> m_fields;
    QLabel* m_distance;
    QWidget* m_column;
};

// Step 6's view help.
const std::vector<ViewHelp>& toyViewHelp() {
    static const std::vector<ViewHelp> help{{{"toy-distance"},
                                             "Distance to the target",
                                             "(1 − rate)^n after n rounds",
                                             "halves",
                                             "stays"}};
    return help;
}

} // namespace

class TestToyLab : public QObject {
    Q_OBJECT
    MainWindow* m_window = nullptr;

    ToyPage* toy() const { return dynamic_cast<ToyPage*>(m_window->currentPage()); }

  private slots:
    void initTestCase() {
        fa::test::isolateSettings();
        // Step 6: the one entry; nothing else of the shell is told.
        addLab({"toy", "Toy lab", "A run that closes in on its target", [] { return new ToyPage; },
                toyViewHelp});
        m_window = new MainWindow;
        m_window->resize(1280, 800);
        m_window->show();
    }
    void cleanupTestCase() { delete m_window; }

    void theLabHasItsTabAndModeEntry() {
        auto* tabs = m_window->findChild<QTabWidget*>();
        QVERIFY(tabs);
        const int last = tabs->count() - 1;
        QCOMPARE(tabs->tabText(last), QString("Toy lab"));
        QVERIFY(tabs->tabToolTip(last).contains(QString("Ctrl+%1").arg(last + 1)));
        QAction* mode = nullptr;
        for (QAction* menu : m_window->menuBar()->actions())
            if (menu->text() == "&Mode")
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == "Toy lab")
                        mode = a;
        QVERIFY(mode);
        mode->trigger();
        QVERIFY(toy());
        QCOMPARE(m_window->currentLab(), QString("toy"));
    }

    void itPlaysToItsEndInItsOwnUnit() {
        m_window->setCurrentLab("toy");
        ToyPage* page = toy();
        QVERIFY(page);
        setFieldValue(page->field("rate"), 0.25);
        setFieldValue(page->field("rounds"), 12);
        page->reset();
        QTRY_VERIFY(page->latestSnapshot() && page->latestSnapshot()->config.rounds == 12);
        page->togglePlay();
        QTRY_VERIFY_WITH_TIMEOUT(page->finished(), 10000);
        QCOMPARE(page->playState(), QString("finished"));
        page->redrawNow();
        QCOMPARE(page->shownDistance(), std::pow(0.75, 12)); // the closed form, to the last bit
        QTRY_VERIFY(m_window->statusBar()->findChildren<QLabel*>().size() > 0);
        QStringList shown;
        for (const QLabel* l : m_window->statusBar()->findChildren<QLabel*>())
            shown << l->text();
        QVERIFY2(shown.join(' ').contains("12 / 12"), qPrintable(shown.join(" | ")));
        QVERIFY2(shown.join(' ').contains("toy: closing in"), qPrintable(shown.join(" | ")));
    }

    void theFieldsRefuseWhatTheSchemaRefuses() {
        m_window->setCurrentLab("toy");
        QAbstractSpinBox* rate = toy()->field("rate");
        QCOMPARE(rate->toolTip().contains("share of the distance"), true);
        setFieldValue(rate, 0.4);
        rate->setFocus();
        rate->selectAll();
        QTest::keyClicks(rate, "1.5");
        QTest::keyClick(rate, Qt::Key_Return);
        QCOMPARE(fieldValue(rate), 0.4); // outside 0.01..0.99: the field keeps its value
    }

    void helpAndPresentationFindTheLab() {
        m_window->setCurrentLab("toy");
        QVERIFY(viewHelpHtml("toy", "Toy lab").contains("Distance to the target"));
        QCOMPARE(viewHelp("toy").size(), std::size_t(1));
        QVERIFY(toy()->parameterColumn()->isVisibleTo(m_window));
        m_window->viewControls()->setPresenting(true, false);
        QVERIFY(!toy()->parameterColumn()->isVisibleTo(m_window));
        m_window->viewControls()->setPresenting(false, false);
        QVERIFY(toy()->parameterColumn()->isVisibleTo(m_window));
        // The toolbar's speed box mirrors the lab's own speed field.
        toy()->speedBox()->setValue(17);
        QCOMPARE(m_window->viewControls()->speedBox()->value(), 17);
    }

    void itsSessionsSaveAndReplay() {
        m_window->setCurrentLab("toy");
        ToyPage* page = toy();
        setFieldValue(page->field("rate"), 0.125);
        setFieldValue(page->field("rounds"), 40);
        page->reset();
        QTRY_VERIFY(page->latestSnapshot() && page->latestSnapshot()->config.rounds == 40);
        page->runUntil(7);
        QTRY_COMPARE_WITH_TIMEOUT(page->stats().position, 7L, 10000);
        QTemporaryDir dir;
        const QString path = dir.filePath("toy.json");
        QVERIFY(m_window->saveSession(path));
        setFieldValue(page->field("rate"), 0.5); // changed after saving: Open puts it back
        QVERIFY(m_window->openSession(path));
        QCOMPARE(m_window->currentLab(), QString("toy"));
        QCOMPARE(fieldValue(page->field("rate")), 0.125);
        QTRY_COMPARE_WITH_TIMEOUT(page->stats().position, 7L, 10000);
        page->redrawNow();
        QCOMPARE(page->shownDistance(), std::pow(0.875, 7));
        // Opened from another lab: the switch it makes keeps its "Opened …" message.
        m_window->setCurrentLab("explorer");
        QVERIFY(m_window->openSession(path));
        QVERIFY2(m_window->statusBar()->currentMessage().startsWith("Opened"),
                 qPrintable(m_window->statusBar()->currentMessage()));
    }

    void switchingLabsClearsTheLeftLabsMessage() {
        // A user saw the explorer's "run is finished" in the posterior lab: a message is the
        // lab's that showed it.
        m_window->setCurrentLab("explorer");
        m_window->statusBar()->showMessage("The run is finished", 10000);
        m_window->setCurrentLab("explorer"); // the same lab: kept
        QCOMPARE(m_window->statusBar()->currentMessage(), QString("The run is finished"));
        m_window->setCurrentLab("toy");
        QVERIFY(m_window->statusBar()->currentMessage().isEmpty());
    }
};

QTEST_MAIN(TestToyLab)
#include "test_toy_lab.moc"
