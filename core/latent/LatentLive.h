#pragma once
// The latent-variable lab as the window runs it: the chosen methods fit the chosen model on one
// data set side by side, one iteration (an EM iteration, a Gibbs sweep of every chain, a pass)
// per unit. Snapshots carry the log-likelihood and held-out curves, batch EM's ELBO staircase,
// a 2D view of the data (two columns or the first two principal axes) with each model's
// marginal ellipses and loading arrows, the mixture's responsibilities and components, the
// Gibbs traces of one covariance entry, and the posterior means E[z | x]; for pictures
// (docs/maths/images.md) a few rows, their fills or reconstructions, the loadings and Ψ as
// pictures. Nothing D x D.
#include "core/data/ImageData.h"
#include "core/lab/LiveRun.h"
#include "core/latent/LatentExperiment.h"
#include "core/metrics/MarginalViews.h"

#include <memory>
#include <vector>

namespace fa {

struct LatentLiveConfig {
    LatentDataSpec data;
    std::vector<LatentMethod> methods{LatentMethod::Em, LatentMethod::Gibbs, LatentMethod::Svd};
    /// Gibbs burns in 100 sweeps here (the window's default; the CLI's is half its iterations).
    LatentFitOptions fit = [] {
        LatentFitOptions f;
        f.burnIn = 100;
        return f;
    }();
    long length = 500;  ///< iterations in the run (Run until can stop earlier)
    TableLoader loader; ///< real data (core/io's tableLoader)
    int viewX = -1;     ///< the 2D view's columns; -1 and -1: the first two principal axes
    int viewY = -1;
    int traceEntry = 0;   ///< the Gibbs view's entry of C, an index into FaGibbs::tracked()
    int maxPoints = 1500; ///< fitting rows drawn in the 2D views (pictures: 200 at most)
    int maxTrace = 1500;  ///< trace points drawn per chain (evenly thinned)
};

struct LatentCurvePoint {
    long iteration = 0;
    double loglik = 0.0, heldout = 0.0; ///< per row; heldout NaN when nothing is held out
};

struct LatentLiveSnapshot : LabSnapshotOf<LatentLiveConfig> {
    std::string dataset, model;
    std::vector<std::string> columns, leftOut;
    long iteration = 0;
    Eigen::Index trainRows = 0, testRows = 0;
    struct Component {
        double weight = 0.0;
        Marginal2 marginal;
    };
    struct Method {
        LatentMethod method;
        std::string status; ///< the CSV word of the latest iteration
        std::vector<LatentCurvePoint> curve;
        /// Batch EM: (t, ELBO after the E step of iteration t) and (t + 1, ELBO after its M
        /// step): the bound touching the log-likelihood, then rising below it.
        std::vector<Eigen::Vector2d> staircase;
        bool valid = false;                  ///< a finite 2D marginal (not for the mixture)
        Marginal2 marginal;                  ///< the model's marginal in the view plane
        std::vector<Eigen::Vector2d> arrows; ///< loading columns in the plane, from the mean
        std::vector<Component> components;   ///< the mixture's
    };
    std::vector<Method> methods;
    std::vector<LatentRow> rows; ///< the recorded iterations in the CLI's columns (rows())

    std::string xLabel, yLabel;
    /// Fitting rows in the view plane (complete rows only; hidden entries at their values).
    std::vector<Eigen::Vector2d> points;
    std::vector<int> labels; ///< mixture: the most responsible component per point
    /// E[z | x] of the fitting rows under the first FA-shaped fit (K = 1: second coordinate 0);
    /// with a mixture, E[z | x, c] under each row's most responsible component (labels).
    std::string latentMethod;
    std::vector<Eigen::Vector2d> latentMeans;

    /// With entries hidden (LatentDataSpec::hideFraction, §3.6): the first fit with an FA form
    /// fills them with E[x_miss | x_obs]; points are (hidden value, filled value), thinned to
    /// maxPoints, for that fit and for the column means.
    struct Imputation {
        bool present = false;
        std::string method;
        long hidden = 0;
        double hideFraction = 0.0, rmse = 0.0, meanRmse = 0.0;
        std::vector<Eigen::Vector2d> fitted, means;
    } imputation;

    struct Trace {
        bool present = false;
        std::string label;                       ///< "C(2, 5)"
        std::vector<std::vector<double>> chains; ///< kept draws, thinned for drawing
        std::vector<double> runningMean; ///< the pooled mean of the first d kept draws, thinned
        long keptPerChain = 0, burnIn = 0, sweeps = 0;
        double mean = 0.0, lower = 0.0, upper = 0.0, rhat = 0.0, ess = 0.0;
        double emValue = 0.0; ///< the same entry of an FA point fit's C (batch EM's if it runs)
        std::string emMethod; ///< which fit that is (empty without one)
        double maxRhat = 0.0, minEss = 0.0; ///< over every tracked entry
        int entries = 0;
        std::vector<std::string> entryLabels; ///< "C(1, 2): a × b" for every tracked entry
    } trace;

