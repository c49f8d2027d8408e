#include "core/neural/IterateTrajectory.h"

#include "core/math/SymmetricEigen.h"

#include <algorithm>
#include <stdexcept>

namespace fa {
namespace {

/// Makes v orthogonal to the first `done` columns of U and unit length; false if little is left.
bool orthonormalise(Matrix& U, Eigen::Index done, Vector v) {
    for (Eigen::Index j = 0; j < done; ++j)
        v -= U.col(j).dot(v) * U.col(j);
    const double n = v.norm();
    if (!(n > 1e-8))
        return false;
    Eigen::Index big = 0;
    v.cwiseAbs().maxCoeff(&big);
    U.col(done) = (v(big) < 0 ? -1.0 : 1.0) / n * v;
    return true;
}

/// U^T A U for A = F F^T + diag(psi), without forming A.
Eigen::Matrix2d projected(const Matrix& U, const Matrix& F, const Vector& psi) {
    const Matrix UF = U.transpose() * F;
    Eigen::Matrix2d out = UF * UF.transpose();
    out += U.transpose() * psi.asDiagonal() * U;
    return out;
}

} // namespace

Matrix leadingDirections(const FAModel& q) {
    const Eigen::Index d = q.c.size();
    if (d < 2)
        throw std::invalid_argument("a plane needs at least two weights");
    Matrix U = Matrix::Zero(d, 2);
    Eigen::Index done = 0;
    if (q.F.cols() > 0) {
        // F F^T's eigenvectors are F v / sqrt(lambda) for the eigenpairs of the K x K F^T F.
        const SymmetricEigen eig = symmetricEigen(q.F.transpose() * q.F);
        const Eigen::Index k = q.F.cols();
        const double top = eig.values(k - 1);
        for (Eigen::Index i = k - 1; i >= 0 && done < 2; --i) {
            const double lambda = eig.values(i);
            if (!(lambda > 1e-12 * top) || !(lambda > 0))
                break;
            done += orthonormalise(U, done, q.F * eig.vectors.col(i)) ? 1 : 0;
        }
    }
    // Too few shared directions: the coordinates of largest psi (then of any), in turn.
    std::vector<Eigen::Index> order(static_cast<std::size_t>(d));
    for (Eigen::Index i = 0; i < d; ++i)
        order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
        return q.psi.size() == d && q.psi(a) > q.psi(b);
    });
    for (std::size_t i = 0; done < 2 && i < order.size(); ++i)
        done += orthonormalise(U, done, Vector::Unit(d, order[i])) ? 1 : 0;
    return U;
}

IterateTrajectory::IterateTrajectory(Eigen::Index dim, int rank, int capacity)
    : m_swag(dim, rank), m_kept(dim, std::max(capacity, 2)) {}

void IterateTrajectory::observe(const ConstVectorRef& theta) {
    m_swag.observe(theta);
    const long index = m_count++;
    if (index % m_stride != 0)
        return;
    if (m_size == m_kept.cols()) { // full: keep every second one, at twice the stride
        Eigen::Index kept = 0;
        for (Eigen::Index j = 0; j < m_size; j += 2)
            m_kept.col(kept++) = m_kept.col(j);
        m_size = kept;
        m_stride *= 2;
        if (index % m_stride != 0)
            return;
    }
    m_kept.col(m_size++) = theta;
}

TrajectoryPlane IterateTrajectory::plane(const FAModel& q) const {
    TrajectoryPlane p;
    p.collected = m_count;
    p.directions = leadingDirections(q);
    const Matrix& U = p.directions;
    // U^T (theta - c) for each kept theta, without a D x kept copy of the record.
    p.points = kept().transpose() * U;
    p.points.rowwise() -= (q.c.transpose() * U).eval();
    p.fit = projected(U, q.F, q.psi);
    if (m_count > 0) {
        p.swag = projected(U, m_swag.loadings(), m_swag.psi());
        p.swagMean = U.transpose() * (m_swag.mean() - q.c);
    } else {
        p.swag.setZero();
        p.swagMean.setZero();
    }
    return p;
}

int IterateTrajectory::defaultCapacity(Eigen::Index dim) {
    const Eigen::Index fit = 4'000'000 / std::max<Eigen::Index>(dim, 1);
    return static_cast<int>(std::clamp<Eigen::Index>(fit, 8, 400));
}

} // namespace fa
