#pragma once
// Step mode for teaching: what the last observation did to each online fit — the observation,
// its E-step posterior mean m_t and covariance Σ, and how far F and ψ moved.
#include "core/explorer/LiveExplorer.h"

#include <QGroupBox>

class QLabel;

class StepPanel : public QGroupBox {
    Q_OBJECT
  public:
    explicit StepPanel(QWidget* parent = nullptr);
    void showSnapshot(const fa::ExplorerSnapshot& snapshot);
    QString text() const; ///< the shown text (tests)

  private:
    QLabel* m_body;
};
