#pragma once
// Random FA models with a controlled spectrum (thesis Algorithm 3).
#include "core/fa/FAModel.h"

#include <optional>
#include <string>

namespace fa {

enum class GeneratorKind {
    Exact, ///< Algorithm 3 verbatim: top-K eigenvectors of A A^T, O(D^3)
    Haar   ///< the same distribution of frames via QR of a D x K Gaussian matrix, O(D K^2)
};

std::optional<GeneratorKind> parseGeneratorKind(const std::string& name);
std::string generatorName(GeneratorKind kind);

struct GeneratorSpec {
    int dim = 100;
    int latent = 10;
    double spectrumLo = 1.0; ///< range [a, b] of s^2, the squared row scales of F
    double spectrumHi = 10.0;
    GeneratorKind kind = GeneratorKind::Exact;
};

/// Largest D the exact generator accepts: its D x D eigendecomposition takes ~10 s at D = 2000.
constexpr int kExactGeneratorMaxDim = 2000;

/// The range of s^2 every entry point accepts (the controls, sessions, the CLI): beyond 1e9 the
/// covariance's entries approach the square root of the double range and the metrics overflow.
constexpr double kSpectrumMin = 1e-4; // the controls show four decimals
constexpr double kSpectrumMax = 1e9;

/// The most memory the D x K matrices of a run may take (the true model and every fitter's
/// state), estimated by faStateBytes; a larger model is refused before anything is allocated.
constexpr double kMaxModelBytes = 4.0 * 1024 * 1024 * 1024;

/// Bytes of the D x K matrices a run holds: the true F and, per fitter, about four D x fitK
/// matrices (the estimate, its gradient or statistics, and scratch).
double faStateBytes(int dim, int latent, int fitLatent, int fitters);
/// "the model's D x K matrices would need 80.0 GB of memory (at most 4 GB): lower D or K".
std::string modelTooLarge(double bytes);
/// The same limit for any run's data or network, checked before anything is allocated (README:
/// over 4 GB is refused with one line and exit 2): throws std::invalid_argument ("WHAT would take
/// 16.0 GB in memory (at most 4 GB): FIX") when `bytes` exceeds kMaxModelBytes.
void checkRunBytes(double bytes, const char* what, const char* fix);

/// Throws std::invalid_argument with a user-facing message when the spec is unusable.
void validate(const GeneratorSpec& spec);

/// c ~ N(0, 1); F = V_K scaled row-wise by s, s^2 ~ U(a, b); psi ~ U(0, max s^2).
FAModel generateModel(const GeneratorSpec& spec, std::uint64_t seed);

/// The same model with the pieces it was built from (for tests and teaching views).
struct GeneratedModel {
    FAModel model;
    Matrix frame; ///< V_K, D x K with orthonormal columns
    Vector s2;    ///< squared row scales, F = frame .* sqrt(s2) row-wise
};
GeneratedModel generateModelDetailed(const GeneratorSpec& spec, std::uint64_t seed);

/// Orthonormal D x K frame: Q of the reduced QR of a Gaussian matrix, signs fixed by diag(R)
/// so the frame is Haar-distributed. Also the online fitters' initial F (thesis section 4.3).
Matrix randomOrthonormalFrame(Eigen::Index dim, Eigen::Index latent, Rng& rng);

} // namespace fa
