#include "core/optim/Lbfgs.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <vector>

namespace fa {
namespace {

struct Pair {
    Vector s, y;
    double rho;
};

/// The two-loop recursion: -H g with H the L-BFGS inverse Hessian of the kept pairs, scaled by
/// s'y / y'y of the newest (a plain -g before any pair).
Vector searchDirection(const std::deque<Pair>& pairs, const Vector& g) {
    Vector q = g;
    std::vector<double> a(pairs.size());
    for (std::size_t k = pairs.size(); k-- > 0;) {
        a[k] = pairs[k].rho * pairs[k].s.dot(q);
        q -= a[k] * pairs[k].y;
    }
    if (!pairs.empty())
        q *= pairs.back().s.dot(pairs.back().y) / pairs.back().y.squaredNorm();
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const double b = pairs[k].rho * pairs[k].y.dot(q);
        q += (a[k] - b) * pairs[k].s;
    }
    return -q;
}

} // namespace

LbfgsResult minimiseLbfgs(const Objective& f, const Vector& x0, const LbfgsOptions& options) {
    LbfgsResult r;
    r.x = x0;
    Vector g(x0.size());
    r.value = f(r.x, g);
    r.evaluations = 1;
    if (!std::isfinite(r.value) || !g.allFinite())
        throw std::invalid_argument("L-BFGS: the objective is not finite at the start");
    std::deque<Pair> pairs;
    Vector gNew(x0.size());
    for (; r.iterations < options.iterations; ++r.iterations) {
        if (g.cwiseAbs().maxCoeff() < options.gradTol) {
            r.converged = true;
            return r;
        }
        Vector d = searchDirection(pairs, g);
        double slope = g.dot(d);
        if (!(slope < 0.0)) { // not a descent direction: forget the curvature, go downhill
            pairs.clear();
            d = -g;
            slope = -g.squaredNorm();
        }
        // The first step is at most 1 long in any coordinate; later ones try the full step.
        double step = pairs.empty() ? std::min(1.0, 1.0 / d.cwiseAbs().maxCoeff()) : 1.0;
        double value = 0.0;
        bool accepted = false;
        for (int halving = 0; halving < 40 && !accepted; ++halving, step *= 0.5) {
            value = f(r.x + step * d, gNew);
            ++r.evaluations;
            accepted =
                std::isfinite(value) && gNew.allFinite() && value <= r.value + 1e-4 * step * slope;
            if (accepted)
                break;
        }
        if (!accepted)
            return r; // no step lowers f: the best point found
        const Vector s = step * d, y = gNew - g;
        const double decrease = r.value - value;
        r.x += s;
        r.value = value;
        g = gNew;
        if (const double sy = s.dot(y); sy > 1e-12 * s.norm() * y.norm()) {
            pairs.push_back({s, y, 1.0 / sy});
            if (static_cast<int>(pairs.size()) > options.memory)
                pairs.pop_front();
        }
        if (decrease < options.valueTol * std::max(1.0, std::abs(r.value))) {
            r.converged = true;
            ++r.iterations;
            return r;
        }
    }
    return r;
}

} // namespace fa
