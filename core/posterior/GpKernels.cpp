// The Gaussian process's kernels and their derivatives in the log hyperparameters
// (docs/maths/gp.md §2 and §4).
#include "core/posterior/GaussianProcess.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {
namespace {

constexpr double kPi = std::numbers::pi;

/// A network kernel's values: sigma_b^2 + sigma_v^2 J(s12, s11, s22) with s(a, b) =
/// sigma_b0^2 + sigma_w^2 a.b (docs/maths/gp.md §2.3, §2.4), and J's partial derivatives.
struct NetworkTerm {
    double j = 0.0, d12 = 0.0, d11 = 0.0, d22 = 0.0;
};

NetworkTerm networkTerm(GpKernel kernel, double s12, double s11, double s22, bool partials) {
    NetworkTerm t;
    if (kernel == GpKernel::NnErf) {
        const double a = 1.0 + 2.0 * s11, b = 1.0 + 2.0 * s22, root = std::sqrt(a * b);
        const double z = std::clamp(2.0 * s12 / root, -1.0, 1.0);
        t.j = 2.0 / kPi * std::asin(z);
        if (partials) { // §4.2: dJ = (2/pi) (1 - z^2)^(-1/2) dz
            const double q = 2.0 / kPi / std::sqrt(std::max(1.0 - z * z, 1e-300));
            t.d12 = q * 2.0 / root;
            t.d11 = -q * z / a;
            t.d22 = -q * z / b;
        }
        return t;
    }
    const double p = std::sqrt(s11 * s22);
    const double c = std::clamp(s12 / p, -1.0, 1.0), theta = std::acos(c);
    const double sine = std::sqrt(std::max(0.0, 1.0 - c * c));
    t.j = p * (sine + (kPi - theta) * c) / (2.0 * kPi);
    if (partials) { // §4.2: d(P J') = sin(theta) dP + (pi - theta) ds12
        t.d12 = (kPi - theta) / (2.0 * kPi);
        t.d11 = sine * p / (2.0 * s11) / (2.0 * kPi);
        t.d22 = sine * p / (2.0 * s22) / (2.0 * kPi);
    }
    return t;
}

} // namespace

std::string gpKernelName(GpKernel kernel) {
    switch (kernel) {
    case GpKernel::SquaredExp:
        return "se";
    case GpKernel::Linear:
        return "linear";
    case GpKernel::NnErf:
        return "nn-erf";
    case GpKernel::NnRelu:
        return "nn-relu";
    }
    return "?";
}

std::optional<GpKernel> parseGpKernel(const std::string& name) {
    for (const GpKernel k : allGpKernels())
        if (gpKernelName(k) == name)
            return k;
    return std::nullopt;
}

std::vector<GpKernel> allGpKernels() {
    return {GpKernel::SquaredExp, GpKernel::Linear, GpKernel::NnErf, GpKernel::NnRelu};
}

std::string gpKernelChoices() {
    std::string text;
    for (const GpKernel k : allGpKernels())
        text += (text.empty() ? "" : ", ") + gpKernelName(k);
    return text;
}

Eigen::Index gpParamCount(GpKernel kernel, Eigen::Index inputs) {
    return kernel == GpKernel::SquaredExp ? inputs + 2 : kernel == GpKernel::Linear ? 2 : 5;
}

GpHyper defaultGpHyper(GpKernel kernel, Eigen::Index inputs) {
    GpHyper h{kernel, Vector(gpParamCount(kernel, inputs))};
    const double d = static_cast<double>(std::max<Eigen::Index>(inputs, 1));
    const double noise = 0.5 * std::log(0.1); // sigma_n^2 = 0.1 of a unit-variance target
    if (kernel == GpKernel::SquaredExp) {
        h.logParams.setConstant(0.5 * std::log(d)); // l = sqrt(D): |x - x'|^2 / l^2 about 2
        h.logParams(0) = 0.0;
    } else if (kernel == GpKernel::Linear) {
        h.logParams << 0.0, std::log(10.0);
        return h;
    } else {
        h.logParams << std::log(0.3), 0.0, 0.0, -0.5 * std::log(d), 0.0;
    }
    h.logParams(h.logParams.size() - 1) = noise;
    return h;
}

double gpNoiseVariance(const GpHyper& h) {
    const double last = h.logParams(h.logParams.size() - 1);
    return h.kernel == GpKernel::Linear ? std::exp(-last) : std::exp(2.0 * last);
}

void checkGpHyper(const GpHyper& h, Eigen::Index inputs) {
    if (h.logParams.size() != gpParamCount(h.kernel, inputs))
        throw std::invalid_argument(
            "the " + gpKernelName(h.kernel) + " kernel on " + std::to_string(inputs) +
            " inputs takes " + std::to_string(gpParamCount(h.kernel, inputs)) + " hyperparameters");
}

