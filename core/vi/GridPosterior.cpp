#include "core/vi/GridPosterior.h"

#include "core/math/ClaimInTurn.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace fa {

Eigen::Vector2d GridPosterior::centre(int i, int j) const {
    return box.lo + Eigen::Vector2d(i + 0.5, j + 0.5).cwiseProduct(step);
}

GridPosterior gridPosterior(const LogDensity2& logDensity, const GridBox& box) {
    if (box.cells < 8)
        throw std::invalid_argument("the grid needs at least 8 cells per axis");
    if (!(box.hi(0) > box.lo(0)) || !(box.hi(1) > box.lo(1)) ||
        !std::isfinite((box.hi - box.lo).sum()))
        throw std::invalid_argument("the grid's box is empty or not finite");
    GridPosterior p;
    p.box = box;
    const int G = box.cells;
    p.step = (box.hi - box.lo) / G;
    p.logDensity.resize(G, G);
    // Rows of cells in parallel (core/math/ClaimInTurn.h; one thread below 64 rows, where a
    // thread costs more): each row is written by one thread, so the result is the same for any
    // thread count.
    claimInTurn(G, G >= 64 ? 8u : 1u, [&](Eigen::Index i, unsigned) {
        for (int j = 0; j < G; ++j)
            p.logDensity(i, j) = logDensity(p.centre(static_cast<int>(i), j));
    });

    double top = -INFINITY;
    for (Eigen::Index k = 0; k < p.logDensity.size(); ++k)
        if (std::isfinite(p.logDensity.data()[k]))
            top = std::max(top, p.logDensity.data()[k]);
    if (!std::isfinite(top))
        throw std::invalid_argument("the posterior density is nowhere finite on the grid");
    p.mass = (p.logDensity.array() - top).exp();
    for (Eigen::Index k = 0; k < p.mass.size(); ++k)
        if (!std::isfinite(p.mass.data()[k]))
            p.mass.data()[k] = 0.0; // -inf or NaN log density: no mass
    const double sum = p.mass.sum();
    p.mass /= sum;
    p.logZ = top + std::log(sum) + std::log(p.cellArea());

    p.mean.setZero();
    for (int i = 0; i < G; ++i)
        for (int j = 0; j < G; ++j)
            p.mean += p.mass(i, j) * p.centre(i, j);
    p.cov.setZero();
    for (int i = 0; i < G; ++i)
        for (int j = 0; j < G; ++j) {
            const Eigen::Vector2d d = p.centre(i, j) - p.mean;
            p.cov += p.mass(i, j) * d * d.transpose();
        }
    p.ringMass = p.mass.row(0).sum() + p.mass.row(G - 1).sum() +
                 p.mass.col(0).segment(1, G - 2).sum() + p.mass.col(G - 1).segment(1, G - 2).sum();

    // HPD thresholds: cell masses in decreasing order, accumulated.
    std::vector<double> sorted(p.mass.data(), p.mass.data() + p.mass.size());
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    double cumulative = 0.0;
    std::size_t level = 0;
    for (std::size_t k = 0; k < sorted.size() && level < kHpdMasses.size(); ++k) {
        cumulative += sorted[k];
        while (level < kHpdMasses.size() && cumulative >= kHpdMasses[level])
            p.hpdDensity[level++] = sorted[k] / p.cellArea();
    }
    return p;
}

GridBox boxAround(const Eigen::Vector2d& mean, const Eigen::Matrix2d& cov, double halfWidth,
                  int cells) {
    const Eigen::Vector2d sd = cov.diagonal().cwiseMax(0.0).cwiseSqrt();
    return {mean - halfWidth * sd, mean + halfWidth * sd, cells};
}

namespace {

GridBox zeroOnCellEdge(GridBox box) {
    for (int a = 0; a < 2; ++a) {
        const double h = (box.hi(a) - box.lo(a)) / box.cells;
        const double shift = box.lo(a) - h * std::floor(box.lo(a) / h); // in [0, h)
        box.lo(a) -= shift;
        box.hi(a) -= shift;
    }
    return box;
}

} // namespace

GridPosterior adaptiveGridPosterior(const LogDensity2& logDensity, GridBox box,
                                    double ringTolerance, bool zeroOnEdge) {
    for (int round = 0;; ++round) {
        if (zeroOnEdge)
            box = zeroOnCellEdge(box);
        GridPosterior p = gridPosterior(logDensity, box);
        if (p.ringMass < ringTolerance || round == 8)
            return p;
        const Eigen::Vector2d mid = 0.5 * (box.lo + box.hi), half = 0.75 * (box.hi - box.lo);
        box.lo = mid - half;
        box.hi = mid + half;
    }
}

