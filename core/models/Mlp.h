#pragma once
// A small multilayer perceptron (ReLU or tanh hidden layers, linear outputs) whose parameters
// are one flat vector theta: the network of the neural lab (as a regression Likelihood,
// core/neural/MlpLikelihood.h, the vector VIFA puts its FA posterior on) and of the nonlinear-FA
// lab (the decoder f(z; θ) and the VAE's encoder). Forward and backward passes run over a batch
// of columns with exact backpropagation, to the parameters and to the inputs. Sizes here are
// small (hundreds to a few thousand parameters), so plain Eigen is enough; no autodiff library
// is needed.
#include "core/math/ForkJoin.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fa {

enum class Activation { Relu, Tanh };
std::string activationName(Activation a); ///< "relu", "tanh"
/// Throws std::invalid_argument naming the choices.
Activation parseActivation(const std::string& name);

/// Layer sizes: inputs, the hidden widths, then the outputs.
struct MlpShape {
    int inputs = 1;
    std::vector<int> hidden{50};
    int outputs = 1;
    Activation activation = Activation::Relu;
    /// theta = [W_1 (h_1 x inputs, column-major), b_1, W_2, b_2, ..., W_out (outputs x h_L),
    /// b_out].
    Eigen::Index parameterCount() const;
    std::string name() const; ///< "50" or "50,50"; "linear" without a hidden layer
};

/// One network's passes and their work buffers (one object per thread). Examples are columns.
class Mlp {
  public:
    /// Throws std::invalid_argument for a size below 1.
    explicit Mlp(MlpShape shape);
    const MlpShape& shape() const { return m_shape; }

    /// The outputs (outputs x m) for inputs (inputs x m); keeps what backward needs.
    const Matrix& forward(const ConstVectorRef& theta, const ConstMatrixRef& in);
    /// After forward: given dJ/d(outputs) (outputs x m) of an objective J summed over the
    /// columns, writes dJ/dθ into grad (size parameterCount()) and, if dIn is given, dJ/d(inputs).
    void backward(const ConstVectorRef& theta, const ConstMatrixRef& dOut, Eigen::Ref<Vector> grad,
                  Matrix* dIn = nullptr);

    /// With fj, the large products of forward and backward are split over fj's two threads
    /// (core/math/ForkJoin.h: the numbers are those of one thread); nullptr: this thread only.
    void setForkJoin(ForkJoin* fj) { m_fj = fj; }
    /// Whether the large products run in single precision (splitProductFloat); default double.
    void setFloatProducts(bool on) { m_float = on; }

    /// A starting point: N(0, 1/fan_in) weights, zero biases, drawn from seed.
    static Vector initialWeights(const MlpShape& shape, std::uint64_t seed);

  private:
    MlpShape m_shape;
    Matrix m_in, m_out;
    std::vector<Matrix> m_a; ///< hidden activations
    Matrix m_upstream, m_next, m_swap;
    /// dst = lhs rhs by splitProduct, or splitProductFloat with setFloatProducts(true).
    template <class Dst, class Lhs, class Rhs>
    void product(Dst&& dst, const Lhs& lhs, const Rhs& rhs);

    ForkJoin* m_fj = nullptr;
    bool m_float = false;
    FloatProductBuffers m_floatBuffers;
};

} // namespace fa
