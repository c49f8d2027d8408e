#include "core/fa/ModelGenerator.h"

#include "core/math/SymmetricEigen.h"

#include <cstdio>
#include <stdexcept>

namespace fa {

std::optional<GeneratorKind> parseGeneratorKind(const std::string& name) {
    if (name == "exact")
        return GeneratorKind::Exact;
    if (name == "haar")
        return GeneratorKind::Haar;
    return std::nullopt;
}

std::string generatorName(GeneratorKind kind) {
    return kind == GeneratorKind::Exact ? "exact" : "haar";
}

double faStateBytes(int dim, int latent, int fitLatent, int fitters) {
    return 8.0 * dim * (static_cast<double>(latent) + 4.0 * fitLatent * fitters);
}

std::string modelTooLarge(double bytes) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "the model's D x K matrices would need %.1f GB of memory (at most %.0f GB): "
                  "lower D or K",
                  bytes / 1e9, kMaxModelBytes / 1e9);
    return text;
}

void checkRunBytes(double bytes, const char* what, const char* fix) {
    if (!(bytes > kMaxModelBytes))
        return;
    char text[320];
    std::snprintf(text, sizeof text, "%s would take %.1f GB in memory (at most %.0f GB): %s", what,
                  bytes / 1e9, kMaxModelBytes / 1e9, fix);
    throw std::invalid_argument(text);
}

void validate(const GeneratorSpec& spec) {
    if (spec.dim < 2)
        throw std::invalid_argument("dimension D must be at least 2");
    if (spec.latent < 1 || spec.latent >= spec.dim)
        throw std::invalid_argument("latent K must satisfy 1 <= K < D");
    if (!(spec.spectrumLo > 0.0))
        throw std::invalid_argument("spectrum lower bound must be positive");
    if (!(spec.spectrumLo <= spec.spectrumHi))
        throw std::invalid_argument("spectrum lower bound must not exceed the upper bound");
    if (!(spec.spectrumLo >= kSpectrumMin && spec.spectrumHi <= kSpectrumMax))
        throw std::invalid_argument("the spectrum [a, b] must lie within [0.0001, 1e+09]");
    if (faStateBytes(spec.dim, spec.latent, 0, 0) > kMaxModelBytes)
        throw std::invalid_argument(modelTooLarge(faStateBytes(spec.dim, spec.latent, 0, 0)));
    if (spec.kind == GeneratorKind::Exact && spec.dim > kExactGeneratorMaxDim)
        throw std::invalid_argument("the exact generator is O(D^3) and limited to D <= " +
                                    std::to_string(kExactGeneratorMaxDim) +
                                    "; use the haar generator for larger D");
}

Matrix randomOrthonormalFrame(Eigen::Index dim, Eigen::Index latent, Rng& rng) {
    const Matrix g = rng.normalMatrix(dim, latent);
    const Eigen::HouseholderQR<Matrix> qr(g);
    Matrix q = qr.householderQ() * Matrix::Identity(dim, latent);
    const Matrix r = qr.matrixQR().topRows(latent).triangularView<Eigen::Upper>();
    for (Eigen::Index k = 0; k < latent; ++k)
        if (r(k, k) < 0.0)
            q.col(k) = -q.col(k);
    return q;
}

FAModel generateModel(const GeneratorSpec& spec, std::uint64_t seed) {
    return generateModelDetailed(spec, seed).model;
}

GeneratedModel generateModelDetailed(const GeneratorSpec& spec, std::uint64_t seed) {
    validate(spec);
    Rng rng(seed);
    const Eigen::Index D = spec.dim, K = spec.latent;
    FAModel model;
    model.c.resize(D);
    rng.fillNormal(model.c);

    Matrix frame;
    if (spec.kind == GeneratorKind::Exact) {
        const Matrix A = rng.normalMatrix(D, D);
        Matrix M = Matrix::Zero(D, D);
        M.selfadjointView<Eigen::Lower>().rankUpdate(A);
        const SymmetricEigen eig = symmetricEigen(M); // ascending eigenvalues
        frame = eig.vectors.rightCols(K).rowwise().reverse();
    } else {
        frame = randomOrthonormalFrame(D, K, rng);
    }

    Vector s2(D);
    for (Eigen::Index d = 0; d < D; ++d)
        s2[d] = rng.uniform(spec.spectrumLo, spec.spectrumHi);
    model.F = frame.array().colwise() * s2.array().sqrt();
    const double psiMax = s2.maxCoeff();
    model.psi.resize(D);
    for (Eigen::Index d = 0; d < D; ++d) {
        double v = 0.0;
        while (v == 0.0) // U(0, max s^2) excluding the measure-zero 0, which no FA model allows
            v = rng.uniform(0.0, psiMax);
        model.psi[d] = v;
    }
    return {model, frame, s2};
}

} // namespace fa
