// The parameter fields as a user types into them: a number outside the range (negative too) is
// refused by name, the value in use kept; a valid one taken on Enter only; Space plays / pauses.
#include "ui/common/FormWidgets.h"
#include "ui/explorer/ControlPanel.h"
#include "ui/posterior/PosteriorControls.h"
#include "ui/session/PosteriorSessionFile.h"
#include "ui/session/SessionFile.h"

#include <QAction>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMainWindow>
#include <QStatusBar>
#include <QToolTip>
#include <QtTest>

namespace {
/// A window as the application's: a form with labelled fields, a status bar and a Space action.
struct Window {
    QMainWindow main;
    IntSpinBox* dim = intBox(2, 5000, 100, "Observation dimension D");
    RealSpinBox* rate = realBox(1e-7, 10.0, 0.01, 7, "Learning rate");
    IntSpinBox* speed = intBox(0, 1000, 20, "Speed");
    QAction* play = new QAction("Play", &main);

    Window() {
        auto* form = new QWidget;
        auto* layout = new QFormLayout(form);
        layout->addRow("D", dim);
        layout->addRow("learning rate", rate);
        layout->addRow("speed", speed);
        speed->setSpecialValueText("as fast as possible");
        speed->setSuffix(" obs/s");
        main.setCentralWidget(form);
        play->setShortcut(Qt::Key_Space);
        main.addAction(play);
        main.statusBar();
        main.show();
        main.activateWindow();
    }
};

/// Types text into a field as a user would: focus, select what is there, type, press Enter.
void typeAndEnter(QAbstractSpinBox* box, const QString& text) {
    box->setFocus(Qt::TabFocusReason);
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
}
} // namespace

class TestFormWidgets : public QObject {
    Q_OBJECT
  private slots:
    void outOfRangeIntegersAreRefusedWithTheFieldsName_data() {
        QTest::addColumn<QString>("typed");
        QTest::newRow("negative") << "-5";
        QTest::newRow("above the maximum") << "7000";
        QTest::newRow("below the minimum") << "1";
        QTest::newRow("lone minus sign") << "-";
    }
    void outOfRangeIntegersAreRefusedWithTheFieldsName() {
        QFETCH(QString, typed);
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy changed(w.dim, &QSpinBox::valueChanged);
        QSignalSpy refused(w.dim, &IntSpinBox::refused);
        w.dim->setFocus(Qt::TabFocusReason);
        w.dim->selectAll();
        QTest::keyClicks(w.dim, typed);
        QCOMPARE(w.dim->text(), typed); // the minus sign and every digit stay while typing
        QTest::keyClick(w.dim, Qt::Key_Return);

        QCOMPARE(w.dim->value(), 100);
        QCOMPARE(w.dim->text(), QString("100")); // the field shows the value in use again
        QCOMPARE(changed.count(), 0);
        QCOMPARE(refused.count(), 1);
        const QString why = QString("D must be between 2 and 5000; %1 was not used").arg(typed);
        QCOMPARE(refused.at(0).at(0).toString(), why);
        QVERIFY(w.main.statusBar()->currentMessage().contains(why));
        QTRY_COMPARE(QToolTip::text(), why);
    }

    void aValidNumberIsTakenOnEnterOnly() {
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy changed(w.dim, &QSpinBox::valueChanged);
        QSignalSpy refused(w.dim, &IntSpinBox::refused);
        w.dim->setFocus(Qt::TabFocusReason);
        w.dim->selectAll();
        QTest::keyClicks(w.dim, "300");
        QCOMPARE(changed.count(), 0); // no run started per keystroke
        QTest::keyClick(w.dim, Qt::Key_Return);
        QCOMPARE(w.dim->value(), 300);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(refused.count(), 0);
        QVERIFY(w.main.statusBar()->currentMessage().isEmpty());
    }

    void focusOutRefusesToo() {
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy refused(w.dim, &IntSpinBox::refused);
        w.dim->setFocus(Qt::TabFocusReason);
        w.dim->selectAll();
        QTest::keyClicks(w.dim, "-5");
        QTest::keyClick(w.dim, Qt::Key_Tab); // on to the next field
        QTRY_VERIFY(w.rate->hasFocus());
        QCOMPARE(w.dim->value(), 100);
        QCOMPARE(refused.count(), 1);
        QVERIFY(w.main.statusBar()->currentMessage().contains("D must be between 2 and 5000"));
    }

