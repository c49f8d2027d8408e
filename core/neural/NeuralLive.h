#pragma once
// Neural VIFA as the window runs it: one split of a data set, several methods with chosen
// hyperparameters trained side by side an epoch at a time, with train and test NMLL / RMSE
// curves and the test predictive (mean +- 2 sd against the truth) in small snapshots.
#include "core/lab/LiveRun.h"
#include "core/neural/IterateTrajectory.h"
#include "core/neural/NeuralRegression.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace fa {

struct NeuralLiveConfig {
    std::string dataset = "yacht", target;
    DatasetLoader loader; ///< fa::io::datasetLoader
    std::vector<NeuralMethod> methods{NeuralMethod::VifaGauss, NeuralMethod::VippcaGauss};
    /// The posteriors from SGD iterates beside them (core/neural/IterateFits.h), with the same
    /// prior and noise precisions; their settings: members, rank, SWA start, SGD rate (on the
    /// squared error, as the CLI's) and batch.
    std::vector<IterateMethod> iterateMethods;
    IterateFitOptions iterate{.members = 5, .learningRate = 0.1};
    NeuralFitOptions fit;
    NeuralHyper hyper{1.0, 25.0, 0.05}; ///< the window's: β = 25 is a noise sd of 0.2 target sd
    int split = 0;
    double trainFraction = 0.9;
    std::uint64_t seed = 0;
    int curveSamples = 20; ///< predictive draws per recorded epoch (the final table uses 100)
};

struct NeuralCurvePoint {
    long epoch = 0;
    double trainNmll = 0.0, trainRmse = 0.0, testNmll = 0.0, testRmse = 0.0;
    double testCoverage = 0.0; ///< share of test targets inside the central 95 % interval
};

struct NeuralLiveSnapshot : LabSnapshotOf<NeuralLiveConfig> {
    long epoch = 0;
    std::string dataset, hidden;
    Eigen::Index parameters = 0, trainRows = 0, testRows = 0;
    Vector testTruth; ///< test targets, original scale, sorted ascending
    /// A data set with one input (the in-between set): the rows on the original scale (testX in
    /// the order of testTruth) and a grid of inputs over them and beyond, where every method's
    /// predictive is drawn. Empty otherwise.
    Vector trainX, trainY, testX, gridX;
    struct Method {
        std::string id; ///< the method's name: vifa-gauss, ..., swag, multi-swa-fa-em
        bool diverged = false;
        Vector mean, sd;         ///< predictive on the sorted test points
        Vector gridMean, gridSd; ///< predictive over gridX (one-input data only)
        std::vector<NeuralCurvePoint> curve;
    };
    std::vector<Method> methods;
    /// The first SGD-iterate method that collects iterates (member 1 of a multi method): its
    /// collected iterates in the plane of its Gaussian's two leading directions, with SWAG of
    /// the same iterates (core/neural/IterateTrajectory.h; `directions` left empty here). While
    /// the fit is still a point mass (its warm-up), the plane is SWAG's.
    struct Trajectory {
        std::string method;
        bool planeOfSwag = false; ///< the directions and the fit's ellipse are SWAG's
        TrajectoryPlane plane;
    };
    std::optional<Trajectory> trajectory;
};

class NeuralLive : public LiveRun {
  public:
    explicit NeuralLive(const NeuralLiveConfig& config,
                        AbandonFlag abandon = {}); ///< throws std::invalid_argument
    long advance(long epochs) override;            ///< up to the run's length
    long epoch() const { return m_epoch; }
    long position() const override { return m_epoch; }
    long length() const override { return m_config.fit.epochs; } ///< the CLI's --epochs
    /// A live change of the run's length, in [1, kMaxRunLength]; never below the epoch reached.
    void setLength(long length);
    std::string unit() const override { return "epochs"; }
    std::shared_ptr<const LabSnapshot> labSnapshot() const override;
    NeuralLiveSnapshot snapshot() const;
    const NeuralLiveConfig& config() const { return m_config; }

  private:
    NeuralLiveConfig m_config;
    RegressionProblem m_split;
    Vector m_trainY, m_testY;          // original scale
    std::vector<Eigen::Index> m_order; // test points sorted by target
    /// A VIFA / VIPPCA fit or a posterior from SGD iterates, run and scored alike.
    struct LiveFit {
        std::string id;
        std::unique_ptr<NeuralFit> vifa;
        std::unique_ptr<IterateFit> iterates;
        void runEpoch() { vifa ? vifa->runEpoch() : iterates->runEpoch(); }
        bool diverged() const { return vifa ? vifa->diverged() : iterates->diverged(); }
        Predictive evaluate(const ConstMatrixRef& X, const ConstVectorRef& y, double yMean,
                            double yScale, int samples, std::uint64_t seed,
                            const ScoringPoll& poll) const {
            return vifa ? vifa->evaluate(X, y, yMean, yScale, samples, seed, poll)
                        : iterates->evaluate(X, y, yMean, yScale, samples, seed, poll);
        }
    };
    std::vector<LiveFit> m_fits;
    std::map<std::string, std::vector<NeuralCurvePoint>> m_curves;
    std::map<std::string, Predictive> m_lastTest, m_lastGrid;
    Matrix m_grid;  // one-input data: the grid's inputs, standardised as the training rows
    Vector m_gridX; // the same on the original scale
    std::unique_ptr<IterateTrajectory> m_trajectory;
    const LiveFit* m_watched = nullptr; // the fit whose iterates m_trajectory records
    std::optional<NeuralLiveSnapshot::Trajectory> m_plane;
    long m_epoch = 0;
    void watchTrajectory();
    void record();
    void recordPlane();
};

} // namespace fa
