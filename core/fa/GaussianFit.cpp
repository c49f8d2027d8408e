#include "core/fa/GaussianFit.h"

namespace fa {

namespace {

/// Each status as the status bar shows it and as a CSV's status cell writes it.
struct StatusWords {
    FitStatus status;
    const char *shown, *csv;
};
constexpr StatusWords kStatusWords[] = {
    {FitStatus::WarmUp, "warm-up", "warmup"},
    {FitStatus::Running, "ok", "ok"},
    {FitStatus::Diverged, "diverged", "diverged"},
    {FitStatus::Skipped, "skipped", "skipped"},
    {FitStatus::Failed, "failed", "failed"},
    {FitStatus::PsiFloor, "at the psi floor", "psi-floor"},
    {FitStatus::NotConverged, "not converged", "not-converged"},
};

const StatusWords* wordsOf(FitStatus status) {
    for (const StatusWords& w : kStatusWords)
        if (w.status == status)
            return &w;
    return nullptr;
}

} // namespace

std::string statusName(FitStatus status) {
    const StatusWords* w = wordsOf(status);
    return w ? w->shown : "?";
}

std::string csvWord(FitStatus status) {
    const StatusWords* w = wordsOf(status);
    return w ? w->csv : "?";
}

std::string statusNameOfCsvWord(const std::string& csv) {
    for (const StatusWords& w : kStatusWords)
        if (csv == w.csv)
            return w.shown;
    return csv;
}

} // namespace fa