    void anEmptiedFieldSaysWhatIsKept() {
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy changed(w.rate, &QDoubleSpinBox::valueChanged);
        QSignalSpy refused(w.rate, &RealSpinBox::refused);
        w.rate->setFocus(Qt::TabFocusReason);
        w.rate->selectAll();
        QTest::keyClick(w.rate, Qt::Key_Backspace);
        QCOMPARE(w.rate->text(), QString());
        QTest::keyClick(w.rate, Qt::Key_Return);
        QCOMPARE(w.rate->value(), 0.01);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.at(0).at(0).toString(),
                 QString("Learning rate needs a number; %1 is kept").arg(w.rate->text()));
        QVERIFY(w.main.statusBar()->currentMessage().contains("needs a number"));
    }

    void aRealBoxRefusesNegativeNumbers_data() {
        QTest::addColumn<QString>("typed");
        QTest::newRow("negative") << "-0.5";
        QTest::newRow("minus zero") << "-0";
        QTest::newRow("zero") << "0";
        QTest::newRow("above the maximum") << "12.5";
    }
    void aRealBoxRefusesNegativeNumbers() {
        QFETCH(QString, typed);
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy changed(w.rate, &QDoubleSpinBox::valueChanged);
        QSignalSpy refused(w.rate, &RealSpinBox::refused);
        typeAndEnter(w.rate, typed);
        QCOMPARE(w.rate->value(), 0.01);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(refused.count(), 1);
        const QString why =
            QString("Learning rate must be between 1e-07 and 10; %1 was not used").arg(typed);
        QCOMPARE(refused.at(0).at(0).toString(), why);
        QVERIFY(w.main.statusBar()->currentMessage().contains(why));
        typeAndEnter(w.rate, "0.5"); // and a valid rate is still taken
        QCOMPARE(w.rate->value(), 0.5);
        QCOMPARE(refused.count(), 1);
    }

    void aSuffixAndSpecialValueTextDoNotHideTheNumber() {
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy refused(w.speed, &IntSpinBox::refused);
        typeAndEnter(w.speed, "-5");
        QCOMPARE(w.speed->value(), 20);
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.at(0).at(0).toString(),
                 QString("Speed must be between 0 and 1000; -5 was not used"));
        typeAndEnter(w.speed, "0");
        QCOMPARE(w.speed->value(), 0);
        QCOMPARE(w.speed->text(), QString("as fast as possible"));
    }

    void anAccessibleNameNamesTheField() {
        Window w;
        w.dim->setAccessibleName("2D view x");
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy refused(w.dim, &IntSpinBox::refused);
        typeAndEnter(w.dim, "9999");
        QCOMPARE(refused.count(), 1);
        QVERIFY(refused.at(0).at(0).toString().startsWith("2D view x must be between 2 and 5000"));
    }

    void spaceInAFieldIsPlayPause_data() {
        QTest::addColumn<bool>("real");
        QTest::addColumn<bool>("afterTab");
        QTest::newRow("int box, tabbed into") << false << true;
        QTest::newRow("int box, cursor in the text") << false << false;
        QTest::newRow("real box, tabbed into") << true << true;
    }
    void spaceInAFieldIsPlayPause() {
        QFETCH(bool, real);
        QFETCH(bool, afterTab);
        Window w;
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy triggered(w.play, &QAction::triggered);
        QAbstractSpinBox* box = real ? static_cast<QAbstractSpinBox*>(w.rate) : w.dim;
        if (afterTab) { // Tab selects the whole text, which Space used to replace
            QAbstractSpinBox* from = real ? static_cast<QAbstractSpinBox*>(w.dim) : w.rate;
            from->setFocus();
            QTest::keyClick(from, real ? Qt::Key_Tab : Qt::Key_Backtab);
        } else {
            box->setFocus();
            QTest::keyClick(box, Qt::Key_End);
        }
        QTRY_VERIFY(box->hasFocus());
        const QString before = box->text();
        QTest::keyClick(box, Qt::Key_Space);
        QCOMPARE(triggered.count(), 1);
        QCOMPARE(box->text(), before);
        QTest::keyClick(box, Qt::Key_Space);
        QCOMPARE(triggered.count(), 2);
        QCOMPARE(box->text(), before);
        // The rest of editing is as before: digits, Backspace, Enter.
        box->selectAll();
        QTest::keyClicks(box, "3");
        QTest::keyClick(box, Qt::Key_Backspace);
        QTest::keyClicks(box, "4");
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(real ? w.rate->value() : double(w.dim->value()), 4.0);
    }

    void spaceWithoutAShortcutTypesNothing() {
        Window w;
        w.play->setEnabled(false);
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        w.dim->setFocus(Qt::TabFocusReason);
        w.dim->selectAll();
        QTest::keyClick(w.dim, Qt::Key_Space);
        QCOMPARE(w.dim->text(), QString("100"));
        QTest::keyClick(w.dim, Qt::Key_Return);
        QCOMPARE(w.dim->value(), 100);
    }

    void aPlainSpinBoxCanLetSpaceThrough() {
        Window w;
        auto* plain = new QSpinBox;
        plain->setRange(2, 1000);
        plain->setValue(10);
        letSpaceThrough(plain);
        static_cast<QFormLayout*>(w.main.centralWidget()->layout())->addRow("trials", plain);
        QVERIFY(QTest::qWaitForWindowActive(&w.main));
        QSignalSpy triggered(w.play, &QAction::triggered);
        plain->setFocus(Qt::TabFocusReason);
        plain->selectAll();
        QTest::keyClick(plain, Qt::Key_Space);
        QCOMPARE(triggered.count(), 1);
        QCOMPARE(plain->text(), QString("10"));
    }

    void controlsAndSessionsAcceptTheSameRanges() {
        // A value the session reader accepts is one the controls show unchanged, and a value it
        // refuses is one the controls cannot hold (they clamp it): no session runs numbers the
        // window does not show.
        ControlPanel panel;
        auto sessionAccepts = [](const fa::ExplorerConfig& c) {
            fa::io::Session s;
            s.config = c;
            try {
                fa::io::sessionFromJson(fa::io::sessionToJson(s));
            } catch (const fa::io::SessionError&) {
                return false;
            }
            return true;
        };
        auto check = [&](auto set, auto get, double value) {
            fa::ExplorerConfig c = panel.config();
            set(c, value);
            panel.setConfig(c);
            const bool shown = get(panel.config()) == value;
            QVERIFY2(shown == sessionAccepts(c), qPrintable(QString::number(value)));
        };
        auto setHi = [](fa::ExplorerConfig& c, double v) { c.generator.spectrumHi = v; };
        auto getHi = [](const fa::ExplorerConfig& c) { return c.generator.spectrumHi; };
        auto setLo = [](fa::ExplorerConfig& c, double v) { c.generator.spectrumLo = v; };
        auto getLo = [](const fa::ExplorerConfig& c) { return c.generator.spectrumLo; };
        auto setLr = [](fa::ExplorerConfig& c, double v) { c.learningRate = v; };
        auto getLr = [](const fa::ExplorerConfig& c) { return c.learningRate; };
        for (const double v : {20.0, 1e9, 1.5e9, 1e308})
            check(setHi, getHi, v);
        for (const double v : {0.5, 1e-4, 5e-5})
            check(setLo, getLo, v);
        for (const double v : {0.001, 10.0, 11.0, 1e6, 1e-7, 5e-8})
            check(setLr, getLr, v);

        // Sessions at the edges of the reader's other ranges are shown as they run: K and fitted
        // K of 2000 (the fields stopped at 1000), a billion samples and warm-up, the largest seed
        // a session holds exactly (2^53 - 1; the field held 10^9).
        fa::ExplorerConfig big = panel.config();
        big.generator.dim = 5000;
        big.generator.kind = fa::GeneratorKind::Haar;
        big.generator.latent = 2000;
        big.fitLatent = 2000;
        big.runBatch = false;
        big.totalSamples = 1000000000;
        big.warmup = 1000000000;
        big.seed = 9007199254740991ULL;
        QVERIFY(sessionAccepts(big));
        panel.setConfig(big);
        const fa::ExplorerConfig shown = panel.config();
        QCOMPARE(shown.generator.latent, 2000);
        QCOMPARE(shown.fitLatent, 2000);
        QCOMPARE(shown.totalSamples, 1000000000L);
        QCOMPARE(shown.warmup, 1000000000L);
        QCOMPARE(shown.seed, std::uint64_t{9007199254740991ULL});
    }

    void posteriorControlsAndSessionsAgree() {
        // The posterior session reader takes the fields' ranges: a learning rate of 1e6 or 1
        // synthetic row (below the field's 2) are refused, and the largest seed a session holds
        // is shown as it runs.
        PosteriorControls controls;
        fa::io::PosteriorSession s;
        s.config = controls.config();
        auto refusedWith = [&](const char* key, const QJsonValue& v, const char* section) {
            QJsonObject root = QJsonDocument::fromJson(fa::io::posteriorSessionToJson(s)).object();
            QJsonObject part = root[section].toObject();
            part[key] = v;
            root[section] = part;
            try {
                fa::io::posteriorSessionFromJson(QJsonDocument(root).toJson());
            } catch (const fa::io::SessionError& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(refusedWith("lrC", 10.0, "run").isEmpty());
        QVERIFY(refusedWith("lrC", 1e6, "run").contains("'run.lrC'"));
        QVERIFY(refusedWith("sigma", 1e3, "run").contains("'run.sigma'"));
        QVERIFY(refusedWith("latent", 2000, "run").contains("'run.latent'"));
        QVERIFY(refusedWith("syntheticRows", 1, "data").contains("'data.syntheticRows'"));
        s.config.seed = 9007199254740991ULL;
        const auto back = fa::io::posteriorSessionFromJson(fa::io::posteriorSessionToJson(s));
        controls.setConfig(back.config);
        QCOMPARE(controls.config().seed, std::uint64_t{9007199254740991ULL});
    }

    // Scientific notation where a range spans decades: 1e-4 is 0.0001, not "14".
    void aRealFieldTakesScientificNotation_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("value");
        QTest::newRow("1e-4") << "1e-4" << 1e-4;
        QTest::newRow("2.5E-7") << "2.5E-7" << 2.5e-7;
        QTest::newRow("1e+1") << "1e+1" << 10.0;
        QTest::newRow("0.000123") << "0.000123" << 0.000123; // finer than 7 decimals' rounding
    }
    void aRealFieldTakesScientificNotation() {
        QFETCH(QString, typed);
        QFETCH(double, value);
        Window w;
        QSignalSpy changed(w.rate, &QDoubleSpinBox::valueChanged);
        typeAndEnter(w.rate, typed);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(w.rate->value(), value);
        // What the field shows reads back as the same number (no silent change on focus-out).
        QCOMPARE(w.rate->locale().toDouble(w.rate->text()), value);
    }

    void scientificNotationOutsideTheRangeIsRefused() {
        Window w;
        QSignalSpy refused(w.rate, &RealSpinBox::refused);
        typeAndEnter(w.rate, "1e9");
        QCOMPARE(w.rate->value(), 0.01);
        QCOMPARE(refused.size(), 1);
        QVERIFY(refused[0][0].toString().contains("1e9 was not used"));
        for (const char* typed : {"1e400", "1e-400"}) { // beyond a double: once undone silently
            typeAndEnter(w.rate, typed);
            QVERIFY(refused.last()[0].toString().contains(QString(typed) + " was not used"));
        }
        typeAndEnter(w.dim, "300"); // another field's good number leaves the warning up,
        QVERIFY(w.main.statusBar()->currentMessage().contains("1e-400 was not used"));
        typeAndEnter(w.rate, "0.02"); // this field's takes it down (it stayed up 10 s)
        QVERIFY(w.main.statusBar()->currentMessage().isEmpty());
    }

    void aWholeFieldTakesScientificNotation() {
        // A user found "1e9" in a whole field (latent K, 1..100) taken as 19, the run restarted,
        // without a word: the letter was dropped. Now a whole number in the range is taken in
        // that notation, and anything else is refused by name with what was typed.
        Window w;
        QSignalSpy refused(w.dim, &IntSpinBox::refused);
        typeAndEnter(w.dim, "1e3");
        QCOMPARE(w.dim->value(), 1000);
        typeAndEnter(w.dim, "2.5e2");
        QCOMPARE(w.dim->value(), 250);
        QCOMPARE(refused.size(), 0);
        typeAndEnter(w.dim, "1e9");
        QCOMPARE(w.dim->value(), 250);
        QCOMPARE(refused.size(), 1);
        QVERIFY(refused[0][0].toString().contains("1e9 was not used"));
        typeAndEnter(w.dim, "2.5e0"); // not whole
        QCOMPARE(w.dim->value(), 250);
        QCOMPARE(refused.size(), 2);
        QVERIFY(refused[1][0].toString().contains("must be a whole number; 2.5e0 was not used"));
        typeAndEnter(w.dim, "1e400"); // beyond a double: once undone silently
        QVERIFY(refused.size() == 3 && refused[2][0].toString().contains("1e400 was not used"));
    }
};

QTEST_MAIN(TestFormWidgets)
#include "test_form_widgets.moc"
