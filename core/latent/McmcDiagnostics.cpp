#include "core/latent/McmcDiagnostics.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>

namespace fa {
namespace {

void check(const std::vector<std::vector<double>>& chains) {
    if (chains.empty() || chains.front().size() < 4)
        throw std::invalid_argument("the diagnostics need chains of at least 4 draws");
    for (const auto& c : chains)
        if (c.size() != chains.front().size())
            throw std::invalid_argument("the chains must be of equal length");
}

double mean(const double* x, std::size_t n) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        s += x[i];
    return s / static_cast<double>(n);
}

double variance(const double* x, std::size_t n) { // ddof 1
    const double m = mean(x, n);
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        s += (x[i] - m) * (x[i] - m);
    return s / static_cast<double>(n - 1);
}

/// W and var⁺ of equal-length pieces (each pieces[j] of length n).
void withinAndPooled(const std::vector<const double*>& pieces, std::size_t n, double& W,
                     double& varPlus) {
    std::vector<double> means;
    W = 0.0;
    for (const double* p : pieces) {
        W += variance(p, n);
        means.push_back(mean(p, n));
    }
    W /= static_cast<double>(pieces.size());
    // One piece has no between-piece variance (its ddof-1 variance would be 0 / 0).
    const double B =
        means.size() < 2 ? 0.0 : static_cast<double>(n) * variance(means.data(), means.size());
    varPlus =
        (static_cast<double>(n) - 1.0) / static_cast<double>(n) * W + B / static_cast<double>(n);
}

} // namespace

double splitRhat(const std::vector<std::vector<double>>& chains) {
    check(chains);
    const std::size_t n = chains.front().size() / 2;
    std::vector<const double*> halves;
    for (const auto& c : chains) {
        halves.push_back(c.data());
        halves.push_back(c.data() + n);
    }
    double W = 0.0, varPlus = 0.0;
    withinAndPooled(halves, n, W, varPlus);
    if (!(W > 0.0))
        return varPlus > 0.0 ? INFINITY : 1.0; // constant halves: agreeing or not at all
    return std::sqrt(varPlus / W);
}

double effectiveSampleSize(const std::vector<std::vector<double>>& chains) {
    check(chains);
    const std::size_t n = chains.front().size();
    const auto m = static_cast<double>(chains.size());
    std::vector<const double*> whole;
    for (const auto& c : chains)
        whole.push_back(c.data());
    double W = 0.0, varPlus = 0.0;
    withinAndPooled(whole, n, W, varPlus);
    if (!(varPlus > 0.0))
        return m * static_cast<double>(n);
    std::vector<double> means;
    for (const auto& c : chains)
        means.push_back(mean(c.data(), n));
    // Mean over chains of the biased (/n) autocovariance at every lag, by FFT: zero-padded to a
    // power of two >= 2n, so the circular products are the linear ones. O(n log n) per chain
    // (the direct sums cost O(n²) for a slowly mixing chain, whose lags run long).
    std::size_t size = 1;
    while (size < 2 * n)
        size *= 2;
    Eigen::FFT<double> fft;
    std::vector<double> padded(size), acovs(n, 0.0), back;
    std::vector<std::complex<double>> spectrum;
    for (std::size_t j = 0; j < chains.size(); ++j) {
        std::fill(padded.begin(), padded.end(), 0.0);
        for (std::size_t i = 0; i < n; ++i)
            padded[i] = chains[j][i] - means[j];
        fft.fwd(spectrum, padded);
        for (auto& z : spectrum)
            z = std::norm(z);
        fft.inv(back, spectrum);
        for (std::size_t t = 0; t < n; ++t)
            acovs[t] += back[t] / static_cast<double>(n) / m;
    }
    auto acov = [&](std::size_t t) { return acovs[t]; };
    auto rho = [&](std::size_t t) { return 1.0 - (W - acov(t)) / varPlus; };
    double tau = -1.0;
    for (std::size_t t = 0; t + 1 < n; t += 2) {
        const double pair = rho(t) + rho(t + 1);
        if (!(pair > 0.0))
            break;
        tau += 2.0 * pair;
    }
    // Antithetic chains can make τ tiny or negative: bound it below as Stan does, so the ESS
    // stays at most M n log10(M n).
    tau = std::max(tau, 1.0 / std::log10(m * static_cast<double>(n)));
    return m * static_cast<double>(n) / tau;
}

} // namespace fa
