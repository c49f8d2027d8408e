#include "core/math/SymmetricEigen.h"

#include <Eigen/Eigenvalues>

namespace fa {

SymmetricEigen symmetricEigen(const ConstMatrixRef& S, bool withVectors) {
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(S, withVectors ? Eigen::ComputeEigenvectors
                                                                   : Eigen::EigenvaluesOnly);
    SymmetricEigen out;
    out.values = eig.eigenvalues();
    if (withVectors)
        out.vectors = eig.eigenvectors();
    return out;
}

} // namespace fa
