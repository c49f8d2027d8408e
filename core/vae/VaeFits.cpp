#include "core/vae/VaeFits.h"
#include "core/vae/VaeParams.h"

#include "core/fa/ModelGenerator.h"
#include "core/lab/NameTable.h"
#include "core/optim/Adam.h"
#include "core/vae/VaeObjectives.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace fa {
namespace {

/// The columns `index` of from, into out (its storage reused when the size is unchanged).
void gatherColumns(const Matrix& from, const std::vector<Eigen::Index>& index, Matrix& out) {
    out.resize(from.rows(), static_cast<Eigen::Index>(index.size()));
    for (std::size_t j = 0; j < index.size(); ++j)
        out.col(static_cast<Eigen::Index>(j)) = from.col(index[j]);
}

Matrix gatherColumns(const Matrix& from, const std::vector<Eigen::Index>& index) {
    Matrix out;
    gatherColumns(from, index, out);
    return out;
}

void scatterColumns(const Matrix& from, const std::vector<Eigen::Index>& index, Matrix& to) {
    for (std::size_t j = 0; j < index.size(); ++j)
        to.col(index[j]) = from.col(static_cast<Eigen::Index>(j));
}

/// Variational EM (docs/maths/nonlinear.md §3): q_n = N(m_n, diag e^ℓ_n) stored for every row, with
/// per-row Adam moments (every row is visited once per epoch, so its step count is epochs · k + j).
class Vem final : public VaeFit {
  public:
    Vem(const ConstMatrixRef& rows, const VaeOptions& options)
        : VaeFit(rows, options, options.noise), m_pass(m_model.shape) {
        const Eigen::Index k = options.latent, n = m_X.cols();
        m_M = Matrix::Zero(k, n);
        m_L = Matrix::Zero(k, n);
        m_mom = {Matrix::Zero(k, n), Matrix::Zero(k, n), Matrix::Zero(k, n), Matrix::Zero(k, n)};
        m_mTheta.setZero(m_model.theta.size());
        m_vTheta.setZero(m_model.theta.size());
        m_mGamma.setZero(m_model.gamma.size());
        m_vGamma.setZero(m_model.gamma.size());
    }
    bool amortised() const override { return false; }
    void encode(const ConstMatrixRef&, Matrix&, Matrix&) const override {
        throw std::logic_error("variational EM has no encoder");
    }
    void trainPosterior(Matrix& M, Matrix& logVar) const override {
        M = m_M;
        logVar = m_L;
    }

  private:
    void update() override {
        const Eigen::Index k = m_M.rows(), b = m_batch.cols(), size = k * b;
        Matrix M = gatherColumns(m_M, m_index), L = gatherColumns(m_L, m_index);
        std::array<Matrix, 4> mom;
        for (std::size_t i = 0; i < 4; ++i)
            mom[i] = gatherColumns(m_mom[i], m_index);
        Eigen::RowVectorXd values(b);
        Matrix eps(k, b);
        for (int j = 0; j < m_options.eSteps; ++j) { // E: k steps on each q_n, θ held
            m_rng.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
            m_pass.run(m_model, m_batch, M, L, eps, values, &m_g);
            const long t = m_epochs * m_options.eSteps + j + 1;
            const Matrix gm = -m_g.mean, gl = -m_g.logVar; // optimiserStep descends
            optimiserStep(
                OptimiserKind::Adam, Eigen::Map<Vector>(M.data(), size),
                Eigen::Map<const Vector>(gm.data(), size),
                {Eigen::Map<Vector>(mom[0].data(), size), Eigen::Map<Vector>(mom[1].data(), size)},
                m_options.eLr, t);
            optimiserStep(
                OptimiserKind::Adam, Eigen::Map<Vector>(L.data(), size),
                Eigen::Map<const Vector>(gl.data(), size),
                {Eigen::Map<Vector>(mom[2].data(), size), Eigen::Map<Vector>(mom[3].data(), size)},
                m_options.eLr, t);
            L = L.cwiseMax(kRowQLogVarMin).cwiseMin(kQLogVarMax);
        }
        scatterColumns(M, m_index, m_M);
        scatterColumns(L, m_index, m_L);
        for (std::size_t i = 0; i < 4; ++i)
            scatterColumns(mom[i], m_index, m_mom[i]);
        // M: one step on (θ, γ) with the batch's mean gradient (eq. 51 up to the factor N).
        m_rng.fillNormal(Eigen::Map<Vector>(eps.data(), eps.size()));
        m_pass.run(m_model, m_batch, M, L, eps, values, &m_g);
        m_g.theta /= -double(b); // the descent direction: optimiserStep descends
        descend(m_model.theta, m_g.theta, m_mTheta, m_vTheta, m_options.lr);
        if (m_model.learnsGamma()) {
            m_g.gamma /= -double(b);
            descend(m_model.gamma, m_g.gamma, m_mGamma, m_vGamma, m_options.lr);
        }
    }