double klByQuadrature(const GridPosterior& p, const Eigen::Vector2d& mean,
                      const Eigen::Matrix2d& cov, double* qMass) {
    const Eigen::LLT<Eigen::Matrix2d> llt(cov);
    if (llt.info() != Eigen::Success)
        return INFINITY;
    const Eigen::Matrix2d L = llt.matrixL();
    const double logNorm = -kLog2Pi - std::log(L(0, 0) * L(1, 1));
    const double dA = p.cellArea();
    double kl = 0.0, total = 0.0;
    const int G = p.box.cells;
    for (int i = 0; i < G; ++i)
        for (int j = 0; j < G; ++j) {
            const Eigen::Vector2d z = L.triangularView<Eigen::Lower>().solve(p.centre(i, j) - mean);
            const double logQ = logNorm - 0.5 * z.squaredNorm();
            const double q = std::exp(logQ) * dA;
            if (q == 0.0)
                continue;
            total += q;
            kl += q * (logQ - (p.logDensity(i, j) - p.logZ));
        }
    if (qMass)
        *qMass = total;
    return kl;
}

} // namespace fa

namespace fa {
namespace {

// An edge point between two neighbouring cell centres: horizontal edges (i, j)-(i+1, j) have
// id 2 (i G + j), vertical ones (i, j)-(i, j+1) id 2 (i G + j) + 1.
struct EdgePoints {
    const GridPosterior& p;
    const Matrix& v;
    double level;
    int G;
    long id(int i, int j, bool vertical) const { return 2L * (long(i) * G + j) + vertical; }
    Eigen::Vector2d at(long id) const {
        const bool vertical = id & 1;
        const int i = int((id / 2) / G), j = int((id / 2) % G);
        const int i2 = vertical ? i : i + 1, j2 = vertical ? j + 1 : j;
        const double a = v(i, j), b = v(i2, j2), t = (level - a) / (b - a);
        return p.centre(i, j) + t * (p.centre(i2, j2) - p.centre(i, j));
    }
};

using Segment = std::pair<long, long>; // two edge points

/// Marching squares: the segments of the level between edge points, cell by cell; each edge point
/// joins at most two.
std::vector<Segment> contourSegments(const EdgePoints& e) {
    const Matrix& v = e.v;
    const double density = e.level;
    const int G = e.G;
    std::vector<Segment> segments;
    for (int i = 0; i + 1 < G; ++i)
        for (int j = 0; j + 1 < G; ++j) {
            // corners counter-clockwise: (i,j), (i+1,j), (i+1,j+1), (i,j+1)
            const bool c0 = v(i, j) > density, c1 = v(i + 1, j) > density,
                       c2 = v(i + 1, j + 1) > density, c3 = v(i, j + 1) > density;
            const int code = c0 | c1 << 1 | c2 << 2 | c3 << 3;
            if (code == 0 || code == 15)
                continue;
            const long bottom = e.id(i, j, false), right = e.id(i + 1, j, true),
                       top = e.id(i, j + 1, false), left = e.id(i, j, true);
            const double centre = 0.25 * (v(i, j) + v(i + 1, j) + v(i + 1, j + 1) + v(i, j + 1));
            switch (code) {
            case 1:
            case 14:
                segments.push_back({left, bottom});
                break;
            case 2:
            case 13:
                segments.push_back({bottom, right});
                break;
            case 3:
            case 12:
                segments.push_back({left, right});
                break;
            case 4:
            case 11:
                segments.push_back({right, top});
                break;
            case 6:
            case 9:
                segments.push_back({bottom, top});
                break;
            case 7:
            case 8:
                segments.push_back({left, top});
                break;
            case 5: // corners 0 and 2 above: joined through the centre or not
                if (centre > density)
                    segments.push_back({left, top}), segments.push_back({bottom, right});
                else
                    segments.push_back({left, bottom}), segments.push_back({right, top});
                break;
            case 10: // corners 1 and 3 above
                if (centre > density)
                    segments.push_back({left, bottom}), segments.push_back({right, top});
                else
                    segments.push_back({left, top}), segments.push_back({bottom, right});
                break;
            default:
                break;
            }
        }
    return segments;
}

/// Joins segments into polylines through shared edge points.
std::vector<Polyline2> joinSegments(const std::vector<Segment>& segments, const EdgePoints& e) {
    std::unordered_map<long, std::vector<std::size_t>> at;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        at[segments[k].first].push_back(k);
        at[segments[k].second].push_back(k);
    }
    std::vector<bool> used(segments.size(), false);
    std::vector<Polyline2> lines;
    const auto walk = [&](long point, std::vector<long>& out) {
        for (;;) {
            std::size_t next = segments.size();
            for (const std::size_t k : at[point])
                if (!used[k])
                    next = k;
            if (next == segments.size())
                return;
            used[next] = true;
            point = segments[next].first == point ? segments[next].second : segments[next].first;
            out.push_back(point);
        }
    };
    for (std::size_t k = 0; k < segments.size(); ++k) {
        if (used[k])
            continue;
        used[k] = true;
        std::vector<long> forward{segments[k].first, segments[k].second}, backward;
        walk(forward.back(), forward);
        walk(forward.front(), backward);
        Polyline2 line;
        for (auto it = backward.rbegin(); it != backward.rend(); ++it)
            line.push_back(e.at(*it));
        for (const long id : forward)
            line.push_back(e.at(id));
        lines.push_back(std::move(line));
    }
    return lines;
}

} // namespace

std::vector<Polyline2> contourLines(const GridPosterior& p, double density) {
    const Matrix v = p.mass / p.cellArea();
    const EdgePoints e{p, v, density, p.box.cells};
    return joinSegments(contourSegments(e), e);
}

} // namespace fa
