#pragma once
// Online expectation-maximisation for FA (thesis Algorithm 2): each observation's E-step is
// computed once and folded into running sufficient statistics A, B, d^2.
#include "core/fa/OnlineFitter.h"

namespace fa {

class OnlineEM : public OnlineFitter {
  public:
    OnlineEM(Eigen::Index dim, const OnlineOptions& options);
    std::string name() const override { return "em"; }

  protected:
    void update(const Vector& d, bool warm) override;

  private:
    Matrix m_A;  // running mean of d m^T, D x K
    Matrix m_B;  // running mean of m m^T, K x K
    Vector m_d2; // running mean of d .* d
    Matrix m_H, m_Hinv;
    std::vector<double> m_work;
};

} // namespace fa