    /// Pictures (layout.isImage(); docs/maths/images.md): kShown fitting rows spread evenly over
    /// them, and under the fit latentMethod names (batch EM's, else the first FA-shaped one)
    /// their fills E[x_miss | x_obs] (with hidden pixels, latent.md §3.6) or reconstructions
    /// c + F E[z | x], the mean, the loadings and Ψ, one picture per row or column.
    struct Pictures {
        static constexpr int kShown = 8;
        ImageLayout layout;       ///< not isImage(): the data are not pictures (the rest is empty)
        std::vector<int> labels;  ///< each shown row's class, an index into layout.classNames
        Matrix rows;              ///< shown x D: the rows with their hidden pixels' values
        Matrix holes;             ///< the rows as fitted, hidden pixels NaN (empty: none hidden)
        bool fills = false;       ///< filled holds fills (else reconstructions); empty: no fit
        Matrix filled;            ///< shown x D: the holes filled, or the reconstructions
        std::vector<double> rmse; ///< per shown row, over its hidden pixels (NaN: none)
        Vector mean;              ///< c
        Matrix loadings; ///< D x K: F (W) in canonical rotation, columns by decreasing norm
        Vector psi;      ///< Ψ's diagonal (PPCA: σ² in every pixel)
        Vector variance; ///< each pixel's variance over the fitting rows' observed pixels
    } pictures;
};

class LatentLive : public ConfiguredRun<LatentLiveConfig, LatentLiveSnapshot> {
  public:
    explicit LatentLive(const LatentLiveConfig& config,
                        AbandonFlag abandon = {}); ///< throws std::invalid_argument
    long advance(long iterations) override;
    LatentLiveSnapshot snapshot() const override;
    const LatentData& data() const { return m_data; }
    /// Rows in the CLI's columns (trial 0), one per recorded iteration.
    std::vector<LatentRow> rows() const;
    /// Live view changes (the run goes on): two different columns, or -1 and -1 for the first
    /// two principal axes (throws std::invalid_argument otherwise); the Gibbs view's entry.
    void setView(int x, int y);
    void setTraceEntry(int entry) { m_config.traceEntry = entry; }
    /// A longer or shorter run from where it stands (not below the iterations done).
    void setLength(long length);

  private:
    void record();
    // The parts of snapshot() (core/latent/LatentLiveSnapshot.cpp).
    LatentLiveSnapshot::Method methodSnapshot(std::size_t i, const Matrix& shown,
                                              LatentLiveSnapshot& s) const;
    void traceSnapshot(const FaGibbs& g, const LatentFit* emFit, LatentLiveSnapshot& s) const;
    void diagnostics(const FaGibbs& g, LatentLiveSnapshot::Trace& t) const;
    void imputationSnapshot(LatentLiveSnapshot& s) const;
    // Pictures (core/latent/LatentLivePictures.cpp): the rows shown and each pixel's variance,
    // once; the snapshot's pictures under the fit drawn.
    void preparePictures();
    void picturesSnapshot(const LatentFit* fit, LatentLiveSnapshot& s) const;

    LatentData m_data;
    Matrix m_viewRows; ///< the fitting rows with the hidden entries put back (the views' rows)
    double m_meanFill = 0.0;                   ///< the column means' imputation RMSE (§3.6)
    std::vector<std::size_t> m_shownHidden;    ///< the hidden entries drawn
    std::vector<Eigen::Vector2d> m_meanPoints; ///< (value, column mean) of those
    /// The fitting rows the hidden entries drawn lie in (the only rows the snapshot fills).
    std::vector<Eigen::Index> m_hiddenRows;
    std::vector<Eigen::Index> m_pictureRows; ///< pictures: the rows shown as pictures
    Vector m_pixelVariance;                  ///< pictures: each column's observed variance
    Matrix m_plane;                          ///< D x 2: the view's directions
    Vector m_planeMean;                ///< subtracted before projecting (principal axes) or zero
    std::vector<Eigen::Index> m_shown; ///< the rows drawn
    std::vector<std::unique_ptr<LatentFit>> m_fits;
    std::vector<std::vector<LatentRow>> m_rows; ///< per method, one per recorded iteration
    std::vector<std::vector<Eigen::Vector2d>> m_staircases;
    std::vector<double> m_seconds;
    /// The worst split-R̂ and smallest ESS over every tracked entry, recomputed only when the
    /// kept draws have grown by a tenth (each costs O(entries · chains · n log n)).
    struct DiagnosticsCache {
        long kept = -1;
        double maxRhat = 0.0, minEss = 0.0;
    };
    mutable DiagnosticsCache m_diagnostics;
};

} // namespace fa
