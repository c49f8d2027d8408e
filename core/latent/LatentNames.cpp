// The latent lab's names: methods, statuses and priors as the CLI, CSV files and sessions
// write them.
#include "core/latent/LatentFits.h"

#include <stdexcept>

namespace fa {
namespace {
struct Name {
    LatentMethod method;
    const char* name;
};
constexpr Name kNames[] = {{LatentMethod::Em, "em"},
                           {LatentMethod::Gibbs, "gibbs"},
                           {LatentMethod::ClosedForm, "closed-form"},
                           {LatentMethod::Svd, "svd"},
                           {LatentMethod::OnlineEm, "online-em"},
                           {LatentMethod::OnlineSga, "online-sga"}};

} // namespace

std::string latentMethodName(LatentMethod method) {
    for (const Name& n : kNames)
        if (n.method == method)
            return n.name;
    return "?";
}

std::optional<LatentMethod> parseLatentMethod(const std::string& name) {
    for (const Name& n : kNames)
        if (name == n.name)
            return n.method;
    return std::nullopt;
}

std::vector<LatentMethod> allLatentMethods() {
    std::vector<LatentMethod> out;
    for (const Name& n : kNames)
        out.push_back(n.method);
    return out;
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
    switch (prior) {
    case FaPrior::None:
        return "none";
    case FaPrior::Jeffreys:
        return "jeffreys";
    case FaPrior::Conjugate:
        return "conjugate";
    }
    return "?";
}

FaPrior parseFaPrior(const std::string& name) {
    for (FaPrior p : {FaPrior::None, FaPrior::Jeffreys, FaPrior::Conjugate})
        if (name == faPriorName(p))
            return p;
    throw std::invalid_argument("unknown prior '" + name + "' (use none, jeffreys or conjugate)");
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
