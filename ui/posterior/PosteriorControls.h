#pragma once
// The posterior lab's parameters: data set (synthetic, the four UCI sets, any CSV), prior
// precision rule, which approximations run, their settings, the two parameters shown, and the
// live SGD sliders (learning rate and lambda act without restarting the run).
// Its numeric fields are built from the lab's schema (core/posterior/PosteriorParams.h).
#include "core/posterior/PosteriorParams.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/ParamFields.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

class PosteriorControls : public QWidget {
    Q_OBJECT
  public:
    explicit PosteriorControls(QWidget* parent = nullptr);

    fa::PosteriorLiveConfig config() const;
    /// Shows a saved configuration (sessions); emits nothing.
    void setConfig(const fa::PosteriorLiveConfig& config);
    /// Selects a CSV file as the data set; its header fills the target column list. Returns
    /// false with a message when the header cannot be read.
    bool useCsv(const QString& path, QString* error = nullptr);
    int coordI() const;
    int coordJ() const;
    long stepEpochs() const;
    double speed() const;
    void setSpeed(double epochsPerSecond); ///< emits nothing
    void setCoordinates(int i, int j);     ///< 0-based; emits nothing
    /// The speed field (the toolbar's speed box mirrors it; PosteriorPage::speedBox).
    QSpinBox* speedBox() const { return m_speed; }
    /// Shows the run's alpha, beta, lambda and learning rate; sliders follow without emitting.
    void showRun(const fa::PosteriorLiveSnapshot& snapshot);
    QSlider* learningRateSlider() const { return m_lrSlider; }
    QSlider* lambdaSlider() const { return m_lambdaSlider; }
    QCheckBox* methodBox(fa::PosteriorMethod method) const;
    /// The run's length (a live change, no restart: LabPageOf::connectLength), and whether the
    /// fields are being filled from a configuration (no change then).
    QAbstractSpinBox* lengthField() const { return m_length; }
    const bool& filling() const { return m_quiet; }

  signals:
    void structureChanged(); ///< restart with config()
    void learningRateChanged(double eta);
    void lambdaChanged(double lambda);
    void coordinatesChanged(int i, int j);
    void speedChanged(double epochsPerSecond);
    void openCsvRequested();

  private:
    // The constructor's parts, by responsibility: each group builds its widgets and form.
    QGroupBox* makeDataGroup(QPushButton* open); ///< data set, target, N, split, α and β
    QGroupBox* makeMethodsGroup();               ///< the approximations, K, the seed
    QGroupBox* makeVariationalGroup();           ///< VIFA's and VI's options
    QGroupBox* makeSgdGroup();                   ///< SGD's options and the live sliders
    QGroupBox* makeViewGroup();                  ///< the parameters shown, speed, step, length
    void connectControls(QPushButton* open);
    bool showCsv(const QString& path, QString* error); ///< useCsv without emitting
    void updateEnabled();
    void emitStructure();
    /// The SGD learning rate as it runs (exact; the slider shows the nearest position), into
    /// the slider and its label without emitting.
    void showLearningRate(double eta);

    QComboBox *m_dataset, *m_target, *m_hyper, *m_optimiser, *m_estimator;
    QCheckBox* m_compare = nullptr;
    /// The built-in data sets come first in m_dataset; an opened CSV file is the entry after.
    static constexpr int kBuiltinSets = 7;
    ParamFields<fa::PosteriorLiveConfig> m_fields{fa::posteriorLiveParams()};
    QAbstractSpinBox* m_length = nullptr; ///< the schema's epochs: a live change, no restart
    QSpinBox *m_coordI, *m_coordJ, *m_speed, *m_step;
    MethodBoxes<fa::PosteriorMethod> m_methods;
    QSlider *m_lrSlider, *m_lambdaSlider;
    QLabel *m_lrLabel, *m_lambdaLabel, *m_priorLabel;
    QPushButton* m_resetLambda;
    QString m_csvPath;
    double m_sgdLearningRate = 0.0; ///< what config() gives; the slider moves it
    double m_defaultLambda = 0.0;
    bool m_quiet = false;
};
