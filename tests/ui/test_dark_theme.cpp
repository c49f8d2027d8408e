// View → High-contrast dark theme (issue 25, for projectors): every chart of every lab turns
// black with light text (contrast ≥ 7 : 1, WCAG's AAA for text) and every series drawn stays
// visible on it (≥ 3 : 1, WCAG's figure for graphics: the black "exact" and "truth" curves turn
// light); series drawn after the switch follow; switching back restores every colour exactly;
// the choice is remembered.
#include "tests/support/SettingsIsolation.h"
#include "ui/common/DarkTheme.h"
#include "ui/common/LabPage.h"
#include "ui/shell/Labs.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/ViewControls.h"

#include <QSettings>
#include <QStyle>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QXYSeries>
#include <QtTest>

namespace {
/// Every colour the theme may touch, in a fixed order: chart backgrounds, text, series.
QStringList colours(QWidget* root) {
    QStringList out;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        QChart* c = view->chart();
        out << c->backgroundBrush().color().name(QColor::HexArgb)
            << QString::number(int(c->backgroundBrush().style()))
            << c->titleBrush().color().name(QColor::HexArgb)
            << c->legend()->labelColor().name(QColor::HexArgb);
        for (QAbstractAxis* a : c->axes())
            out << a->labelsColor().name(QColor::HexArgb) << a->gridLineColor().name();
        for (QAbstractSeries* s : c->series())
            if (auto* xy = qobject_cast<QXYSeries*>(s))
                out << xy->pen().color().name(QColor::HexArgb)
                    << xy->brush().color().name(QColor::HexArgb);
    }
    return out;
}
} // namespace

class TestDarkTheme : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        fa::test::isolateSettings();
        QSettings().clear();
    }

    void contrastIsWcags() { // the published reference values
        using presentation::contrastRatio;
        QCOMPARE(contrastRatio(Qt::white, Qt::black), 21.0);
        QVERIFY(std::abs(contrastRatio(QColor("#777777"), Qt::white) - 4.48) < 0.01);
        QVERIFY(std::abs(contrastRatio(QColor("#0000ff"), Qt::white) - 8.59) < 0.01);
        QCOMPARE(presentation::onBlack(Qt::black), QColor(Qt::white));
        QCOMPARE(presentation::onBlack(QColor(0x1f, 0x77, 0xb4)), QColor(0x1f, 0x77, 0xb4));
    }

    void everyLabIsHighContrastAndComesBack() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        for (const LabEntry& lab : labRegistry()) { // every chart drawn once
            QVERIFY(window.setCurrentLab(lab.id));
            QSignalSpy reached(window.currentPage(), &LabPage::reached);
            window.currentPage()->runUntil(lab.id == "explorer" ? 300 : 3);
            QVERIFY2(reached.wait(60000), qPrintable(lab.id));
        }
        // Work a page does in the background (the posterior lab's gradient study, the
        // explorer's refits) may still add series, and a page on a hidden tab draws only when
        // shown (switching the theme draws it): wait until no page has work out, then draw
        // every page once before taking the light colours.
        for (LabPage* page : window.pages())
            QTRY_VERIFY_WITH_TIMEOUT(!page->backgroundPending(), 60000);
        for (LabPage* page : window.pages())
            page->redrawNow();
        const QStringList light = colours(&window);
        window.viewControls()->setDark(true);
        QVERIFY(QSettings().value("view/dark").toBool());
        QVERIFY(presentation::contrastRatio(QApplication::palette().color(QPalette::WindowText),
                                            QApplication::palette().color(QPalette::Window)) >=
                7.0);
        const auto check = [&](const QString& when) {
            int series = 0;
            for (QChartView* view : window.findChildren<QChartView*>()) {
                QChart* c = view->chart();
                const QColor back = c->backgroundBrush().color();
                const QString where = when + ": " + c->title();
                QVERIFY2(c->backgroundBrush().style() == Qt::SolidPattern && back == Qt::black,
                         qPrintable(where));
                QVERIFY2(presentation::contrastRatio(c->titleBrush().color(), back) >= 7.0,
                         qPrintable(where));
                QVERIFY2(presentation::contrastRatio(c->legend()->labelColor(), back) >= 7.0,
                         qPrintable(where));
                for (QAbstractAxis* a : c->axes())
                    QVERIFY2(presentation::contrastRatio(a->labelsColor(), back) >= 7.0 &&
                                 presentation::contrastRatio(a->titleBrush().color(), back) >= 7.0,
                             qPrintable(where + " / " + a->titleText()));
                for (QAbstractSeries* s : c->series())
                    if (auto* xy = qobject_cast<QXYSeries*>(s); xy && xy->count() > 0) {
                        ++series;
                        const QColor seen = xy->type() == QAbstractSeries::SeriesTypeScatter
                                                ? xy->brush().color()
                                                : xy->pen().color();
                        QVERIFY2(presentation::contrastRatio(seen, back) >= 3.0,
                                 qPrintable(where + " / " + xy->name() + " " + seen.name()));
                    }
            }
            QVERIFY(series > 20);
        };
        check("switched on");
        window.viewControls()->setDark(false); // every colour back as it was
        QCOMPARE(colours(&window), light);
        QVERIFY(!QSettings().value("view/dark").toBool());
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 QApplication::style()->standardPalette().color(QPalette::Window));
        // Series drawn after the switch (a new run in every lab) are dark-ready too.
        window.viewControls()->setDark(true);
        for (const LabEntry& lab : labRegistry()) {
            QVERIFY(window.setCurrentLab(lab.id));
            window.currentPage()->reset();
            QSignalSpy reached(window.currentPage(), &LabPage::reached);
            window.currentPage()->runUntil(lab.id == "explorer" ? 300 : 3);
            QVERIFY2(reached.wait(60000), qPrintable(lab.id));
        }
        // A frame drawn now, with no pass of the view tools after it: what a page sets on every
        // frame is dark-ready itself (no flicker between the page's colour and the theme's).
        for (LabPage* page : window.pages())
            page->redrawNow();
        check("after new runs");
        window.viewControls()->setDark(false);
    }

    void theChoiceIsRemembered() {
        {
            MainWindow window;
            window.viewControls()->setDark(true);
        }
        MainWindow again;
        QVERIFY(again.viewControls()->dark());
        again.viewControls()->setDark(false);
    }
};

QTEST_MAIN(TestDarkTheme)
#include "test_dark_theme.moc"