    ElboPass m_pass;
    ElboGradient m_g;
    Matrix m_M, m_L;
    std::array<Matrix, 4> m_mom;
    Vector m_mTheta, m_vTheta, m_mGamma, m_vGamma;
};

/// The VAE (docs/maths/nonlinear.md §4): encoder g(x; φ) with outputs [μ(x); ℓ(x)], ℓ clamped to
/// [kEncoderLogVarMin, kQLogVarMax] = [−15, 10].
class Vae final : public VaeFit {
  public:
    Vae(const ConstMatrixRef& rows, const VaeOptions& options)
        : VaeFit(rows, options, options.noise), m_pass(m_model.shape),
          m_encoder(encoderShape(options, m_X.rows())) {
        m_phi = Mlp::initialWeights(m_encoder.shape(),
                                    deriveSeed(options.seed, SeedStream::EncoderStart));
        // The ℓ head starts at 0 (q's variances 1): zero weights and biases.
        const Eigen::Index k = options.latent, top = m_encoder.shape().hidden.empty()
                                                         ? m_X.rows()
                                                         : m_encoder.shape().hidden.back();
        const Eigen::Index wOut = m_phi.size() - 2 * k * top - 2 * k;
        Eigen::Map<Matrix>(m_phi.data() + wOut, 2 * k, top).bottomRows(k).setZero();
        m_phi.tail(k).setZero();
        m_state = {Vector::Zero(m_model.theta.size()), Vector::Zero(m_model.theta.size()),
                   Vector::Zero(m_model.gamma.size()), Vector::Zero(m_model.gamma.size()),
                   Vector::Zero(m_phi.size()),         Vector::Zero(m_phi.size())};
        m_encoder.setFloatProducts(options.floatProducts);
        m_pass.setFloatProducts(options.floatProducts);
        if (options.batchThreads >= 2) {
            m_fork = std::make_unique<ForkJoin>();
            m_encoder.setForkJoin(m_fork.get());
            m_pass.setForkJoin(m_fork.get());
        }
    }
    bool amortised() const override { return true; }
    void encode(const ConstMatrixRef& X, Matrix& M, Matrix& logVar) const override {
        Mlp net(m_encoder.shape());
        const Matrix& h = net.forward(m_phi, X);
        const Eigen::Index k = m_model.latent();
        M = h.topRows(k);
        logVar = h.bottomRows(k).cwiseMax(kEncoderLogVarMin).cwiseMin(kQLogVarMax);
    }
    void trainPosterior(Matrix& M, Matrix& logVar) const override { encode(m_X, M, logVar); }
    std::optional<NetworkEncoder> networkEncoder() const override {
        return NetworkEncoder{m_encoder.shape(), m_phi};
    }

  private:
    static MlpShape encoderShape(const VaeOptions& options, Eigen::Index dim) {
        MlpShape s;
        s.inputs = static_cast<int>(dim);
        s.hidden = options.hidden;
        s.outputs = 2 * options.latent;
        s.activation = options.activation;
        return s;
    }

    void update() override {
        const Eigen::Index b = m_batch.cols();
        m_eps.resize(m_model.latent(), b * m_options.encoderSamples);
        m_rng.fillNormal(Eigen::Map<Vector>(m_eps.data(), m_eps.size()));
        vaeBatchElbo(m_encoder, m_pass, m_model, m_phi, m_batch, m_eps, &m_g, &m_gPhi,
                     m_options.encoderGradient);
        const double inv = -1.0 / double(b); // the descent direction: optimiserStep descends
        m_g.theta *= inv;
        descend(m_model.theta, m_g.theta, m_state[0], m_state[1], m_options.lr);
        if (m_model.learnsGamma()) {
            m_g.gamma *= inv;
            descend(m_model.gamma, m_g.gamma, m_state[2], m_state[3], m_options.lr);
        }
        m_gPhi *= inv;
        descend(m_phi, m_gPhi, m_state[4], m_state[5], m_options.lr);
    }

