#include "core/neural/IterateFits.h"

#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Methods.h"
#include "core/math/Rng.h"
#include "core/vi/SgdTrainer.h"

#include <cmath>
#include <stdexcept>

namespace fa {
namespace {

// The lab's names for these methods; labels and colours come from the method registry
// (core/lab/Methods.h), which offers them to the neural lab.
constexpr Named<IterateMethod> kMethods[] = {
    {IterateMethod::Map, "map"},
    {IterateMethod::SwaFaEm, "swa-fa-em"},
    {IterateMethod::SwaFaSga, "swa-fa-sga"},
    {IterateMethod::Swag, "swag"},
    {IterateMethod::Ensemble, "ensemble"},
    {IterateMethod::MultiSwag, "multiswag"},
    {IterateMethod::MultiSwaFaEm, "multi-swa-fa-em"},
};

constexpr Named<FaStart> kStarts[] = {{FaStart::Thesis, "thesis"}, {FaStart::Iterates, "iterates"}};

bool isSwag(IterateMethod method) {
    return method == IterateMethod::Swag || method == IterateMethod::MultiSwag;
}

/// Checks what the parts (MapSgd, the likelihood, the fitters) do not, and returns M.
int checkIterateOptions(const IterateFitOptions& o) {
    const int members = o.members == 0 ? defaultMembers(o.method) : o.members;
    if (members < 1 || members > 1000)
        throw std::invalid_argument("the number of members M must lie within [1, 1000]");
    if (members > 1 && !isMultiMethod(o.method))
        throw std::invalid_argument(iterateMethodName(o.method) +
                                    " is one run: only ensemble, multiswag and multi-swa-fa-em "
                                    "take more than one member");
    if (o.epochs < 1)
        throw std::invalid_argument("the run needs at least one epoch");
    if (collectsIterates(o.method) && !(o.swaStart >= 0 && o.swaStart < o.epochs))
        throw std::invalid_argument(
            "the SWA start must lie within [0, epochs): " + iterateMethodName(o.method) +
            " needs iterates to collect after it");
    if (collectsIterates(o.method) && o.rank < 1)
        throw std::invalid_argument("the rank K must be at least 1");
    if (o.method == IterateMethod::SwaFaSga)
        checkLearningRate(o.sgaLearningRate);
    if (o.faStart == FaStart::Iterates && collectsIterates(o.method) && !isSwag(o.method) &&
        o.swaStart < 1)
        throw std::invalid_argument("the start at the iterates' scale measures them over the "
                                    "epoch before the SWA start: the SWA start must be 1 or more");
    return members;
}

/// Whether a member's fitter waits for the SWA start, to start at the iterates' scale.
bool startsAtIterates(const IterateFitOptions& o) {
    return o.faStart == FaStart::Iterates && collectsIterates(o.method) && !isSwag(o.method);
}

/// A fit in the coordinates θ / s (docs/maths/neural.md §8.8): fed θ / s, it answers diag(s) times
/// its Gaussian. Online SGA's step is not equivariant under that scaling, so this is how it starts
/// at the iterates' scale: the thesis's fit, on iterates of unit spread. No allocation per iterate.
class RescaledFit final : public StreamFit {
  public:
    RescaledFit(std::unique_ptr<StreamFit> inner, Vector scale)
        : m_inner(std::move(inner)), m_scale(std::move(scale)), m_scaled(m_scale.size()) {}
    void observe(const ConstVectorRef& theta) override {
        m_scaled = theta.cwiseQuotient(m_scale);
        m_inner->observe(m_scaled);
    }
    FitStatus status() const override { return m_inner->status(); }
    FAModel model() const override {
        FAModel q = m_inner->model();
        q.c.array() *= m_scale.array();
        q.F = m_scale.asDiagonal() * q.F;
        q.psi.array() *= m_scale.array().square();
        return q;
    }

