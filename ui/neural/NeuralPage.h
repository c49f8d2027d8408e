#pragma once
// The window's "Neural" mode: VIFA / VIPPCA over all the weights of a small network on a UCI
// set (or any CSV). Live: train and test NMLL and RMSE against epochs per method and the test
// predictive (mean +- 2 sd against the truth, points sorted by target). Splits: the report's
// protocol (tuning, 90/10 splits) in the background, filling a mean +- SE table beside the
// published figures.
#include "core/neural/NeuralLive.h"
#include "core/neural/NeuralParams.h"
#include "ui/common/LabPageOf.h"
#include "ui/common/MethodBoxes.h"
#include "ui/common/ParamFields.h"
#include "ui/session/NeuralSessionFile.h"

#include <utility>

using NeuralSnapshotPtr = std::shared_ptr<const fa::NeuralLiveSnapshot>;

/// The data sets the page offers (key, label); an opened CSV is the entry after them.
inline constexpr std::pair<const char*, const char*> kNeuralDatasets[] = {
    {"yacht", "Yacht hydrodynamics"},
    {"energy", "Energy efficiency (heating)"},
    {"boston", "Boston housing"},
    {"concrete", "Concrete strength"},
    {"in-between", "In-between (generated, 1-D)"}};

class QCheckBox;
class QGridLayout;
class QGroupBox;
class QPushButton;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSpinBox;
class QTableWidget;
class QTabWidget;
class QChartView;
class NeuralSplitsPanel;
class QValueAxis;

class NeuralPage
    : public LabPageOf<fa::NeuralLive, fa::NeuralLiveSnapshot, fa::io::NeuralSessionFiles> {
    Q_OBJECT
  public:
    explicit NeuralPage(QWidget* parent = nullptr);

    fa::NeuralLiveConfig config() const override;
    void setConfig(const fa::NeuralLiveConfig& config) override; ///< the fields; reset() runs it
    void setMethods(const std::vector<fa::NeuralMethod>& methods);
    QLineSeries*
    curve(const QString& method,
          const QString& which) const; ///< train-nmll, test-nmll, train-rmse, test-rmse, coverage
    QLineSeries* predictiveMean(const QString& method) const;
    QTableWidget* table() const;
    QScatterSeries* truthSeries() const { return m_truth; }
    /// The trajectory view: the kept iterates and the two 95 % ellipses (fit, SWAG) as drawn.
    QScatterSeries* trajectoryPoints() const { return m_trajPoints; }
    QLineSeries* fitEllipse() const { return m_fitEllipse; }
    QLineSeries* swagEllipse() const { return m_swagEllipse; }
    QChartView* trajectoryChart() const { return m_trajChart; }
    /// The splits table's settings (tests and scripted use).
    void setSplitSettings(int splits, int searchTrials, int folds, int epochs);
    const std::vector<fa::NeuralRow>& splitRows() const;
    std::vector<std::pair<QString, QWidget*>> charts() const override;
    bool exportRows(const QString& csvPath);
    /// The live curves as drawn (Ctrl+E), at any epoch: core/io's writeNeuralCurveCsv.
    bool exportCurves(const QString& csvPath) override;
    void runJob() override { runSplits(); }
    void cancelJob() override { cancelSplits(); }
    bool exportJob(const QString& csvPath) override { return exportRows(csvPath); }
    void saveSettings(QSettings& settings) const override;
    void restoreSettings(QSettings& settings) override;
    QWidget* parameterColumn() const override { return m_parameters; }
    bool openCsv(const QString& path) override;

  public slots:
    void runSplits();
    void cancelSplits();

  signals:
    void splitsDone();

  protected:
    void draw(const fa::NeuralLiveSnapshot& snapshot) override;

  private:
    // The constructor's steps: the controls, the methods' boxes, the layout, the connections.
    void makeControls();
    QGroupBox* makeMethods();
    /// The posteriors from SGD iterates: their boxes and their settings' fields.
    QGroupBox* makeIterateMethods();
    void layOut(QPushButton* open, QGroupBox* methods, QGroupBox* iterates);
    void makeTrajectorySeries();
    void connectControls(QPushButton* open);
    /// A bundled set by key, else a CSV path as the fifth entry ("CSV: name").
    void selectDataset(const QString& dataset);
    QLineSeries* series(std::map<std::string, QLineSeries*>& pool, QChartView* view,
                        const std::string& key, const QColor& colour, Qt::PenStyle style,
                        const QString& name);

    QComboBox *m_dataset, *m_hidden, *m_optimiser, *m_init, *m_faStart = nullptr;
    MethodBoxes<fa::NeuralMethod> m_methods;
    MethodBoxes<fa::IterateMethod> m_iterateMethods;
    ParamFields<fa::NeuralLiveConfig> m_fields{fa::neuralLiveParams()}; ///< NeuralParams.h
    QAbstractSpinBox* m_length;
    QWidget* m_parameters = nullptr; ///< the column presentation mode hides
    void drawCurves(const fa::NeuralLiveSnapshot& snapshot);
    void drawPredictive(const fa::NeuralLiveSnapshot& snapshot);
    void drawTrajectory(const fa::NeuralLiveSnapshot& snapshot);

    QChartView *m_nmllChart, *m_rmseChart, *m_covChart, *m_predChart, *m_trajChart;
    QValueAxis *m_nmllX, *m_rmseX, *m_covX, *m_predX, *m_predY, *m_nmllY, *m_rmseY, *m_covY;
    QValueAxis *m_trajX, *m_trajY;
    QScatterSeries* m_truth;
    QScatterSeries* m_trajPoints;
    QLineSeries *m_fitEllipse, *m_swagEllipse;
    QGridLayout* m_liveGrid = nullptr;
    std::map<std::string, QLineSeries*> m_curves, m_pred;
    QTabWidget* m_tabs;
    NeuralSplitsPanel* m_splitsPanel;
    QString m_csvPath;
    bool m_quiet = false;
};
