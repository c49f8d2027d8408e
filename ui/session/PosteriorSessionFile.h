#pragma once
// Posterior-lab sessions as JSON ("mode": "posterior"): data set, prior rule, approximations,
// their settings, the seed, every live SGD change with its epoch, the view and how many epochs
// had run, so opening one reproduces the same curves. Strict reading, as SessionFile.
#include "core/posterior/GpLesson.h"
#include "core/posterior/PosteriorLive.h"
#include "ui/session/SessionFile.h"

#include <array>

namespace fa::io {

/// The page's tabs, in order, as a session's "view.tab" names them.
inline constexpr std::array<const char*, 5> kPosteriorTabs{"live", "compare", "gradients", "bound",
                                                           "gp"};

/// The gradient panel's families, as "view.gradFamily" names them: the live fit's Gaussian, then
/// the families beyond it (docs/maths/posterior.md §4.7).
inline constexpr std::array<const char*, 4> kGradientFamilies{"gaussian", "gamma", "exponential",
                                                              "bernoulli"};

struct PosteriorSession : LabSession<PosteriorLiveConfig, 250> {
    int coordI = 0, coordJ = 1; ///< the view's plane
    int tab = 0;                ///< index into kPosteriorTabs
    GpLessonConfig gp;          ///< the GP tab's units, H and draw
    int gradFamily = 0;         ///< index into kGradientFamilies
};

QByteArray posteriorSessionToJson(const PosteriorSession& session);
/// Throws SessionError naming the first problem.
PosteriorSession posteriorSessionFromJson(const QByteArray& json);
using PosteriorSessionFiles =
    SessionFiles<PosteriorSession, posteriorSessionToJson, posteriorSessionFromJson>;

} // namespace fa::io