Matrix gpKernelMatrix(const GpHyper& h, const ConstMatrixRef& A, const ConstMatrixRef& B) {
    checkGpHyper(h, A.cols());
    const Vector& t = h.logParams;
    if (h.kernel == GpKernel::SquaredExp) { // §2.1, on inputs divided by their length scales
        const Vector inv = (-t.segment(1, A.cols())).array().exp();
        const Matrix a = A * inv.asDiagonal(), b = B * inv.asDiagonal();
        Matrix r2 = (-2.0 * a * b.transpose()).colwise() + a.rowwise().squaredNorm();
        r2.rowwise() += b.rowwise().squaredNorm().transpose();
        return std::exp(2.0 * t(0)) * (-0.5 * r2.array().max(0.0)).exp().matrix();
    }
    if (h.kernel == GpKernel::Linear) // §2.2: (a.b + 1) / alpha
        return ((A * B.transpose()).array() + 1.0).matrix() * std::exp(-t(0));
    const double vb = std::exp(2.0 * t(0)), vv = std::exp(2.0 * t(1));
    const double vb0 = std::exp(2.0 * t(2)), vw = std::exp(2.0 * t(3));
    const Vector s11 = (vw * A.rowwise().squaredNorm()).array() + vb0;
    const Vector s22 = (vw * B.rowwise().squaredNorm()).array() + vb0;
    Matrix K = vw * A * B.transpose();
    for (Eigen::Index j = 0; j < K.cols(); ++j)
        for (Eigen::Index i = 0; i < K.rows(); ++i)
            K(i, j) = vb + vv * networkTerm(h.kernel, K(i, j) + vb0, s11(i), s22(j), false).j;
    return K;
}

Vector gpKernelDiagonal(const GpHyper& h, const ConstMatrixRef& A) {
    checkGpHyper(h, A.cols());
    const Vector& t = h.logParams;
    if (h.kernel == GpKernel::SquaredExp)
        return Vector::Constant(A.rows(), std::exp(2.0 * t(0)));
    if (h.kernel == GpKernel::Linear)
        return (A.rowwise().squaredNorm().array() + 1.0).matrix() * std::exp(-t(0));
    const double vb = std::exp(2.0 * t(0)), vv = std::exp(2.0 * t(1));
    const double vb0 = std::exp(2.0 * t(2)), vw = std::exp(2.0 * t(3));
    Vector d(A.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        const double s = vb0 + vw * A.row(i).squaredNorm();
        d(i) = vb + vv * networkTerm(h.kernel, s, s, s, false).j;
    }
    return d;
}

Vector gpKernelGradient(const GpHyper& h, const ConstMatrixRef& X, const ConstMatrixRef& W) {
    checkGpHyper(h, X.cols());
    const Vector& t = h.logParams;
    Vector g = Vector::Zero(t.size() - 1);
    if (h.kernel == GpKernel::SquaredExp) {
        const Matrix M = W.cwiseProduct(gpKernelMatrix(h, X, X)); // W o K
        g(0) = M.sum();                                           // dK/dlog s_f = 2K
        const Vector rows = M.rowwise().sum();
        for (Eigen::Index d = 0; d < X.cols(); ++d) { // (1/2) sum_ij M_ij (x_id - x_jd)^2 / l_d^2
            const Vector u = X.col(d) * std::exp(-t(1 + d));
            g(1 + d) = u.cwiseAbs2().dot(rows) - u.dot(M * u);
        }
        return g;
    }
    if (h.kernel == GpKernel::Linear) {
        g(0) = -0.5 * W.cwiseProduct(gpKernelMatrix(h, X, X)).sum(); // dK/dlog alpha = -K
        return g;
    }
    const double vb = std::exp(2.0 * t(0)), vv = std::exp(2.0 * t(1));
    const double vb0 = std::exp(2.0 * t(2)), vw = std::exp(2.0 * t(3));
    const Matrix G = X * X.transpose();
    double sumW = 0.0, sumJ = 0.0, sumB0 = 0.0, sumW2 = 0.0;
    for (Eigen::Index j = 0; j < X.rows(); ++j)
        for (Eigen::Index i = 0; i < X.rows(); ++i) {
            const NetworkTerm n = networkTerm(h.kernel, vb0 + vw * G(i, j), vb0 + vw * G(i, i),
                                              vb0 + vw * G(j, j), true);
            const double w = W(i, j);
            sumW += w;
            sumJ += w * n.j;
            sumB0 += w * (n.d12 + n.d11 + n.d22);
            sumW2 += w * (n.d12 * G(i, j) + n.d11 * G(i, i) + n.d22 * G(j, j));
        }
    // (1/2) tr(W dK) with dK/dlog sigma = 2 sigma^2 dK/d(sigma^2) for each of the four
    g << vb * sumW, vv * sumJ, vv * vb0 * sumB0, vv * vw * sumW2;
    return g;
}

} // namespace fa
