#include "core/fa/GaussianFit.h"

namespace fa {

std::string statusName(FitStatus status) {
    switch (status) {
    case FitStatus::WarmUp:
        return "warm-up";
    case FitStatus::Running:
        return "running";
    case FitStatus::Diverged:
        return "diverged";
    case FitStatus::Skipped:
        return "skipped";
    case FitStatus::Failed:
        return "failed";
    case FitStatus::PsiFloor:
        return "at the psi floor";
    case FitStatus::NotConverged:
        return "not converged";
    }
    return "?";
}

std::string csvWord(FitStatus status) {
    switch (status) {
    case FitStatus::WarmUp:
        return "warmup";
    case FitStatus::Running:
        return "ok";
    case FitStatus::Diverged:
        return "diverged";
    case FitStatus::Skipped:
        return "skipped";
    case FitStatus::Failed:
        return "failed";
    case FitStatus::PsiFloor:
        return "psi-floor";
    case FitStatus::NotConverged:
        return "not-converged";
    }
    return "?";
}

} // namespace fa