    std::unique_ptr<ForkJoin> m_fork; ///< options.batchThreads >= 2
    ElboPass m_pass;
    ElboGradient m_g;
    Mlp m_encoder;
    Vector m_phi, m_gPhi;
    Matrix m_eps;
    std::array<Vector, 6> m_state;
};

/// The linear VAE (docs/maths/nonlinear.md §7): the closed-form ELBO's exact gradients
/// (linearVaeBatchElbo).
class LinearVae final : public VaeFit {
  public:
    LinearVae(const ConstMatrixRef& rows, const VaeOptions& options)
        : VaeFit(rows, options, options.linearNoise) {
        const Eigen::Index k = options.latent, d = m_X.rows();
        m_enc = {Matrix::Zero(k, d), Vector::Zero(k), Vector::Zero(k)};
        m_flat = Vector::Zero(k * d + 2 * k);
        m_state = {Vector::Zero(m_model.theta.size()), Vector::Zero(m_model.theta.size()),
                   Vector::Zero(m_model.gamma.size()), Vector::Zero(m_model.gamma.size()),
                   Vector::Zero(m_flat.size()),        Vector::Zero(m_flat.size())};
    }
    bool amortised() const override { return true; }
    void encode(const ConstMatrixRef& X, Matrix& M, Matrix& logVar) const override {
        M = (m_enc.V * X).colwise() + m_enc.a;
        logVar = m_enc.logVar.replicate(1, X.cols());
    }
    void trainPosterior(Matrix& M, Matrix& logVar) const override { encode(m_X, M, logVar); }

  private:
    void update() override {
        const Eigen::Index k = m_model.latent(), d = m_model.dim();
        linearVaeBatchElbo(m_model, m_enc, m_batch, &m_g);
        const double inv = -1.0 / double(m_batch.cols()); // descent: optimiserStep descends
        m_g.theta *= inv;
        descend(m_model.theta, m_g.theta, m_state[0], m_state[1], m_options.lr);
        if (m_model.learnsGamma()) {
            m_g.gamma *= inv;
            descend(m_model.gamma, m_g.gamma, m_state[2], m_state[3], m_options.lr);
        }
        Vector grad(m_flat.size());
        grad << Eigen::Map<const Vector>(m_g.V.data(), k * d), m_g.a, m_g.logVar;
        m_flat << Eigen::Map<const Vector>(m_enc.V.data(), k * d), m_enc.a, m_enc.logVar;
        grad *= inv;
        descend(m_flat, grad, m_state[4], m_state[5], m_options.lr);
        m_enc.V = Eigen::Map<const Matrix>(m_flat.data(), k, d);
        m_enc.a = m_flat.segment(k * d, k);
        m_enc.logVar = m_flat.tail(k).cwiseMax(kEncoderLogVarMin).cwiseMin(kQLogVarMax);
    }

    LinearEncoder m_enc;
    LinearVaeGradient m_g;
    Vector m_flat;
    std::array<Vector, 6> m_state;
};

} // namespace

namespace {
constexpr Named<VaeMethod> kMethodNames[] = {{VaeMethod::Vem, "vem"},
                                             {VaeMethod::Vae, "vae"},
                                             {VaeMethod::LinearVae, "linear-vae"},
                                             {VaeMethod::Ppca, "ppca"}};
} // namespace

std::string vaeMethodName(VaeMethod method) {
    return nameIn(kMethodNames, method);
}

std::optional<VaeMethod> parseVaeMethod(const std::string& name) {
    return valueIn(kMethodNames, name);
}

namespace {
/// The weights and biases of a network from `in` units through `hidden` to `out`.
double weightsThrough(double in, const std::vector<int>& hidden, double out) {
    double total = 0.0, from = in;
    for (const int h : hidden) {
        total += (from + 1.0) * h;
        from = h;
    }
    return total + (from + 1.0) * out;
}
} // namespace

