#pragma once
// Online expectation-maximisation for FA (thesis Algorithm 2): each observation's E-step is
// computed once and folded into running sufficient statistics A, B, d^2. After warm-up
// F = A H^-1 with H = Sigma + B (K x K), so only A is stored and F is formed row by row.
#include "core/fa/OnlineFitter.h"

namespace fa {

class OnlineEM : public OnlineFitter {
  public:
    OnlineEM(Eigen::Index dim, const OnlineOptions& options);
    std::string name() const override { return "em"; }
    Matrix loadingRows(const std::vector<Eigen::Index>& rows) const override;

  protected:
    PassResult pass(const double* x) const override;
    const Matrix& currentLoadings() const override;

  private:
    /// Whether F is still the initial frame after `steps` finished M steps.
    bool frameFixed(long steps) const { return steps <= m_options.warmup; }

    Matrix m_F0;         // the initial frame: F during warm-up
    mutable Matrix m_A;  // running mean of d m^T, D x K
    mutable Vector m_d2; // running mean of d .* d
    mutable Matrix m_B;  // running mean of m m^T, K x K
    mutable Matrix m_H;  // Sigma + B of the pending M step
    mutable Matrix m_G;  // H^-1 of the last M step that moved F: F = A G
    mutable Matrix m_Gs; // m_G with its off-diagonal entries doubled (for rowsum(A G .* A))
    mutable Matrix m_Gp; // H^-1 of the pending M step
    mutable double m_w = 0.0;
    mutable Matrix m_F; // F = A G, formed on demand
    mutable long m_FStep = -1;
};

} // namespace fa
