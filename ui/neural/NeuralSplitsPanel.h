#pragma once
// The neural lab's splits table: the report's protocol (random search with k-fold validation,
// refit, test scores) run in the background (BackgroundJob), one row per method with mean +- SE
// over the finished splits and the report's Table 2/3 figures beside; progress, cancel, export.
#include "core/neural/NeuralLive.h"

#include <QWidget>

class BackgroundJob;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

class NeuralSplitsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit NeuralSplitsPanel(QWidget* parent = nullptr);

    /// Starts the protocol for the live run's data, network, methods and fit settings.
    void run(const fa::NeuralLiveConfig& live);
    void cancel();
    void setSettings(int splits, int searchTrials, int folds, int epochs);
    QTableWidget* table() const { return m_table; }
    const std::vector<fa::NeuralRow>& rows() const { return m_rows; }
    /// Returns false and sets lastError() when nothing has finished or the file cannot be written.
    bool exportRows(const QString& csvPath);
    QString lastError() const { return m_lastError; }

  signals:
    void runRequested(); ///< the Run button: the page answers with run(its config)
    void finished();
    void rowAdded(int rows); ///< a finished (split, method) row arrived; rows so far
    void message(const QString& text, int timeoutMs);

  private:
    void refresh();

    BackgroundJob* m_job;
    QSpinBox *m_splits, *m_trials, *m_folds, *m_epochs;
    QTableWidget* m_table;
    QProgressBar* m_progress;
    QLabel* m_label;
    QPushButton *m_run, *m_cancel;
    std::vector<fa::NeuralRow> m_rows;
    fa::NeuralConfig m_config;
    QString m_lastError;
};
