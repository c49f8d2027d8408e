#pragma once
// The neural lab's splits table: the report's protocol (random search with k-fold validation,
// refit, test scores) run in the background (BackgroundJob), one row per method with mean +- SE
// over the finished splits and the report's Table 2/3 figures beside; progress, cancel, export.
#include "core/neural/NeuralLive.h"
#include "core/neural/NeuralParams.h"
#include "ui/common/ParamFields.h"

#include <array>

#include <QWidget>

class BackgroundJob;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
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
    /// The ranges' fields into `ranges`; false, with lastError() naming the field, when one is
    /// not LO,HI with 0 < LO <= HI <= 1e8 (the Laplace rate's may be empty: b = √(2α)).
    bool readRanges(fa::SearchRanges& ranges);

    BackgroundJob* m_job;
    /// Splits, search trials, folds and epochs, with the CLI's ranges (core/neural/NeuralParams.h).
    ParamFields<fa::NeuralConfig> m_fields{fa::neuralParams()};
    std::array<QLineEdit*, 4> m_ranges{}; ///< core/neural/SearchRanges.h's order
    QTableWidget* m_table;
    QProgressBar* m_progress;
    QLabel* m_label;
    QPushButton *m_run, *m_cancel;
    std::vector<fa::NeuralRow> m_rows;
    fa::NeuralConfig m_config;
    QString m_lastError;
};
