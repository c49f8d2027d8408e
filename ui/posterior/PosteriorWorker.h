#pragma once
// Runs the posterior lab (fa::PosteriorLive) in its own thread (QThread; slots called queued)
// and publishes immutable snapshots at most ~30 times a second.
#include "core/posterior/PosteriorLive.h"
#include "ui/common/EpochWorker.h"

#include <memory>

using PosteriorSnapshotPtr = std::shared_ptr<const fa::PosteriorLiveSnapshot>;
Q_DECLARE_METATYPE(PosteriorSnapshotPtr)
Q_DECLARE_METATYPE(fa::PosteriorLiveConfig)

class PosteriorWorker : public EpochWorker {
    Q_OBJECT
  public:
    PosteriorWorker();
    /// The run's configuration including live changes so far, and its curves as CSV rows; call
    /// through a blocking queued call (the worker owns the run).
    fa::PosteriorLiveConfig currentConfig() const;
    std::vector<fa::PosteriorRow> currentRows() const;

  public slots:
    void configure(fa::PosteriorLiveConfig config); ///< new run, paused at epoch 0
    void setSgdLearningRate(double eta);
    void setLambda(double lambda);
    void setCoordinates(int i, int j);

  signals:
    void snapshotReady(PosteriorSnapshotPtr snapshot);

  protected:
    bool hasRun() const override { return m_live != nullptr; }
    long epoch() const override { return m_live->epoch(); }
    void advance(long epochs) override { m_live->advance(epochs); }
    void emitSnapshot() override;

  private:
    std::unique_ptr<fa::PosteriorLive> m_live;
    int m_i = 0, m_j = 1;
};
