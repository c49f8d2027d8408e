// The method registry and the fitters' common interface. References: the CSV words other
// programs read (written out here, not taken from the code), the labs' own method enums, and
// the sample mean, which every stream fit's centre must equal.
#include "core/data/LatentData.h"
#include "core/fa/GaussianFit.h"
#include "core/fa/OnlineEM.h"
#include "core/fa/OnlineSGA.h"
#include "core/lab/Estimators.h"
#include "core/lab/Methods.h"
#include "core/latent/LatentFits.h"
#include "core/neural/NeuralRegression.h"
#include "core/posterior/PosteriorLab.h"
#include "core/vae/NlfaModel.h"
#include "core/vae/VaeFits.h"
#include "core/vi/ExactPosterior.h"
#include "core/vi/SgdTrainer.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <memory>
#include <set>

using namespace fa;

class TestMethods : public QObject {
    Q_OBJECT

  private slots:
    // An id is unique within each lab (and among the references); a lab may reuse another
    // lab's id ("em": online EM in the explorer, batch EM in the latent lab), and the lab's
    // lookup finds its own entry.
    void idsAreUniqueWithinALab() {
        for (Lab lab : {Lab::Explorer, Lab::Posterior, Lab::Neural, Lab::Latent, Lab::Nonlinear}) {
            std::set<std::string_view> ids;
            for (const MethodInfo& m : methodRegistry()) {
                if (!m.offeredBy(lab))
                    continue;
                QVERIFY2(ids.insert(m.id).second, std::string(m.id).c_str());
                QCOMPARE(findMethod(m.id, lab), &m);
            }
        }
        for (const MethodInfo& m : methodRegistry()) {
            QVERIFY(!m.label.empty() && !m.shortLabel.empty() && !m.tip.empty());
            if (m.labs == 0)
                QCOMPARE(findMethod(m.id), &m);
        }
        QCOMPARE(findMethod("em", Lab::Explorer)->label, std::string_view("online EM"));
        QCOMPARE(findMethod("em", Lab::Latent)->label, std::string_view("batch EM"));
        QCOMPARE(findMethod("gibbs", Lab::Explorer), nullptr);
        QCOMPARE(findMethod("no-such-method"), nullptr);
        QCOMPARE(methodChoices(Lab::Latent),
                 std::string("em, gibbs, closed-form, svd, online-em, online-sga"));
    }

    void registryAgreesWithTheLabs() {
        // Posterior lab: every enum value is an entry offered by the lab, and nothing else is.
        const auto posterior = allPosteriorMethods();
        QCOMPARE(posterior.size(), std::size_t(8));
        QCOMPARE(methodIds(Lab::Posterior).size(), posterior.size());
        for (PosteriorMethod m : posterior) {
            const MethodInfo* info = findMethod(methodName(m));
            QVERIFY2(info && info->offeredBy(Lab::Posterior), methodName(m).c_str());
            QCOMPARE(parseMethod(methodName(m)), std::optional<PosteriorMethod>(m));
        }
        // Neural lab: the four VIFA / VIPPCA fits and the seven posteriors from SGD iterates,
        // in the order of the CLI contract.
        const auto neural = allNeuralMethods();
        QCOMPARE(neural.size(), std::size_t(4));
        QCOMPARE(methodChoices(Lab::Neural),
                 std::string("vifa-gauss, vifa-laplace, vippca-gauss, vippca-laplace, map, "
                             "swa-fa-em, swa-fa-sga, swag, ensemble, multiswag, multi-swa-fa-em"));
        const auto iterates = allIterateMethods();
        QCOMPARE(iterates.size(), std::size_t(7));
        for (IterateMethod m : iterates)
            QCOMPARE(parseIterateMethod(iterateMethodName(m)), std::optional<IterateMethod>(m));
        QVERIFY(!parseIterateMethod("sgd-em"));
        for (NeuralMethod m : neural) {
            const MethodInfo* info = findMethod(neuralMethodName(m));
            QVERIFY2(info && info->offeredBy(Lab::Neural), neuralMethodName(m).c_str());
            QCOMPARE(parseNeuralMethod(neuralMethodName(m)), std::optional<NeuralMethod>(m));
        }
        // The nonlinear-FA lab: the CLI contract's list, each parsed to its own enum value.
        QCOMPARE(methodChoices(Lab::Nonlinear), std::string("vem, vae, linear-vae, ppca"));
        for (VaeMethod m : {VaeMethod::Vem, VaeMethod::Vae, VaeMethod::LinearVae, VaeMethod::Ppca})
            QCOMPARE(parseVaeMethod(vaeMethodName(m)), std::optional<VaeMethod>(m));
        QVERIFY(!parseVaeMethod("gibbs"));
        QCOMPARE(methodIds(Lab::Explorer), (std::vector<std::string>{"batch", "em", "sga"}));
        QCOMPARE(methodChoices(Lab::Explorer), std::string("batch, em, sga"));
        // A method of one lab is refused by another.
        QVERIFY(!parseMethod("vippca-gauss"));
        QVERIFY(!parseNeuralMethod("swag"));
        QVERIFY(!parseMethod("em"));
        // References are offered by no lab.
        QCOMPARE(findMethod("truth")->labs, 0u);
        QCOMPARE(findMethod("exact")->labs, 0u);
    }

