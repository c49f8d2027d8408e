#pragma once
// The latent lab's live views, each drawing one LatentLiveSnapshot: the log-likelihood curves
// with batch EM's ELBO staircase, the data in a plane with every model's ellipses and loading
// arrows (the mixture: points coloured by component), the Gibbs traces of one entry of C (or,
// with hidden entries, the imputed against the hidden values in its place), and the posterior
// means E[z | x] in latent space.
#include "core/latent/LatentLive.h"
#include "ui/common/SeriesChart.h"

class LoglikView : public SeriesChart {
    Q_OBJECT
  public:
    explicit LoglikView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
    /// Only the last few iterations, so that EM's staircase (the bound touching after E, rising
    /// after M) is large enough to see; 0 = every iteration.
    void setWindow(long iterations) { m_window = iterations; }

  private:
    long m_window = 0;
};

class DataPlaneView : public SeriesChart {
    Q_OBJECT
  public:
    explicit DataPlaneView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};

class TraceView : public SeriesChart {
    Q_OBJECT
  public:
    explicit TraceView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};

class LatentMeansView : public SeriesChart {
    Q_OBJECT
  public:
    explicit LatentMeansView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};

/// Hidden entries (docs/maths/latent.md §3.6): the fit's E[x_miss | x_obs] and the column means
/// against the hidden values, with y = x, both RMSEs in the title.
class ImputationView : public SeriesChart {
    Q_OBJECT
  public:
    explicit ImputationView(QWidget* parent = nullptr);
    void show(const fa::LatentLiveSnapshot& s);
};
