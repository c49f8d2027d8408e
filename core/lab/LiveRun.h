#pragma once
// The one shape every lab's live run has, so that one worker (ui/common/LabWorker) drives them
// all: advance by a number of units (observations or epochs), hand out an immutable snapshot,
// say where it stands. A run is built from its lab's configuration (which throws
// std::invalid_argument for bad values); "reset" is building a fresh one from the same
// configuration, which the worker does. Qt-free, single-threaded: one thread owns a run.
#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace fa {

/// The longest run a lab counted in epochs or iterations plays.
inline constexpr long kMaxRunLength = 100'000'000;

/// Throws std::invalid_argument unless 1 <= length <= kMaxRunLength.
inline void checkRunLength(long length) {
    if (length < 1 || length > kMaxRunLength)
        throw std::invalid_argument("the run's length must be between 1 and " +
                                    std::to_string(kMaxRunLength));
}

/// What every lab's snapshot carries besides its views: where the run stood when it was taken.
struct LabSnapshot {
    virtual ~LabSnapshot() = default;
    long position = 0;  ///< units done (observations or epochs)
    long length = 0;    ///< units in the whole run; 0 = open-ended
    std::string status; ///< each fitter's state, for the status bar ("EM: ok   SGA: warm-up")
};

/// A lab's snapshot with the configuration of the run it was taken from, live changes included:
/// what the window saves as a session, or puts back in its fields after a refused change,
/// without asking the worker (which may be in the middle of a long epoch).
template <class Config> struct LabSnapshotOf : LabSnapshot { Config config; };

/// The flag that abandons a run: shared by the run and whoever may throw it away (the window's
/// worker), so that it can be raised from another thread while the run is still being built.
using AbandonFlag = std::shared_ptr<std::atomic<bool>>;

class LiveRun {
  public:
    /// `flag`: raised from another thread when the run is about to be thrown away, already while
    /// its constructor works (the first scoring of a large network takes seconds); none: the
    /// run's own, raised by abandon().
    explicit LiveRun(AbandonFlag flag = {})
        : m_abandoned(flag ? std::move(flag) : std::make_shared<std::atomic<bool>>(false)) {}
    virtual ~LiveRun() = default;
    LiveRun(const LiveRun&) = delete;
    LiveRun& operator=(const LiveRun&) = delete;
    /// Advances by up to n units; returns how many were done (0 once finished).
    virtual long advance(long n) = 0;
    /// A step the teaching display explains: like advance, but the run may record what its
    /// last unit did (the explorer traces its last observation).
    virtual long step(long n) { return advance(n); }
    virtual long position() const = 0;
    virtual long length() const { return 0; } ///< 0 = open-ended
    bool finished() const { return length() > 0 && position() >= length(); }
    /// "samples" or "epochs": what one unit is.
    virtual std::string unit() const = 0;
    /// An immutable snapshot for the views; position, length and status filled in.
    virtual std::shared_ptr<const LabSnapshot> labSnapshot() const = 0;
    /// Work a run does beside the stream (the explorer's batch refits): collect what finished
    /// and start what is queued, never blocking.
    virtual void poll() {}
    virtual bool backgroundPending() const { return false; }
    /// Called from any thread when the run is about to be thrown away (the window closes): a
    /// unit in progress, or the scoring of the constructor, ends at its next mini-batch or
    /// draw and returns; what it leaves is never shown. Only ever raised before destruction, so
    /// it never changes a shown number.
    void abandon() { m_abandoned->store(true); }

  protected:
    /// The flag abandon() raises, for the run's fits and scorings to watch
    /// (Abandonable::abandonOn, ScoringPoll::cancel).
    const std::atomic<bool>* abandonFlag() const { return m_abandoned.get(); }
    bool abandoned() const { return m_abandoned->load(std::memory_order_relaxed); }

  private:
    AbandonFlag m_abandoned;
};

/// A run whose configuration (live changes included) holds its `length`, and whose snapshot is
/// a LabSnapshotOf that configuration (the latent and nonlinear-FA labs): what such runs do
/// alike, from the units done (`m_position`) and the configuration.
template <class Config, class Snapshot> class ConfiguredRun : public LiveRun {
  public:
    long position() const override { return m_position; }
    long length() const override { return m_config.length; }
    std::string unit() const override { return m_unit; }
    std::shared_ptr<const LabSnapshot> labSnapshot() const override {
        return std::make_shared<const Snapshot>(snapshot());
    }
    virtual Snapshot snapshot() const = 0;
    const Config& config() const { return m_config; }

  protected:
    /// `unit`: "iterations", "epochs".
    ConfiguredRun(const Config& config, const char* unit, AbandonFlag abandon)
        : LiveRun(std::move(abandon)), m_config(config), m_unit(unit) {}
    /// A snapshot begun with the configuration, the position and the length.
    Snapshot startSnapshot() const {
        Snapshot s;
        s.config = m_config;
        s.position = m_position;
        s.length = m_config.length;
        return s;
    }
    /// A longer or shorter run from where it stands (not below the units done), once the lab
    /// has checked `length`.
    void keepLength(long length) { m_config.length = std::max(length, m_position); }

    Config m_config;
    long m_position = 0; ///< units done

  private:
    const char* m_unit;
};

} // namespace fa