    void coloursDifferWithinALab() {
        for (Lab lab : {Lab::Explorer, Lab::Posterior, Lab::Neural, Lab::Latent, Lab::Nonlinear}) {
            std::set<std::uint32_t> colours;
            for (const MethodInfo& m : methodRegistry()) {
                if (m.offeredBy(lab)) {
                    QVERIFY2(colours.insert(m.rgb).second, std::string(m.id).c_str());
                    QVERIFY(m.rgb != findMethod("truth")->rgb);
                }
            }
        }
    }

    void statusWordsAreTheContract() {
        // CSV words are read by other programs: these literals are the contract.
        QCOMPARE(csvWord(FitStatus::WarmUp), std::string("warmup"));
        QCOMPARE(csvWord(FitStatus::Running), std::string("ok"));
        QCOMPARE(csvWord(FitStatus::Diverged), std::string("diverged"));
        QCOMPARE(csvWord(FitStatus::Skipped), std::string("skipped"));
        QCOMPARE(csvWord(FitStatus::Failed), std::string("failed"));
        QCOMPARE(statusName(FitStatus::WarmUp), std::string("warm-up"));
        QCOMPARE(statusName(FitStatus::Running), std::string("ok"));
        QCOMPARE(statusName(FitStatus::Diverged), std::string("diverged"));
    }

    // The words of the name tables are the contract too (written out here), and an unknown
    // word's error lists them all.
    void nameTablesAreTheContract() {
        QCOMPARE(hyperModeName(HyperMode::Evidence), std::string("evidence"));
        QCOMPARE(parseHyperMode("manual"), std::optional(HyperMode::Manual));
        QVERIFY(!parseHyperMode("auto"));
        QCOMPARE(noiseKindName(NoiseKind::Isotropic), std::string("isotropic"));
        QCOMPARE(noiseKindName(NoiseKind::Network), std::string("network"));
        QCOMPARE(parseLatentModel("mppca"), LatentModel::Mppca);
        QCOMPARE(estimatorName(GradientEstimator::ScoreBaseline), std::string("score-baseline"));
        QCOMPARE(faPriorName(FaPrior::Jeffreys), std::string("jeffreys"));
        QCOMPARE(allLatentMethods().size(), std::size_t(6));
        try {
            parseNoiseKind("Diagonal");
            QFAIL("a word in the wrong case was taken");
        } catch (const std::invalid_argument& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("unknown noise 'Diagonal' (use diagonal, isotropic, fixed or "
                                 "network)"));
        }
    }

    void streamFitsAreSiblings() {
        // Online EM, online SGA and SWAG behind one pointer type: status moves from warm-up to
        // running, the centre is the sample mean, and a NaN makes the online fits diverge.
        constexpr Eigen::Index D = 5;
        OnlineOptions opt;
        opt.latent = 2;
        opt.warmup = 4;
        std::vector<std::unique_ptr<StreamFit>> fits;
        fits.push_back(std::make_unique<OnlineEM>(D, opt));
        fits.push_back(std::make_unique<OnlineSGA>(D, opt));
        fits.push_back(std::make_unique<SwagEstimator>(D, 2));
        for (const auto& f : fits)
            QVERIFY(f->status() == FitStatus::WarmUp);

        Matrix X(D, 10);
        for (Eigen::Index j = 0; j < X.cols(); ++j)
            for (Eigen::Index i = 0; i < D; ++i)
                X(i, j) = std::sin(1.3 * double(i + 1) * double(j + 1)) + 0.1 * double(i);
        Vector sum = Vector::Zero(D);
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            sum += X.col(j);
            for (const auto& f : fits)
                f->observe(X.col(j));
        }
        const Vector sampleMean = sum / double(X.cols());
        for (const auto& f : fits) {
            QVERIFY(f->status() == FitStatus::Running);
            QVERIFY(!f->diverged());
            const FAModel m = f->model();
            QVERIFY((m.c - sampleMean).norm() < 1e-12 * (1.0 + sampleMean.norm()));
            QCOMPARE(m.F.rows(), D);
            QCOMPARE(m.F.cols(), Eigen::Index{2});
        }
        Vector bad = Vector::Zero(D);
        bad(2) = std::numeric_limits<double>::quiet_NaN();
        fits[0]->observe(bad);
        fits[1]->observe(bad);
        QVERIFY(fits[0]->status() == FitStatus::Diverged && fits[0]->diverged());
        QVERIFY(fits[1]->status() == FitStatus::Diverged && fits[1]->diverged());
    }
};

QTEST_GUILESS_MAIN(TestMethods)
#include "test_methods.moc"
