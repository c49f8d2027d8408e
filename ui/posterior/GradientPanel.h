#pragma once
// The gradient panel (issue 13): for the current q of the first full or mean-field VI fit, a
// cloud of each estimator's mean-gradient estimates (one chart each, each on its own scale: the
// score function's cloud is thousands of times wider) and every estimator's total variance
// against the number of draws L on log-log axes (mean block solid, scale block dashed). A
// "family" choice turns the panel to the families beyond the Gaussian (issue 28 item 2;
// docs/maths/posterior.md §4.7): a gamma or exponential q on a Poisson rate, independent
// Bernoulli q on discrete latents, each family's variance against L from grad-variance's study
// (core/posterior/GradVariance.h), run off the window's thread.
#include "core/posterior/GradVariance.h"
#include "core/posterior/PosteriorLive.h"

#include <QWidget>
#include <array>

/// The estimators' names in the panel's charts, in GradientEstimator's order.
inline constexpr std::array<const char*, 3> kEstimatorLabels = {
    "reparameterisation", "score function", "score + baseline"};

class BackgroundJob;
class QChartView;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

class GradientPanel : public QWidget {
    Q_OBJECT
  public:
    explicit GradientPanel(QWidget* parent = nullptr);
    void showSnapshot(const fa::PosteriorLiveSnapshot& snapshot);
    QScatterSeries* cloud(int estimator) const { return m_clouds[std::size_t(estimator)]; }
    QLineSeries* kl(int estimator) const { return m_klLines[std::size_t(estimator)]; }
    QLineSeries* variance(int estimator, bool scale) const {
        return (scale ? m_scaleLines : m_meanLines)[std::size_t(estimator)];
    }
    /// The family studied: 0 the live fit's Gaussian, else one of kGradientFamilies.
    int family() const;
    void setFamily(int family);
    QComboBox* familyBox() const { return m_family; }
    bool pending() const; ///< a family's study is running
    /// The rows of the family on show (empty for the live Gaussian).
    const std::vector<fa::GradVarianceRow>& familyRows() const { return m_rows; }

  signals:
    void familyShown(); ///< a family's study has been drawn (tests wait for it)

  private:
    QGridLayout* makeClouds();      // one scatter chart per estimator
    QChartView* makeVarianceView(); // total variance against L, mean and scale block
    /// The same fit driven by each estimator: its KL to the exact posterior (log evidence minus
    /// the ELBO) over epochs.
    QChartView* makeKlView();
    void showKl(const fa::PosteriorLiveSnapshot& snapshot);
    QWidget* makeFamilyRow(); // the family choice and the note
    void studyFamily();       // the chosen family's study, on the job
    void showFamily();        // its rows in the variance view
    void clearStudy();
    std::array<QChartView*, 3> m_cloudViews{};
    std::array<QScatterSeries*, 3> m_clouds{};
    std::array<QValueAxis*, 6> m_cloudAxes{};
    std::array<QLineSeries*, 3> m_meanLines{}, m_scaleLines{};
    QLogValueAxis *m_lx, *m_ly, *m_kly;
    QValueAxis* m_klx;
    std::array<QLineSeries*, 3> m_klLines{};
    QLabel* m_note;
    QLabel* m_familyNote; // what the chosen family's target and estimators are
    QComboBox* m_family;
    QChartView *m_varianceView, *m_klView;
    BackgroundJob* m_job;
    std::vector<fa::GradVarianceRow> m_rows;
    bool m_restudy = false; ///< study the family again when the running job ends
    /// Held, not only compared: a freed study's address may come back for the next one.
    std::shared_ptr<const fa::GradientStudy> m_shown;
};
