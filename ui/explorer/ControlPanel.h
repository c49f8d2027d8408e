#pragma once
// The model and fitting parameters of a live run, with tooltips that give each one's meaning.
#include "core/explorer/ExplorerParams.h"
#include "core/explorer/LiveExplorer.h"
#include "ui/common/ParamFields.h"

#include <QWidget>

class QCheckBox;
class QGroupBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

class ControlPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ControlPanel(QWidget* parent = nullptr);
    fa::ExplorerConfig config() const;
    void setConfig(const fa::ExplorerConfig& config);
    fa::ViewOptions viewOptions() const;
    void setViewOptions(const fa::ViewOptions& view);
    double speed() const; ///< observations per second; 0 = as fast as possible
    void setSpeed(double obsPerSecond);
    long stepCount() const; ///< observations per Step
    /// The speed field (the toolbar's speed box mirrors it; ExplorerPage::speedBox).
    QSpinBox* speedBox() const { return m_speed; }

  signals:
    void structureChanged();                ///< anything that needs a reset
    void learningRateChanged(double eta);   ///< acts live
    void speedChanged(double obsPerSecond); ///< acts live
    void viewChanged();                     ///< 2D coordinates or block size; acts live

  private:
    // The constructor's steps: the three groups of fields, then their connections.
    QGroupBox* modelBox();
    QGroupBox* fittingBox();
    QGroupBox* viewBox();
    void connectControls();
    ParamFields<fa::ExplorerConfig> m_fields{fa::explorerParams()}; ///< ExplorerParams.h
    QAbstractSpinBox *m_dim, *m_lr;
    QSpinBox *m_speed, *m_stepN, *m_coordI, *m_coordJ, *m_block;
    QDoubleSpinBox *m_specLo, *m_specHi;
    QComboBox* m_generator;
    QCheckBox *m_em, *m_sga, *m_batch;
};
