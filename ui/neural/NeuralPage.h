#pragma once
// The window's "Neural" mode: VIFA / VIPPCA over all the weights of a small network on a UCI
// set (or any CSV). Live: train and test NMLL and RMSE against epochs per method and the test
// predictive (mean +- 2 sd against the truth, points sorted by target). Splits: the report's
// protocol (tuning, 90/10 splits) in the background, filling a mean +- SE table beside the
// published figures.
#include "ui/neural/NeuralWorker.h"

#include <QThread>
#include <QTimer>
#include <QWidget>

class QCheckBox;
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

class NeuralPage : public QWidget {
    Q_OBJECT
  public:
    explicit NeuralPage(QWidget* parent = nullptr);
    ~NeuralPage() override;

    fa::NeuralLiveConfig config() const;
    void setMethods(const std::vector<fa::NeuralMethod>& methods);
    NeuralSnapshotPtr latestSnapshot() const { return m_latest; }
    QLineSeries*
    curve(const QString& method,
          const QString& which) const; ///< which: train-nmll, test-nmll, train-rmse, test-rmse
    QLineSeries* predictiveMean(const QString& method) const;
    QTableWidget* table() const;
    QScatterSeries* truthSeries() const { return m_truth; }
    /// The splits table's settings (tests and scripted use).
    void setSplitSettings(int splits, int searchTrials, int folds, int epochs);
    const std::vector<fa::NeuralRow>& splitRows() const;
    std::vector<std::pair<QString, QWidget*>> charts() const;
    bool exportRows(const QString& csvPath);
    QString lastError() const { return m_lastError; }
    bool running() const { return m_running; }
    bool openCsv(const QString& path);

  public slots:
    void reset();
    void togglePlay();
    void stepOnce();
    void runUntil(long epoch);
    void runSplits();
    void cancelSplits();

  signals:
    void reachedEpoch(long epoch);
    void splitsDone();
    void message(const QString& text, int timeoutMs);
    void statusChanged(const QString& epochText, const QString& stateText);
    void runningChanged(bool running);

  private:
    void onSnapshot(NeuralSnapshotPtr snapshot);
    void redraw();
    QLineSeries* series(std::map<std::string, QLineSeries*>& pool, QChartView* view,
                        const std::string& key, const QColor& colour, Qt::PenStyle style,
                        const QString& name);

    QComboBox *m_dataset, *m_hidden, *m_optimiser, *m_init;
    std::vector<std::pair<fa::NeuralMethod, QCheckBox*>> m_methods;
    QDoubleSpinBox *m_prior, *m_noise, *m_sigma, *m_lr;
    QSpinBox *m_latent, *m_batch, *m_L, *m_split, *m_seed, *m_speed, *m_step;
    QChartView *m_nmllChart, *m_rmseChart, *m_predChart;
    QValueAxis *m_nmllX, *m_rmseX, *m_predX, *m_predY, *m_nmllY, *m_rmseY;
    QScatterSeries* m_truth;
    std::map<std::string, QLineSeries*> m_curves, m_pred;
    QTabWidget* m_tabs;
    QThread m_thread;
    NeuralWorker* m_worker;
    NeuralSplitsPanel* m_splitsPanel;
    NeuralSnapshotPtr m_latest;
    QString m_lastError, m_csvPath;
    long m_waitFor = -1;
    bool m_dirty = false, m_running = false, m_quiet = false;
    QTimer m_redraw;
};
