#include "core/models/Mlp.h"

#include "core/math/ForkJoin.h"
#include "core/math/Rng.h"

#include <cmath>
#include <stdexcept>

namespace fa {

std::string activationName(Activation a) {
    return a == Activation::Tanh ? "tanh" : "relu";
}

Activation parseActivation(const std::string& name) {
    if (name == "relu")
        return Activation::Relu;
    if (name == "tanh")
        return Activation::Tanh;
    throw std::invalid_argument("unknown activation '" + name + "' (use relu or tanh)");
}

Eigen::Index MlpShape::parameterCount() const {
    Eigen::Index count = 0, in = inputs;
    for (const int h : hidden) {
        count += static_cast<Eigen::Index>(h) * in + h;
        in = h;
    }
    return count + in * outputs + outputs;
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

template <class Dst, class Lhs, class Rhs>
void Mlp::product(Dst&& dst, const Lhs& lhs, const Rhs& rhs) {
    if (m_float)
        splitProductFloat(m_fj, std::forward<Dst>(dst), lhs, rhs, m_floatBuffers);
    else
        splitProduct(m_fj, std::forward<Dst>(dst), lhs, rhs);
}

Mlp::Mlp(MlpShape shape) : m_shape(std::move(shape)) {
    if (m_shape.inputs < 1 || m_shape.outputs < 1)
        throw std::invalid_argument("a network needs at least one input and one output");
    for (const int h : m_shape.hidden)
        if (h < 1)
            throw std::invalid_argument("every hidden layer needs at least one unit");
}

const Matrix& Mlp::forward(const ConstVectorRef& theta, const ConstMatrixRef& in) {
    m_in = in;
    const std::size_t layers = m_shape.hidden.size();
    m_a.resize(layers);
    Eigen::Index offset = 0, fanIn = m_shape.inputs;
    const Matrix* prev = &m_in;
    for (std::size_t l = 0; l < layers; ++l) {
        const Eigen::Index out = m_shape.hidden[l];
        const Eigen::Map<const Matrix> W(theta.data() + offset, out, fanIn);
        const Eigen::Map<const Vector> b(theta.data() + offset + out * fanIn, out);
        Matrix& a = m_a[l];
        a.resize(out, prev->cols());
        const Matrix& from = *prev;
        const double work = double(out) * double(fanIn) * double(from.cols());
        product(a, W, from);
        splitRows(m_fj, out, work, [&](Eigen::Index first, Eigen::Index count) {
            auto rows = a.middleRows(first, count);
            rows.colwise() += b.segment(first, count);
            if (m_shape.activation == Activation::Relu)
                rows = rows.cwiseMax(0.0);
            else
                rows = rows.array().tanh().matrix();
        });
        prev = &a;
        offset += out * fanIn + out;
        fanIn = out;
    }
    const Eigen::Index outs = m_shape.outputs;
    const Eigen::Map<const Matrix> W(theta.data() + offset, outs, fanIn);
    const Eigen::Map<const Vector> b(theta.data() + offset + outs * fanIn, outs);
    m_out.resize(outs, prev->cols());
    product(m_out, W, *prev);
    m_out.colwise() += b;
    return m_out;
}

void Mlp::backward(const ConstVectorRef& theta, const ConstMatrixRef& dOut, Eigen::Ref<Vector> grad,
                   Matrix* dIn) {
    const std::size_t layers = m_shape.hidden.size();
    Eigen::Index offset = m_shape.parameterCount();
    Eigen::Index fanIn = layers == 0 ? m_shape.inputs : m_shape.hidden.back();
    const Eigen::Index outs = m_shape.outputs;
    offset -= outs * fanIn + outs;
    const Matrix& top = layers == 0 ? m_in : m_a.back();
    product(Eigen::Map<Matrix>(grad.data() + offset, outs, fanIn), dOut, top.transpose());
    Eigen::Map<Vector>(grad.data() + offset + outs * fanIn, outs) = dOut.rowwise().sum();
    const Eigen::Map<const Matrix> wOut(theta.data() + offset, outs, fanIn);
    if (layers == 0) {
        if (dIn)
            dIn->noalias() = wOut.transpose() * dOut;
        return;
    }
    Matrix& upstream = m_upstream; // d / d a_l, from the output layer down
    upstream.resize(fanIn, dOut.cols());
    product(upstream, wOut.transpose(), dOut);
    for (std::size_t l = layers; l-- > 0;) {
        const Eigen::Index out = m_shape.hidden[l];
        fanIn = l == 0 ? m_shape.inputs : m_shape.hidden[l - 1];
        offset -= out * fanIn + out;
        const Matrix& below = l == 0 ? m_in : m_a[l - 1];
        if (m_shape.activation == Activation::Relu) // d / d z_l
            m_next = upstream.cwiseProduct((m_a[l].array() > 0.0).cast<double>().matrix());
        else
            m_next = upstream.cwiseProduct((1.0 - m_a[l].array().square()).matrix());
        product(Eigen::Map<Matrix>(grad.data() + offset, out, fanIn), m_next, below.transpose());
        Eigen::Map<Vector>(grad.data() + offset + out * fanIn, out) = m_next.rowwise().sum();
        const Eigen::Map<const Matrix> W(theta.data() + offset, out, fanIn);
        if (l > 0) {
            m_swap.resize(fanIn, m_next.cols());
            product(m_swap, W.transpose(), m_next);
            upstream.swap(m_swap);
        } else if (dIn) {
            dIn->noalias() = W.transpose() * m_next;
        }
    }
}

Vector Mlp::initialWeights(const MlpShape& shape, std::uint64_t seed) {
    Rng rng(seed);
    Vector theta = Vector::Zero(shape.parameterCount());
    Eigen::Index offset = 0, in = shape.inputs;
    std::vector<int> outs = shape.hidden;
    outs.push_back(shape.outputs);
    for (const int out : outs) {
        for (Eigen::Index k = 0; k < out * in; ++k)
            theta(offset + k) = rng.normal() / std::sqrt(static_cast<double>(in));
        offset += out * in + out;
        in = out;
    }
    return theta;
}

} // namespace fa