void validate(const VaeOptions& o) {
    checkParams(vaeFitParams(), o);
    if (o.hidden.size() > static_cast<std::size_t>(kMaxHiddenLayers))
        throw std::invalid_argument("at most three hidden layers");
    for (const int h : o.hidden)
        if (h < 1 || h > kMaxHiddenUnits)
            throw std::invalid_argument("every hidden layer needs between 1 and " +
                                        std::to_string(kMaxHiddenUnits) + " units");
    if (!(o.eLr > 0.0 && o.eLr <= 10.0))
        throw std::invalid_argument("vEM's step size must lie in (0, 10]");
    if (o.noise == NoiseKind::Network && o.hidden.empty())
        throw std::invalid_argument(
            "noise 'network' needs a hidden layer: a linear decoder is scored by closed forms "
            "that hold for a noise free of z");
    if (o.linearNoise == NoiseKind::Network)
        throw std::invalid_argument("the linear VAE's noise cannot be 'network': its ELBO is "
                                    "closed form for a noise free of z");
    if (o.encoderGradient == GradientEstimator::ScoreBaseline && o.encoderSamples < 2)
        throw std::invalid_argument("the encoder gradient 'score-baseline' needs at least 2 "
                                    "draws per row (its baseline leaves one out)");
}

GradientEstimator parseEncoderGradient(const std::string& name) {
    return requireIn(kEstimatorNames, name, "encoder gradient");
}

VaeFit::VaeFit(const ConstMatrixRef& trainRows, const VaeOptions& options, NoiseKind noise)
    : m_options(options), m_X(trainRows.transpose()),
      m_rng(deriveSeed(options.seed, SeedStream::VaeTrainingDraws)) {
    validate(options);
    if (!m_X.allFinite())
        throw std::invalid_argument("the rows must be finite (no missing values)");
    if (options.latent >= m_X.rows())
        throw std::invalid_argument("the latent dimension K must be smaller than D");
    // Decoder (K → hidden → 2D at most) and encoder (D → hidden → 2K): weights, gradients and
    // Adam's two moments, four numbers a weight.
    const double d = static_cast<double>(m_X.rows()), k = options.latent;
    checkRunBytes(4.0 * 8.0 *
                      (weightsThrough(k, options.hidden, 2.0 * d) +
                       weightsThrough(d, options.hidden, 2.0 * k)),
                  "the decoder and the encoder", "use fewer hidden units (--hidden)");
    m_model = initialNlfaModel(options.latent, options.hidden, options.activation, noise,
                               options.fixedVariance, m_X,
                               deriveSeed(options.seed, SeedStream::DecoderStart));
    m_order.resize(static_cast<std::size_t>(m_X.cols()));
    for (Eigen::Index i = 0; i < m_X.cols(); ++i)
        m_order[static_cast<std::size_t>(i)] = i;
}

void VaeFit::epoch() {
    if (m_diverged)
        return;
    shuffle(m_order, m_rng);
    const std::size_t n = m_order.size();
    const auto size = static_cast<std::size_t>(m_options.batch);
    for (std::size_t start = 0; start < n && !abandoned(); start += size) {
        const std::size_t end = std::min(n, start + size);
        m_index.assign(m_order.begin() + static_cast<std::ptrdiff_t>(start),
                       m_order.begin() + static_cast<std::ptrdiff_t>(end));
        gatherColumns(m_X, m_index, m_batch);
        ++m_updates;
        update();
        m_floored = m_model.applyFloor();
        if (!m_model.theta.allFinite() || !m_model.gamma.allFinite()) {
            m_diverged = true;
            return;
        }
    }
    ++m_epochs;
}

void VaeFit::descend(Eigen::Ref<Vector> param, const Vector& descent, Vector& m, Vector& v,
                     double lr) {
    optimiserStep(OptimiserKind::Adam, param, descent, {m, v}, lr, m_updates);
}

std::unique_ptr<VaeFit> makeVaeFit(VaeMethod method, const ConstMatrixRef& trainRows,
                                   const VaeOptions& options) {
    switch (method) {
    case VaeMethod::Vem:
        return std::make_unique<Vem>(trainRows, options);
    case VaeMethod::Vae:
        return std::make_unique<Vae>(trainRows, options);
    case VaeMethod::LinearVae: {
        VaeOptions linear = options;
        linear.hidden.clear();
        linear.noise = linear.linearNoise; // its one noise (the VAE's may be the network's)
        return std::make_unique<LinearVae>(trainRows, linear);
    }
    case VaeMethod::Ppca:
        break;
    }
    throw std::invalid_argument("PPCA is a closed form, not a fitter");
}

} // namespace fa
