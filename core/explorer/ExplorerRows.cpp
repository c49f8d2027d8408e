// A live run's snapshot as other readers take it: fa-sweep rows (so the window's CSV export
// matches the CLI's columns), the generic lab snapshot with a status line, and a fit's views.
#include "core/explorer/LiveExplorer.h"

#include <algorithm>
#include <limits>

namespace fa {

ModelView fitterView(const OnlineFitter& f, const ViewOptions& view) {
    ModelView v;
    v.name = f.name();
    v.valid = f.status() != FitStatus::Diverged;
    if (!v.valid)
        return v;
    // A few rows of the fit (the leading block, then the 2D pair): online EM forms just those
    // rows of F = A G, so a view costs O(rows K^2) at any D.
    const Eigen::Index block = std::min<Eigen::Index>(view.blockSize, f.mean().size());
    std::vector<Eigen::Index> rows(static_cast<std::size_t>(block));
    for (Eigen::Index r = 0; r < block; ++r)
        rows[static_cast<std::size_t>(r)] = r;
    rows.push_back(view.coordI);
    rows.push_back(view.coordJ);
    const Matrix F = f.loadingRows(rows);
    const Vector c = f.mean()(rows), psi = f.psi()(rows);
    v.marginal = marginal2(c, F, psi, block, block + 1);
    v.block = covarianceBlock(F.topRows(block), psi.head(block), block);
    return v;
}

std::vector<FaSweepRow> sweepRows(const ExplorerSnapshot& snapshot, const ExplorerConfig& config) {
    const GeneratorSpec& g = config.generator;
    auto row = [&](const std::string& algorithm, long samples) {
        return makeSweepRow(g, samples, 0, algorithm);
    };
    std::vector<FaSweepRow> rows;
    for (const auto& t : snapshot.traces) {
        for (const auto& p : t.points) {
            FaSweepRow r = row(t.name, p.samples);
            r.relCovDist = p.relCovDist;
            r.w2OverDim = p.w2OverDim;
            r.w2 = p.w2OverDim * g.dim;
            r.relMeanDist = p.relMeanDist;
            r.seconds = p.seconds;
            r.status = csvWord(FitStatus::Running);
            rows.push_back(r);
        }
        if (t.status == FitStatus::Diverged) {
            FaSweepRow r = row(t.name, t.divergedAt);
            r.seconds = std::numeric_limits<double>::quiet_NaN();
            r.status = csvWord(FitStatus::Diverged);
            rows.push_back(r);
        }
    }
    auto rank = [](const std::string& a) { return a == "batch" ? 0 : a == "em" ? 1 : 2; };
    std::stable_sort(rows.begin(), rows.end(), [&](const FaSweepRow& a, const FaSweepRow& b) {
        return a.samples != b.samples ? a.samples < b.samples
                                      : rank(a.algorithm) < rank(b.algorithm);
    });
    return rows;
}

std::shared_ptr<const LabSnapshot> LiveExplorer::labSnapshot() const {
    auto snap = std::make_shared<ExplorerSnapshot>(snapshot());
    snap->position = snap->samples;
    snap->length = snap->totalSamples;
    std::string status;
    for (const AlgorithmTrace& t : snap->traces) {
        if (t.name == "batch") {
            if (snap->batchPending)
                status += (status.empty() ? "" : "   ") + std::string("batch: refitting…");
            continue;
        }
        std::string state = statusName(t.status);
        if (t.status == FitStatus::Diverged)
            state += " at t = " + std::to_string(t.divergedAt);
        status +=
            (status.empty() ? "" : "   ") + std::string(t.name == "em" ? "EM: " : "SGA: ") + state;
    }
    snap->status = status;
    return snap;
}

} // namespace fa
