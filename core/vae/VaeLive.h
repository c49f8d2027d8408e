#pragma once
// The nonlinear-FA lab as the window runs it: the chosen methods fit one data set side by side,
// one epoch per unit. Every epoch records each fit's training ELBO; every few epochs (and at
// 1, 2, 3, 5, 10, ...) the held-out rows are scored — the test ELBO, the importance-weighted
// log-likelihood and the two gaps — with vEM's q* warm-started from the previous scoring. Snapshots
// carry the curves, the latest gaps, the latent space (posterior means of the shown rows,
// coloured by a column or the position along a generated manifold) and the data space in a
// plane (two columns or the first two principal axes) with one method's reconstructions,
// samples and decoded latent grid. PPCA's closed form is a level.
#include "core/lab/LiveRun.h"
#include "core/models/Ppca.h"
#include "core/vae/VaeExperiment.h"

#include <memory>
#include <vector>

namespace fa {

struct VaeLiveConfig {
    VaeDataSpec data;
    std::vector<VaeMethod> methods{VaeMethod::Vem, VaeMethod::Vae, VaeMethod::Ppca};
    VaeOptions fit;
    VaeEvalOptions eval{20, 200, 50, 0.05}; ///< lighter than the CLI's
    long length = 300;                      ///< epochs in the run
    int scoreEvery = 5;                     ///< epochs between scorings of the held-out rows
    TableLoader loader;
    int viewX = -1, viewY = -1; ///< the data plane's columns; -1, -1: principal axes
    int colourBy = -1;          ///< a column; -1: the manifold position (else the first column)
    int viewMethod = 0;         ///< index into methods: the latent and data views' method
    int maxPoints = 400;        ///< rows drawn (the first); every held-out row is scored
    int gridSize = 11;          ///< decoded latent grid: points per side over [−2.5, 2.5]
};

/// The scores after one epoch: all but trainElbo NaN except on scored epochs.
struct VaeCurvePoint : VaeScoreColumns {
    long epoch = 0;
};

struct VaeLiveSnapshot : LabSnapshotOf<VaeLiveConfig> {
    std::string dataset;
    std::vector<std::string> columns, leftOut;
    long epoch = 0;
    Eigen::Index trainRows = 0, testRows = 0;
    int latent = 0;
    struct Method {
        VaeMethod method;
        std::string status; ///< ok, psi-floor, diverged
        std::vector<VaeCurvePoint> curve;
        VaeCurvePoint last; ///< the latest scored point (epoch 0: none yet)
    };
    std::vector<Method> methods;
    std::vector<VaeRow> rows; ///< the scored epochs in the CLI's columns (VaeLive::rows)
    std::string viewMethod;   ///< the method id the two views show
    // Data plane: the shown rows, and the view method's reconstructions of them (f at q's mean),
    // samples from its model and its decoded latent grid (lines along each latent axis).
    std::string xLabel, yLabel;
    std::vector<Eigen::Vector2d> points, reconstructions, samples;
    std::vector<std::vector<Eigen::Vector2d>> grid;
    // Latent space: q's means of the shown rows (K = 1: the value coloured by on y).
    std::string latentXLabel, latentYLabel, colourLabel;
    bool hasPosition = false; ///< a generated manifold: rows can be coloured by their position
    std::vector<Eigen::Vector2d> latentMeans;
    std::vector<double> colours;
    // Pictures (image.isImage(); docs/maths/images.md): the first kShownPictures shown rows, the
    // view method's reconstructions of them and as many samples of its decoder's mean, one
    // picture per row; and the mosaic, the decoder's mean on a gridSize x gridSize grid of the
    // latent plane over [−2.5, 2.5]² (row r, column c at z1 = −2.5 + 5c/(g−1), z2 = 2.5 −
    // 5r/(g−1), other coordinates 0; K = 1: one row along z), row-major, one picture per row.
    static constexpr int kShownPictures = 8;
    ImageLayout image;
    Matrix shownPictures, reconstructedPictures, samplePictures, mosaic;
    int mosaicColumns = 0;
};

class VaeLive : public ConfiguredRun<VaeLiveConfig, VaeLiveSnapshot> {
  public:
    explicit VaeLive(const VaeLiveConfig& config,
                     AbandonFlag abandon = {}); ///< throws std::invalid_argument
    ~VaeLive() override;
    long advance(long epochs) override;
    VaeLiveSnapshot snapshot() const override;
    const VaeData& data() const { return m_data; }
    /// Rows in the CLI's columns (trial 0), one per scored epoch and fitter (PPCA: one).
    std::vector<VaeRow> rows() const;
    /// Live view changes (the run goes on); each throws std::invalid_argument for a bad value.
    void setView(int x, int y);
    void setColourBy(int column);
    void setViewMethod(int index);
    void setLength(long length);

  private:
    struct Fitted {
        VaeMethod method;
        std::unique_ptr<VaeFit> fit; ///< null for PPCA
        std::vector<VaeCurvePoint> curve;
        VaeCurvePoint last;
        std::vector<VaeRow> rows;
        VaeTestQ best; ///< q* of the scored rows, warm start of the next scoring
        std::string status = "ok";
        double seconds = 0.0;
        std::uint64_t scoreSeed = 0;
    };
    void record();

    VaeData m_data;
    Matrix m_shown; ///< the rows the views draw (held out if any, else fitting), D x n
    Vector m_shownColour;
    Matrix m_plane; ///< D x 2
    Vector m_planeMean;
    std::vector<std::unique_ptr<Fitted>> m_fits; ///< one per method (PPCA: none)
    PpcaModel m_ppca;
    bool m_hasPpca = false;
};

} // namespace fa
