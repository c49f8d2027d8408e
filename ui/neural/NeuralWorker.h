#pragma once
// Trains the neural lab (fa::NeuralLive) in its own thread (QThread; slots called queued) and
// publishes snapshots at most ~30 times a second; runs the split protocol (fa::runNeural) for
// the comparison table on another thread, one row at a time.
#include "core/neural/NeuralLive.h"
#include "ui/common/EpochWorker.h"

#include <atomic>
#include <memory>
#include <thread>

using NeuralSnapshotPtr = std::shared_ptr<const fa::NeuralLiveSnapshot>;
Q_DECLARE_METATYPE(NeuralSnapshotPtr)
Q_DECLARE_METATYPE(fa::NeuralLiveConfig)
Q_DECLARE_METATYPE(fa::NeuralConfig)
Q_DECLARE_METATYPE(fa::NeuralRow)

class NeuralWorker : public EpochWorker {
    Q_OBJECT
  public:
    NeuralWorker();
    ~NeuralWorker() override; ///< cancels and joins a split run

  public slots:
    void configure(fa::NeuralLiveConfig config); ///< new run, paused at epoch 0
    void runSplits(fa::NeuralConfig config);
    void cancelSplits();

  signals:
    void snapshotReady(NeuralSnapshotPtr snapshot);
    void splitRow(fa::NeuralRow row);
    void splitProgress(int done, int total, QString stage);
    void splitsFinished(bool cancelled, QString error);

  protected:
    bool hasRun() const override { return m_live != nullptr; }
    long epoch() const override { return m_live->epoch(); }
    void advance(long epochs) override { m_live->advance(epochs); }
    void emitSnapshot() override;

  private:
    std::unique_ptr<fa::NeuralLive> m_live;
    std::thread m_splits;
    std::atomic<bool> m_cancel{false};
};