  private:
    std::unique_ptr<StreamFit> m_inner;
    Vector m_scale, m_scaled;
};

/// The Gaussian a member's iterates are fed to (none for map and ensemble); scale: the start at
/// the iterates' scale, or empty. Online EM takes it as its start (OnlineOptions::startScale),
/// which its equivariance makes the same fit; online SGA runs in the rescaled coordinates.
std::unique_ptr<StreamFit> memberFit(const IterateFitOptions& o, Eigen::Index dim,
                                     std::uint64_t memberSeed, const Vector& scale = {}) {
    if (!collectsIterates(o.method))
        return nullptr;
    if (isSwag(o.method))
        return std::make_unique<SwagEstimator>(dim, o.rank);
    if (o.rank >= dim)
        throw std::invalid_argument("the rank K must be below the number of weights D = " +
                                    std::to_string(dim));
    OnlineOptions fit;
    fit.latent = o.rank;
    fit.warmup = o.faWarmup;
    fit.learningRate = o.sgaLearningRate;
    fit.initSeed = deriveSeed(memberSeed, SeedStream::IterateFitter);
    if (o.method == IterateMethod::SwaFaSga) {
        if (scale.size() == 0)
            return std::make_unique<OnlineSGA>(dim, fit);
        return std::make_unique<RescaledFit>(std::make_unique<OnlineSGA>(dim, fit), scale);
    }
    fit.startScale = scale;
    return std::make_unique<OnlineEM>(dim, fit);
}

} // namespace

std::string faStartName(FaStart start) {
    return nameIn(kStarts, start);
}

std::optional<FaStart> parseFaStart(const std::string& name) {
    return valueIn(kStarts, name);
}

std::string iterateMethodName(IterateMethod method) {
    return nameIn(kMethods, method);
}

std::optional<IterateMethod> parseIterateMethod(const std::string& name) {
    return labMethod(kMethods, name, Lab::Neural);
}

std::vector<IterateMethod> allIterateMethods() {
    return labMethods(kMethods, Lab::Neural);
}

bool isMultiMethod(IterateMethod method) {
    return method == IterateMethod::Ensemble || method == IterateMethod::MultiSwag ||
           method == IterateMethod::MultiSwaFaEm;
}

bool collectsIterates(IterateMethod method) {
    return method != IterateMethod::Map && method != IterateMethod::Ensemble;
}

int defaultMembers(IterateMethod method) {
    return isMultiMethod(method) ? 5 : 1;
}

struct IterateFit::Member {
    std::unique_ptr<MapSgd> sgd;
    std::unique_ptr<StreamFit> fit; ///< null for map and ensemble, and until the SWA start
                                    ///< when the fitter starts at the iterates' scale
    long collected = 0;
    /// The epoch before the SWA start, for a start at the iterates' scale: Welford's running
    /// mean and sum of squared deviations of each weight, and the count.
    Vector spreadMean, spreadM2;
    long spreadCount = 0;
};

IterateFit::IterateFit(const Matrix& X, const Vector& y, const IterateFitOptions& options,
                       std::vector<Vector> starts)
    : m_options(options) {
    m_options.members = checkIterateOptions(options);
    const auto members = static_cast<std::size_t>(m_options.members);
    if (!starts.empty() && starts.size() != members)
        throw std::invalid_argument("give one start per member, or none");
    MlpShape shape;
    shape.inputs = static_cast<int>(X.cols());
    shape.hidden = options.hidden;
    m_net = std::make_unique<MlpLikelihood>(X, y, shape, options.noisePrecision);
    MapSgdOptions sgd;
    sgd.learningRate = options.learningRate;
    sgd.batch = options.batch;
    sgd.priorPrecision = options.priorPrecision;
    for (std::size_t m = 0; m < members; ++m) {
        const std::uint64_t seed = deriveSeed(options.seed, SeedStream::IterateMemberBase, m);
        Vector start = starts.empty() ? MlpLikelihood::initialWeights(
                                            shape, deriveSeed(seed, SeedStream::NeuralNetworkStart))
                                      : std::move(starts[m]);
        sgd.seed = deriveSeed(seed, SeedStream::IterateBatchOrder);
        auto member = std::make_unique<Member>();
        member->sgd = std::make_unique<MapSgd>(*m_net, std::move(start), sgd);
        if (startsAtIterates(m_options)) { // built at the SWA start (runEpoch)
            member->spreadMean = Vector::Zero(m_net->dim());
            member->spreadM2 = Vector::Zero(m_net->dim());
        } else {
            member->fit = memberFit(options, m_net->dim(), seed);
        }
        m_members.push_back(std::move(member));
    }
}

IterateFit::~IterateFit() = default;

void IterateFit::abandonOn(const std::atomic<bool>* flag) {
    m_abandon = flag;
    for (const auto& m : m_members)
        m->sgd->abandonOn(flag);
}

void IterateFit::onIterate(std::function<void(int, const Vector&)> observer) {
    m_observer = std::move(observer);
}

void IterateFit::runEpoch() {
    const auto abandoned = [this] {
        return m_abandon && m_abandon->load(std::memory_order_relaxed);
    };
    if (finished())
        return;
    const bool collect = collectsIterates(m_options.method) && m_epoch >= m_options.swaStart;
    const bool measure = startsAtIterates(m_options) && m_epoch + 1 == m_options.swaStart;
    for (std::size_t k = 0; k < m_members.size(); ++k) {
        if (abandoned())
            return;
        Member& m = *m_members[k];
        if (collect && !m.fit) { // the start at the iterates' scale, measured the epoch before
            m.fit = memberFit(m_options, m_net->dim(),
                              deriveSeed(m_options.seed, SeedStream::IterateMemberBase, k),
                              spreadScale(m));
            m.spreadMean.resize(0), m.spreadM2.resize(0); // done with
        }
        if (!collect && !measure && !m_observer) {
            m.sgd->runEpoch();
            continue;
        }
        // Fed in place: observe reads theta where SGD keeps it (no copy, no allocation).
        m.sgd->runEpoch([&](const Vector& theta) {
            if (m_observer)
                m_observer(static_cast<int>(k), theta);
            if (measure) { // Welford, weight by weight
                const double n = static_cast<double>(++m.spreadCount);
                m.spreadM2.array() += (theta - m.spreadMean).array() *
                                      (theta - m.spreadMean).array() * ((n - 1.0) / n);
                m.spreadMean += (theta - m.spreadMean) / n;
            }
            if (collect) {
                m.fit->observe(theta);
                ++m.collected;
            }
        });
    }
    if (abandoned()) // the epoch was cut: it does not count
        return;
    ++m_epoch;
}

Vector IterateFit::spreadScale(const Member& m) const {
    // The weights' standard deviations over that epoch (divisor n), floored so that a weight
    // that did not move (a unit no row activates) starts with a small but proper variance.
    const double n = static_cast<double>(std::max(m.spreadCount, 1L));
    return (m.spreadM2 / n).cwiseMax(kSpreadFloor).cwiseSqrt();
}

FitStatus IterateFit::status() const {
    bool warm = false;
    for (const auto& m : m_members) {
        if (m->sgd->diverged() || (m->fit && m->fit->diverged()))
            return FitStatus::Diverged;
        warm = warm || (collectsIterates(m_options.method) &&
                        (!m->fit || m->collected == 0 || m->fit->status() == FitStatus::WarmUp));
    }
    return warm ? FitStatus::WarmUp : FitStatus::Running;
}

FAModel IterateFit::memberPosterior(const Member& member) const {
    if (!member.fit || member.collected == 0)
        return pointMass(member.sgd->theta());
    FAModel q = member.fit->model();
    if (member.fit->status() == FitStatus::WarmUp) // only the running mean has moved: SWA
        return pointMass(q.c);
    return q;
}

std::vector<FAModel> IterateFit::posterior() const {
    std::vector<FAModel> out;
    out.reserve(m_members.size());
    for (const auto& m : m_members)
        out.push_back(memberPosterior(*m));
    return out;
}

Predictive IterateFit::evaluate(const ConstMatrixRef& X, const ConstVectorRef& yOriginal,
                                double yMean, double yScale, int samples, std::uint64_t seed,
                                const ScoringPoll& poll) const {
    return predictive(*m_net, posterior(), X, yOriginal, yMean, yScale, samples, seed, poll);
}

const Vector& IterateFit::weights(int member) const {
    return m_members.at(static_cast<std::size_t>(member))->sgd->theta();
}

long IterateFit::collected(int member) const {
    return m_members.at(static_cast<std::size_t>(member))->collected;
}

} // namespace fa
