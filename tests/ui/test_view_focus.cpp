// A double-clicked view fills its lab's view area and goes back to its own place
// (ui/common/ViewFocus.h): the geometry it gets is the area's, read from the widgets Qt laid out.
#include "ui/common/LabPage.h"
#include "ui/common/ViewFocus.h"
#include "ui/shell/MainWindow.h"

#include "tests/support/SettingsIsolation.h"

#include <QDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtCharts/QChartView>
#include <QtTest>

namespace {
/// A view area of four charts in a 2 × 2 grid, shown at 800 × 600.
struct Grid {
    QWidget area;
    QGridLayout* grid = new QGridLayout(&area);
    std::vector<QChartView*> charts;
    Grid() {
        ViewFocus::markViewArea(&area);
        for (int k = 0; k < 4; ++k) {
            charts.push_back(new QChartView);
            grid->addWidget(charts.back(), k / 2, k % 2);
        }
        area.resize(800, 600);
        area.show();
    }
    bool shown() { return QTest::qWaitForWindowExposed(&area); }
    QRect inArea(const QWidget* w) const { return QRect(w->mapTo(&area, QPoint(0, 0)), w->size()); }
};

void settle() {
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
}
} // namespace

class TestViewFocus : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { fa::test::isolateSettings(); }

    void aDoubleClickedChartFillsTheAreaAndGoesBack() {
        Grid g;
        QVERIFY(g.shown());
        ViewFocus focus(nullptr, {});
        std::vector<QRect> before;
        for (const QChartView* c : g.charts)
            before.push_back(g.inArea(c));
        QVERIFY(before[1].width() < 420 && before[1].height() < 320); // a quarter of the area

        QTest::mouseDClick(g.charts[1]->viewport(), Qt::LeftButton);
        settle();
        QCOMPARE(focus.focused(), g.charts[1]);
        QCOMPARE(g.inArea(g.charts[1]), g.area.rect());
        QVERIFY(g.charts[1]->isVisible());
        for (int k : {0, 2, 3}) // the others stay where they were, underneath
            QCOMPARE(g.inArea(g.charts[static_cast<std::size_t>(k)]),
                     before[static_cast<std::size_t>(k)]);

        g.area.resize(700, 500); // the cover follows the area
        settle();
        QCOMPARE(g.inArea(g.charts[1]), g.area.rect());

        QTest::keyClick(&g.area, Qt::Key_Escape);
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QCOMPARE(g.charts[1]->parentWidget(), &g.area);
        int row = -1, column = -1, rows = 0, columns = 0;
        g.grid->getItemPosition(g.grid->indexOf(g.charts[1]), &row, &column, &rows, &columns);
        QCOMPARE(QList<int>({row, column, rows, columns}), QList<int>({0, 1, 1, 1}));
        QCOMPARE(g.grid->count(), 4); // no stand-in left behind
        g.area.resize(800, 600);
        settle();
        QCOMPARE(g.inArea(g.charts[1]), before[1]);

        QTest::mouseDClick(g.charts[2]->viewport(), Qt::LeftButton); // again, another one
        settle();
        QCOMPARE(focus.focused(), g.charts[2]);
        QTest::mouseDClick(g.charts[2]->viewport(), Qt::LeftButton); // and back by a double-click
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QCOMPARE(g.inArea(g.charts[2]), before[2]);
    }

    void aFieldOrALoneViewKeepsItsPlace() {
        Grid g;
        QVERIFY(g.shown());
        auto* field = new QSpinBox;
        g.grid->addWidget(field, 2, 0);
        settle();
        ViewFocus focus(nullptr, {});
        QTest::mouseDClick(field, Qt::LeftButton);
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QVERIFY(g.grid->indexOf(field) >= 0);

        QWidget lone;
        auto* column = new QVBoxLayout(&lone);
        auto* chart = new QChartView;
        column->addWidget(chart);
        ViewFocus::markViewArea(&lone);
        lone.resize(400, 300);
        lone.show();
        QVERIFY(QTest::qWaitForWindowExposed(&lone));
        QVERIFY(!focus.toggle(chart->viewport())); // nothing beside it to make room for
        QVERIFY(!focus.toggle(g.charts[0]->parentWidget()->parentWidget())); // outside an area
    }

    // A label is no view; a chart in a row inside a column is; a stack's chart takes the stack
    // along (the page goes on switching its pages); a page laying the view out anew, or
    // deleting it, ends the focus without a stand-in left; Esc in a dialog is the dialog's.
    void labelsRowsStacksAndPagesThatMoveViews() {
        QWidget area;
        ViewFocus::markViewArea(&area);
        auto* column = new QVBoxLayout(&area);
        auto* label = new QLabel("a line of text under the charts");
        auto* row = new QHBoxLayout;
        auto* left = new QChartView;
        auto* stack = new QStackedWidget;
        auto* first = new QChartView;
        auto* second = new QChartView;
        stack->addWidget(first);
        stack->addWidget(second);
        row->addWidget(left);
        row->addWidget(stack);
        column->addLayout(row);
        column->addWidget(label);
        area.resize(800, 600);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        ViewFocus focus(nullptr, {});
        QVERIFY(!focus.toggle(label));

        QVERIFY(focus.toggle(left->viewport())); // in the row inside the column
        settle();
        QCOMPARE(QRect(left->mapTo(&area, QPoint(0, 0)), left->size()), area.rect());
        QVERIFY(focus.restore());
        QCOMPARE(row->indexOf(left), 0);

        QVERIFY(focus.toggle(first->viewport()));
        QCOMPARE(focus.focused(), stack);
        stack->setCurrentWidget(second); // the page's redraw
        QCOMPARE(stack->currentWidget(), second);
        QVERIFY(focus.restore());
        QCOMPARE(row->indexOf(stack), 1);

        QVERIFY(focus.toggle(left->viewport()));
        row->insertWidget(0, left); // the page lays it out anew (the neural lab's grid)
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QCOMPARE(left->parentWidget(), &area);
        QCOMPARE(row->count(), 2); // no stand-in left in the row
        QVERIFY(!focus.restore());

        QVERIFY(focus.toggle(left->viewport()));
        QDialog dialog(&area);
        dialog.setModal(true);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QCOMPARE(focus.focused(), left); // the dialog's Esc closed the dialog only
        QVERIFY(!dialog.isVisible());
        delete left; // the page deletes the view in focus
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QCOMPARE(row->count(), 1);
        QVERIFY(!focus.restore());
    }

    void aTabbedViewFillsItsTabUntilTheTabIsLeft() {
        QTabWidget tabs;
        ViewFocus::markViewArea(&tabs);
        auto* page = new QWidget;
        auto* column = new QVBoxLayout(page);
        auto* top = new QChartView;
        auto* bottom = new QChartView;
        column->addWidget(top);
        column->addWidget(bottom, 2);
        tabs.addTab(page, "live");
        tabs.addTab(new QWidget, "other");
        tabs.resize(600, 500);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        const QRect place = bottom->geometry();
        ViewFocus focus(nullptr, {});

        QTest::mouseDClick(bottom->viewport(), Qt::LeftButton);
        settle();
        QCOMPARE(focus.focused(), bottom);
        QCOMPARE(QRect(bottom->mapTo(page, QPoint(0, 0)), bottom->size()), page->rect());

        tabs.setCurrentIndex(1); // the tab leaves the screen: every view back
        settle();
        QCOMPARE(focus.focused(), nullptr);
        QCOMPARE(column->indexOf(bottom), 1);
        QCOMPARE(column->stretch(1), 2);
        tabs.setCurrentIndex(0);
        settle();
        QCOMPARE(bottom->geometry(), place);
    }

    void theWindowsChartsTakeTheFocus() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LabPage* page = window.currentPage();
        QChartView* chart = nullptr;
        for (QChartView* c : page->findChildren<QChartView*>())
            if (!chart && c->isVisible())
                chart = c; // the live run's first chart
        QVERIFY(chart);
        const QSize quarter = chart->size();
        QTest::mouseDClick(chart->viewport(), Qt::LeftButton);
        settle();
        QVERIFY(chart->width() > quarter.width() * 3 / 2 &&
                chart->height() > quarter.height() * 3 / 2);
        QTest::keyClick(chart->viewport(), Qt::Key_Escape);
        settle();
        QCOMPARE(chart->size(), quarter);
    }
};

QTEST_MAIN(TestViewFocus)
#include "test_view_focus.moc"
