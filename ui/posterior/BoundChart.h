#pragma once
// Hyperparameters through the bound (issue 13): for linear regression, the ELBO of a
// full-covariance and of a mean-field q and the log evidence at the same alpha, beta over the
// iterations of their joint coordinate ascent (core/vi/BoundHyper.h). The full q's bound meets
// the evidence at its maximum; the mean-field one stays KL_min below.
#include "core/posterior/PosteriorLive.h"

#include <QWidget>

class QLabel;
class QLineSeries;
class QValueAxis;

class BoundChart : public QWidget {
    Q_OBJECT
  public:
    explicit BoundChart(QWidget* parent = nullptr);
    void showSnapshot(const fa::PosteriorLiveSnapshot& snapshot);
    QLineSeries* elbo(bool meanField) const { return meanField ? m_elboMf : m_elboFull; }
    QLineSeries* evidence(bool meanField) const { return meanField ? m_evMf : m_evFull; }

  private:
    QLineSeries *m_elboFull, *m_evFull, *m_elboMf, *m_evMf;
    QValueAxis *m_x, *m_y;
    QLabel* m_note;
    std::shared_ptr<const std::vector<fa::BoundStep>> m_shown; ///< held: see GradientPanel
};
