// The block normal generator (Rng::fillNormal, core/math/Rng.cpp) and the blocked sampler
// (FASampler::draw): bitwise the numbers of one scalar normal() call after another, at every
// length around the block and vector widths and through the ziggurat's slow paths; the first
// draws against an independent transcription of the ziggurat; the distribution against closed
// forms with tolerances from the standard errors.
#include "core/fa/FAModel.h"
#include "core/math/Rng.h"

#include <QtTest>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace fa;

namespace {
bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
/// How many numbers the fill took: steps of a fresh generator until its next number is the
/// filled one's next.
long numbersTaken(std::uint64_t seed, const Rng& filled) {
    Rng probe = filled;
    const std::uint64_t target = probe.nextU64();
    Rng walker(seed);
    long k = 0;
    for (;; ++k) {
        Rng peek = walker;
        if (peek.nextU64() == target)
            return k;
        walker.nextU64();
    }
}
} // namespace

class TestNormalFill : public QObject {
    Q_OBJECT
  private slots:
    // Lengths 0, 1, odd, around the 2/4/8 lanes and the 256-number block, and long fills with
    // tail and wedge draws; the generator's state afterwards is the scalar one's too.
    void fillIsScalarNormalsBitwise() {
        const std::vector<Eigen::Index> lengths = {0,   1,   2,   3,    4,     5,     7,   8,
                                                   9,   15,  16,  17,   255,   256,   257, 511,
                                                   512, 513, 999, 4097, 65537, 200003};
        for (const std::uint64_t seed : {1ull, 2ull, 99ull})
            for (const Eigen::Index n : lengths) {
                Rng block(seed), scalar(seed);
                Vector v(n + 2); // the fill into an unaligned segment, its neighbours untouched
                v.setConstant(7.0);
                block.fillNormal(v.segment(1, n));
                QCOMPARE(v[0], 7.0);
                QCOMPARE(v[n + 1], 7.0);
                for (Eigen::Index i = 0; i < n; ++i)
                    QVERIFY2(sameBits(v[1 + i], scalar.normal()),
                             qPrintable(QString("seed %1 n %2 i %3").arg(seed).arg(n).arg(i)));
                QCOMPARE(block.nextU64(), scalar.nextU64());
            }
    }
    // Fills and single draws interleaved share one stream.
    void fillsAndSingleDrawsInterleave() {
        Rng mixed(5), scalar(5);
        Vector a(300), b(1);
        for (int round = 0; round < 20; ++round) {
            QVERIFY(sameBits(mixed.normal(), scalar.normal()));
            mixed.fillNormal(a);
            for (Eigen::Index i = 0; i < a.size(); ++i)
                QVERIFY(sameBits(a[i], scalar.normal()));
            mixed.fillNormal(b);
            QVERIFY(sameBits(b[0], scalar.normal()));
            QCOMPARE(mixed.uniform(), scalar.uniform());
        }
    }
    // The slow paths ran: a long fill takes more numbers than draws (one extra per wedge test,
    // two per tail try), and some draws lie in the tail beyond r = 3.4426.
    void slowPathsAreExercised() {
        const Eigen::Index n = 200003;
        Rng r(3);
        Vector v(n);
        r.fillNormal(v);
        const long taken = numbersTaken(3, r);
        QVERIFY2(taken > n + 1000,
                 qPrintable(QString("%1 numbers for %2 draws").arg(taken).arg(n)));
        QVERIFY((v.array().abs() > 3.442619855899).count() > 20);
    }
    // The first draws of seed 42 from an independent transcription: Vigna's xoshiro256++ values
    // (tests/core/test_rng.cpp) and Marsaglia & Tsang's 128-layer tables by their recursion
    // x_{i+1} = sqrt(-2 log(V / x_i + f(x_i))), x_1 = r; a draw inside its rectangle is
    // u x[layer] with u = (bits >> 11) 2^-52 - 1 and layer the low 7 bits.
    void firstDrawsMatchAnIndependentTranscription() {
        const double r = 3.442619855899, V = 9.91256303526217e-3;
        auto f = [](double x) { return std::exp(-0.5 * x * x); };
        std::array<double, 129> x{};
        x[0] = V / f(r);
        x[1] = r;
        for (int i = 1; i < 127; ++i)
            x[i + 1] = std::sqrt(-2.0 * std::log(V / x[i] + f(x[i])));
        const std::array<std::uint64_t, 4> ref42 = {0xd0764d4f4476689full, 0x519e4174576f3791ull,
                                                    0xfbe07cfb0c24ed8cull, 0xb37d9f600cd835b8ull};
        Rng rng(42);
        Vector v(4);
        rng.fillNormal(v);
        int checked = 0;
        for (std::size_t i = 0; i < 4; ++i) {
            const std::uint64_t bits = ref42[i];
            const std::size_t layer = bits & 127u;
            const double u = static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0;
            const double draw = u * x[layer];
            if (std::abs(draw) >= x[layer + 1])
                break; // a slow path: the later draws take other numbers
            QCOMPARE(v[static_cast<Eigen::Index>(i)], draw);
            ++checked;
        }
        QVERIFY(checked >= 1);
    }
    // 4 million draws against the standard normal's moments (mean 0, variance 1, fourth moment
    // 3: standard errors 1 / sqrt(n), sqrt(2 / n), sqrt(96 / n)) and tail fractions
    // P(|x| > a) = erfc(a / sqrt 2) with standard error sqrt(p (1 - p) / n): a = 1 and 2 (the
    // layers), r = 3.4426 (the tail path's start) and 4 (deep in it). Tolerance 5 standard
    // errors.
    void distributionMatchesClosedForms() {
        const Eigen::Index n = 4'000'000;
        Rng rng(11);
        Vector v(n);
        rng.fillNormal(v);
        const double dn = static_cast<double>(n);
        const double mean = v.mean(), second = v.squaredNorm() / dn;
        const double fourth = v.array().square().square().mean();
        QVERIFY2(std::abs(mean) < 5.0 / std::sqrt(dn), qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(second - 1.0) < 5.0 * std::sqrt(2.0 / dn),
                 qPrintable(QString::number(second)));
        QVERIFY2(std::abs(fourth - 3.0) < 5.0 * std::sqrt(96.0 / dn),
                 qPrintable(QString::number(fourth)));
        for (const double a : {1.0, 2.0, 3.442619855899, 4.0}) {
            const double p = std::erfc(a / std::sqrt(2.0));
            const double seen = static_cast<double>((v.array().abs() > a).count()) / dn;
            QVERIFY2(std::abs(seen - p) < 5.0 * std::sqrt(p * (1.0 - p) / dn),
                     qPrintable(QString("a %1: %2 against %3").arg(a).arg(seen).arg(p)));
        }
    }
    // The blocked draw against c + sqrt(psi) .* eps + F h formed whole from K + D scalar
    // normals, bitwise, for D below, at and around the row block (16384, and a last block of one
    // row) and into an unaligned segment.
    void samplerDrawIsTheWholeFormulaBitwise() {
        for (const Eigen::Index D : {2, 4, 7, 33, 1025, 16383, 16384, 16385, 16386, 32769, 40001}) {
            const Eigen::Index K = 3;
            Rng setup(static_cast<std::uint64_t>(D));
            FAModel model;
            model.F = setup.normalMatrix(D, K);
            model.c = setup.normalMatrix(D, 1).col(0);
            model.psi = setup.normalMatrix(D, 1).col(0).array().square() + 0.1;
            FASampler sampler(model);
            Rng block(7), scalar(7);
            Vector out(D + 1);
            for (int draw = 0; draw < 3; ++draw) {
                sampler.draw(block, out.tail(D));
                Vector h(K), eps(D);
                for (Eigen::Index k = 0; k < K; ++k)
                    h[k] = scalar.normal();
                for (Eigen::Index d = 0; d < D; ++d)
                    eps[d] = scalar.normal();
                Vector whole = model.c + model.psi.cwiseSqrt().cwiseProduct(eps);
                whole.noalias() += model.F * h;
                for (Eigen::Index d = 0; d < D; ++d)
                    QVERIFY2(sameBits(out[1 + d], whole[d]),
                             qPrintable(QString("D %1 d %2").arg(D).arg(d)));
            }
            QCOMPARE(block.nextU64(), scalar.nextU64());
        }
    }
};

QTEST_APPLESS_MAIN(TestNormalFill)
#include "test_normal_fill.moc"
