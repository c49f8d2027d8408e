#include "core/neural/Mlp.h"

#include "core/math/Rng.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace fa {

Eigen::Index MlpShape::parameterCount() const {
    Eigen::Index count = 0, in = inputs;
    for (const int h : hidden) {
        count += static_cast<Eigen::Index>(h) * in + h;
        in = h;
    }
    return count + in + 1;
}

std::string MlpShape::name() const {
    std::string s;
    for (const int h : hidden) {
        if (!s.empty())
            s.push_back(',');
        s.append(std::to_string(h));
    }
    return s.empty() ? "linear" : s;
}

MlpLikelihood::MlpLikelihood(Matrix X, Vector y, MlpShape shape, double beta)
    : m_X(std::move(X)), m_y(std::move(y)), m_shape(std::move(shape)), m_beta(beta) {
    if (m_X.rows() != m_y.size() || m_X.rows() == 0)
        throw std::invalid_argument(
            "the inputs and targets must have the same, positive, row count");
    if (m_X.cols() != m_shape.inputs)
        throw std::invalid_argument("the network's input count does not match the data");
    for (const int h : m_shape.hidden)
        if (h < 1)
            throw std::invalid_argument("every hidden layer needs at least one unit");
    if (!(beta > 0.0))
        throw std::invalid_argument("the noise precision beta must be positive");
}

double MlpLikelihood::meanNegLogLik(const ConstVectorRef& theta,
                                    std::span<const Eigen::Index> batch,
                                    Eigen::Ref<Vector> grad) const {
    const auto m = static_cast<Eigen::Index>(batch.size());
    const std::size_t layers = m_shape.hidden.size();
    m_in.resize(m_shape.inputs, m); // activations are columns: one column per example
    for (Eigen::Index k = 0; k < m; ++k)
        m_in.col(k) = m_X.row(batch[static_cast<std::size_t>(k)]).transpose();
    m_z.resize(layers);
    m_a.resize(layers);
    // Forward.
    Eigen::Index offset = 0, in = m_shape.inputs;
    const Matrix* prev = &m_in;
    for (std::size_t l = 0; l < layers; ++l) {
        const Eigen::Index out = m_shape.hidden[l];
        const Eigen::Map<const Matrix> W(theta.data() + offset, out, in);
        const Eigen::Map<const Vector> b(theta.data() + offset + out * in, out);
        m_z[l].noalias() = W * *prev;
        m_z[l].colwise() += b;
        m_a[l] = m_z[l].cwiseMax(0.0);
        prev = &m_a[l];
        offset += out * in + out;
        in = out;
    }
    const Eigen::Map<const Matrix> wOut(theta.data() + offset, 1, in);
    const double bOut = theta(offset + in);
    m_f.noalias() = wOut * *prev;
    m_f.array() += bOut;
    const auto& f = m_f;
    double sq = 0.0;
    m_delta.resize(1, m); // d(mean NLL) / d f
    for (Eigen::Index k = 0; k < m; ++k) {
        const double r = f(k) - m_y(batch[static_cast<std::size_t>(k)]);
        sq += r * r;
        m_delta(0, k) = m_beta * r / static_cast<double>(m);
    }
    // Backward, from the output layer down.
    Eigen::Map<Matrix>(grad.data() + offset, 1, in).noalias() = m_delta * prev->transpose();
    grad(offset + in) = m_delta.sum();
    Matrix& upstream = m_upstream; // d / d a_l, from the output layer down
    upstream.noalias() = wOut.transpose() * m_delta;
    for (std::size_t l = layers; l-- > 0;) {
        const Eigen::Index out = m_shape.hidden[l];
        const Eigen::Index fanIn = l == 0 ? m_shape.inputs : m_shape.hidden[l - 1];
        offset -= out * fanIn + out;
        const Matrix& below = l == 0 ? m_in : m_a[l - 1];
        m_next = upstream.cwiseProduct((m_z[l].array() > 0.0).cast<double>().matrix()); // d / d z_l
        Eigen::Map<Matrix>(grad.data() + offset, out, fanIn).noalias() = m_next * below.transpose();
        Eigen::Map<Vector>(grad.data() + offset + out * fanIn, out) = m_next.rowwise().sum();
        if (l > 0) {
            const Eigen::Map<const Matrix> W(theta.data() + offset, out, fanIn);
            m_swap.noalias() = W.transpose() * m_next;
            upstream.swap(m_swap);
        }
    }
    return 0.5 * m_beta * sq / static_cast<double>(m) +
           0.5 * std::log(2.0 * std::numbers::pi / m_beta);
}

Vector MlpLikelihood::predict(const ConstVectorRef& theta, const ConstMatrixRef& X) const {
    Matrix a = X.transpose();
    Eigen::Index offset = 0, in = m_shape.inputs;
    for (const int out : m_shape.hidden) {
        const Eigen::Map<const Matrix> W(theta.data() + offset, out, in);
        const Eigen::Map<const Vector> b(theta.data() + offset + out * in, out);
        Matrix z = W * a;
        z.colwise() += b;
        a = z.cwiseMax(0.0);
        offset += out * in + out;
        in = out;
    }
    const Eigen::Map<const Matrix> wOut(theta.data() + offset, 1, in);
    Vector f = (wOut * a).transpose();
    f.array() += theta(offset + in);
    return f;
}

Vector MlpLikelihood::initialWeights(const MlpShape& shape, std::uint64_t seed) {
    Rng rng(seed);
    Vector theta = Vector::Zero(shape.parameterCount());
    Eigen::Index offset = 0, in = shape.inputs;
    std::vector<int> outs = shape.hidden;
    outs.push_back(1);
    for (const int out : outs) {
        for (Eigen::Index k = 0; k < out * in; ++k)
            theta(offset + k) = rng.normal() / std::sqrt(static_cast<double>(in));
        offset += out * in + out;
        in = out;
    }
    return theta;
}

} // namespace fa
