#pragma once
// Online stochastic gradient ascent on log N(theta_t; running mean, F F^T + Psi)
// (thesis Algorithm 1), with psi = exp(beta).
#include "core/fa/OnlineFitter.h"

namespace fa {

class OnlineSGA : public OnlineFitter {
  public:
    OnlineSGA(Eigen::Index dim, const OnlineOptions& options);
    std::string name() const override { return "sga"; }
    /// Applies from the next observation on (the last one's step keeps the rate it had).
    void setLearningRate(double eta) override;

    /// Gradients of log N(x; mean, F F^T + Psi) w.r.t. F and beta = log psi (eqs. 4.24-4.26),
    /// for given d = x - mean. Exposed so tests can hold them against finite differences.
    static void gradients(const Matrix& F, const Vector& psi, const Vector& d, Matrix& gradF,
                          Vector& gradBeta);

  protected:
    PassResult pass(const double* x) const override;
    const Matrix& currentLoadings() const override { return m_F; }

  private:
    mutable Matrix m_F;
    mutable Vector m_beta;
    mutable Matrix m_M;   // Sigma + m m^T of the pending step
    mutable double m_eta; // the pending step's learning rate
};

} // namespace fa
