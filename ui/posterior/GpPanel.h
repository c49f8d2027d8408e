#pragma once
// The posterior lab's "Gaussian processes" tab (issue 28 item 1; docs/maths/gp.md §8): the GP
// predictive of each kernel on the in-between set (mean ± 2 sd over x, with the rows), prior
// functions of random one-hidden-layer networks with H units beside draws of the GP with their
// kernel, and over H the covariance of f(x1), f(x2) against the kernel and the excess kurtosis.
// It computes nothing itself: core's gpLesson runs on a BackgroundJob when the tab is first
// shown and again when the units, H or the draw change; the window never waits for it.
#include "core/posterior/GpLesson.h"
#include "ui/common/SeriesChart.h"

#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

class BackgroundJob;
class QChartView;
class QComboBox;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QPushButton;
class QValueAxis;

/// A SeriesChart the panel draws into from outside.
class LessonChart : public SeriesChart {
  public:
    using SeriesChart::clearAll;
    using SeriesChart::endFrame;
    using SeriesChart::fit;
    using SeriesChart::line;
    using SeriesChart::scatter;
    using SeriesChart::SeriesChart;
    using SeriesChart::setTitle;
};

class GpPanel : public QWidget {
    Q_OBJECT
  public:
    explicit GpPanel(QWidget* parent = nullptr);
    ~GpPanel() override;

    fa::GpLessonConfig config() const; ///< the fields' units, H and the draw's seed
    /// Sets the fields; the lesson is computed again (now if the tab is showing, else when it
    /// is next shown). Units other than nn-erf / nn-relu and an H not offered are passed over.
    void setConfig(const fa::GpLessonConfig& config);
    bool pending() const; ///< a computation is running or waiting for the tab to show
    /// The lesson on show (null before the first one is computed).
    std::shared_ptr<const fa::GpLesson> lesson() const { return m_lesson; }
    std::vector<std::pair<QString, QWidget*>> charts() const; ///< for PNG/SVG export
    QComboBox* unitsBox() const { return m_units; }
    QComboBox* hiddenBox() const { return m_hidden; }
    LessonChart* predictiveChart() const { return m_predictive; }
    LessonChart* drawsChart() const { return m_draws; }
    QLineSeries* kurtosisLine() const { return m_kurtosis; }

  signals:
    void computed(); ///< a lesson has been shown (tests wait for it)

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    QWidget* makeFields();
    QChartView* makeConvergence();
    void recompute();
    void show(const fa::GpLesson& lesson);
    void showConvergence(const fa::GpLesson& lesson);

    QComboBox *m_units, *m_hidden;
    QPushButton* m_redraw;
    QLabel* m_note;
    LessonChart *m_predictive, *m_draws;
    QChartView* m_convergence;
    QLogValueAxis* m_cx;
    QValueAxis* m_cy;
    QLineSeries *m_ratio, *m_ratioLo, *m_ratioHi, *m_kurtosis, *m_one;
    BackgroundJob* m_job;
    std::shared_ptr<const fa::GpLesson> m_lesson;
    std::uint64_t m_seed = 0;
    bool m_stale = true;    ///< the fields changed since the lesson shown was computed
    bool m_again = false;   ///< recompute when the running job ends
    bool m_waiting = false; ///< a lesson asked for has not been shown yet
};
