#pragma once
// Posterior-lab sessions as JSON ("mode": "posterior"): data set, prior rule, approximations,
// their settings, the seed, every live SGD change with its epoch, the view and how many epochs
// had run, so opening one reproduces the same curves. Strict reading, as SessionFile.
#include "core/posterior/PosteriorLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

struct PosteriorSession : LabSession<PosteriorLiveConfig, 250> {
    int coordI = 0, coordJ = 1; ///< the view's plane
};

QByteArray posteriorSessionToJson(const PosteriorSession& session);
/// Throws SessionError naming the first problem.
PosteriorSession posteriorSessionFromJson(const QByteArray& json);
using PosteriorSessionFiles =
    SessionFiles<PosteriorSession, posteriorSessionToJson, posteriorSessionFromJson>;

} // namespace fa::io
