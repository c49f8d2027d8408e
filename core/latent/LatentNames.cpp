// The latent lab's names: methods, statuses and priors as the CLI, CSV files and sessions
// write them.
#include "core/lab/NameTable.h"
#include "core/latent/LatentFits.h"

#include <stdexcept>

namespace fa {
namespace {
constexpr Named<LatentMethod> kNames[] = {{LatentMethod::Em, "em"},
                                          {LatentMethod::Gibbs, "gibbs"},
                                          {LatentMethod::ClosedForm, "closed-form"},
                                          {LatentMethod::Svd, "svd"},
                                          {LatentMethod::OnlineEm, "online-em"},
                                          {LatentMethod::OnlineSga, "online-sga"}};
// "improper" after "jeffreys": the same prior (docs/maths/latent.md §2.5), written "jeffreys".
constexpr Named<FaPrior> kPriorNames[] = {{FaPrior::None, "none"},
                                          {FaPrior::Jeffreys, "jeffreys"},
                                          {FaPrior::Jeffreys, "improper"},
                                          {FaPrior::Conjugate, "conjugate"},
                                          {FaPrior::Independent, "independent"}};

} // namespace

std::string latentMethodName(LatentMethod method) {
    return nameIn(kNames, method);
}

std::optional<LatentMethod> parseLatentMethod(const std::string& name) {
    return valueIn(kNames, name);
}

std::vector<LatentMethod> allLatentMethods() {
    return valuesIn(kNames);
}

bool modelOffers(LatentModel model, LatentMethod method) {
    switch (model) {
    case LatentModel::Fa:
        return method != LatentMethod::ClosedForm;
    case LatentModel::Ppca:
        return method == LatentMethod::ClosedForm || method == LatentMethod::Em;
    case LatentModel::Mppca:
        return method == LatentMethod::Em;
    }
    return false;
}

std::string faPriorName(FaPrior prior) {
    return nameIn(kPriorNames, prior);
}

FaPrior parseFaPrior(const std::string& name) {
    return requireIn(kPriorNames, name, "prior");
}

bool methodTakesPrior(LatentMethod method, FaPrior prior) {
    if (method == LatentMethod::Em)
        return prior != FaPrior::Independent;
    return method == LatentMethod::Gibbs && prior != FaPrior::None;
}

FaPrior priorFor(LatentMethod method, FaPrior prior) {
    if (methodTakesPrior(method, prior))
        return prior;
    return method == LatentMethod::Gibbs ? FaPrior::Independent : FaPrior::None;
}

bool modelTakesPrior(LatentModel model, LatentMethod method, FaPrior prior) {
    switch (model) {
    case LatentModel::Fa:
        return methodTakesPrior(method, prior);
    case LatentModel::Ppca:
        return method == LatentMethod::Em &&
               (prior == FaPrior::None || prior == FaPrior::Independent);
    case LatentModel::Mppca:
        break;
    }
    return false;
}

void checkLatentRun(LatentModel model, const std::vector<LatentMethod>& methods, long iterations) {
    if (methods.empty())
        throw std::invalid_argument("choose at least one method");
    for (const LatentMethod m : methods)
        if (!modelOffers(model, m))
            throw std::invalid_argument("the model '" + latentModelName(model) +
                                        "' is not fitted by '" + latentMethodName(m) + "'");
    if (iterations < 1 || iterations > 10'000'000)
        throw std::invalid_argument("the iterations must lie between 1 and 10000000");
}

} // namespace fa
