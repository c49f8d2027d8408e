#include "core/vae/VaeData.h"
#include "core/fa/ModelGenerator.h"
#include "core/vae/VaeParams.h"

#include "core/math/Rng.h"
#include "core/models/Mlp.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {
namespace {

constexpr double kPi = std::numbers::pi;

/// A D x p matrix with orthonormal columns (QR of a Gaussian matrix).
Matrix randomFrame(int dim, int p, Rng& rng) {
    const Matrix g = rng.normalMatrix(dim, p);
    return Eigen::HouseholderQR<Matrix>(g).householderQ() * Matrix::Identity(dim, p);
}

/// Points in R^p (rows) lifted into R^D by an orthonormal frame, plus N(0, σ² I_D) noise.
Matrix lift(const Matrix& points, int dim, double noise, Rng& frameRng, Rng& noiseRng) {
    const Matrix frame = randomFrame(dim, static_cast<int>(points.cols()), frameRng);
    Matrix X = points * frame.transpose();
    X += noise * noiseRng.normalMatrix(X.rows(), X.cols());
    return X;
}

/// What a generated set's position along its manifold is.
std::string positionNameOf(const std::string& dataset) {
    if (dataset == "nonlinear-synthetic")
        return "z1";
    return dataset == "pinwheel" ? "arm" : "t";
}

/// Generated rows and each row's position.
Matrix generate(const VaeDataSpec& s, Vector& position) {
    Rng model(deriveSeed(s.modelSeed, SeedStream::VaeTrueModel));
    Rng rng(deriveSeed(s.splitSeed, SeedStream::VaeGeneratedRows));
    const int n = s.samples;
    position.resize(n);
    if (s.dataset == "nonlinear-synthetic") {
        MlpShape shape;
        shape.inputs = s.trueLatent;
        shape.hidden = {20, 20};
        shape.outputs = s.dim;
        shape.activation = Activation::Tanh;
        Vector theta = Mlp::initialWeights(shape, model.nextU64());
        theta.head(20 * s.trueLatent) *= 2.0; // a visibly curved manifold
        const Matrix Z = rng.normalMatrix(s.trueLatent, n);
        Mlp net(shape);
        Matrix X = net.forward(theta, Z).transpose();
        X += s.noise * rng.normalMatrix(n, s.dim);
        position = Z.row(0).transpose();
        return X;
    }
    if (s.dataset == "two-moons") {
        Matrix P(n, 2);
        for (int i = 0; i < n; ++i) {
            const double t = kPi * rng.uniform();
            const bool upper = i % 2 == 0;
            P(i, 0) = upper ? std::cos(t) : 1.0 - std::cos(t);
            P(i, 1) = upper ? std::sin(t) : 0.5 - std::sin(t);
            position(i) = upper ? 1.0 - t / kPi : 1.0 + t / kPi; // one path, through the near tips
        }
        P.rowwise() -= P.colwise().mean();
        return lift(P, s.dim, s.noise, model, rng);
    }
    if (s.dataset == "swiss-roll") {
        Matrix P(n, 3);
        for (int i = 0; i < n; ++i) {
            const double t = 1.5 * kPi * (1.0 + 2.0 * rng.uniform());
            P(i, 0) = t * std::cos(t) / 10.0;
            P(i, 1) = 2.0 * rng.uniform();
            P(i, 2) = t * std::sin(t) / 10.0;
            position(i) = t;
        }
        P.rowwise() -= P.colwise().mean();
        return lift(P, s.dim, s.noise, model, rng);
    }
    // Pinwheel (Johnson et al. 2016): five arms, radial sd 0.3, tangential sd 0.05, rate 0.25.
    constexpr int arms = 5;
    Matrix P(n, 2);
    for (int i = 0; i < n; ++i) {
        const int arm = i % arms;
        const double r = 1.0 + 0.3 * rng.normal(), u = 0.05 * rng.normal();
        const double angle = 2.0 * kPi * arm / arms + 0.25 * std::exp(r);
        P(i, 0) = std::cos(angle) * r - std::sin(angle) * u;
        P(i, 1) = std::sin(angle) * r + std::cos(angle) * u;
        position(i) = arm;
    }
    return lift(P, s.dim, s.noise, model, rng);
}

} // namespace

const std::vector<std::string>& generatedVaeSets() {
    static const std::vector<std::string> sets{"synthetic", "nonlinear-synthetic", "two-moons",
                                               "swiss-roll", "pinwheel"};
    return sets;
}

bool isGeneratedVaeSet(const std::string& name) {
    const auto& sets = generatedVaeSets();
    return std::find(sets.begin(), sets.end(), name) != sets.end();
}

VaeData makeVaeData(const VaeDataSpec& spec, const TableLoader& loader) {
    VaeData out;
    const bool generated = isGeneratedVaeSet(spec.dataset);
    if (generated) {
        checkParams(vaeDataParams(), spec);
        checkRunBytes(2.0 * 8.0 * spec.samples * spec.dim, "the generated rows",
                      "lower the rows (--samples) or D (--dim)");
        if (spec.dataset == "swiss-roll" && spec.dim < 3)
            throw std::invalid_argument("the swiss roll needs D >= 3");
        if ((spec.dataset == "synthetic" || spec.dataset == "nonlinear-synthetic") &&
            (spec.trueLatent < 1 || spec.trueLatent >= spec.dim))
            throw std::invalid_argument("the true latent dimension must satisfy 1 <= K < D");
    }
    if (!generated || spec.dataset == "synthetic") {
        LatentDataSpec latent;
        latent.dataset = spec.dataset;
        latent.model = LatentModel::Ppca;
        latent.synthetic.dim = spec.dim;
        latent.synthetic.trueLatent = spec.trueLatent;
        latent.synthetic.spectrumLo = spec.spectrumLo;
        latent.synthetic.spectrumHi = spec.spectrumHi;
        latent.synthetic.samples = spec.samples;
        latent.testFraction = spec.testFraction;
        latent.images = spec.images;
        latent.splitSeed = spec.splitSeed;
        latent.modelSeed = spec.modelSeed;
        out.rows = makeLatentData(latent, loader);
        if (out.rows.image.isImage()) { // pictures: each row's class colours the latent space
            const auto asVector = [](const std::vector<int>& l) {
                return Eigen::Map<const Eigen::VectorXi>(l.data(), Eigen::Index(l.size()))
                    .cast<double>()
                    .eval();
            };
            out.trainPosition = asVector(out.rows.trainLabels);
            out.testPosition = asVector(out.rows.testLabels);
            out.positionName = "class";
        }
        return out;
    }
    Vector position;
    const Matrix all = generate(spec, position);
    out.positionName = positionNameOf(spec.dataset);
    out.rows.name = spec.dataset;
    for (int d = 0; d < spec.dim; ++d)
        out.rows.columns.push_back(std::string("x").append(std::to_string(d + 1)));
    std::vector<Eigen::Index> order;
    splitRows(all, spec.testFraction, spec.splitSeed, false, out.rows, &order);
    const Eigen::Index nTrain = out.rows.train.rows();
    out.trainPosition.resize(nTrain);
    out.testPosition.resize(out.rows.test.rows());
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto at = static_cast<Eigen::Index>(i);
        (at < nTrain ? out.trainPosition(at) : out.testPosition(at - nTrain)) = position(order[i]);
    }
    return out;
}

} // namespace fa
