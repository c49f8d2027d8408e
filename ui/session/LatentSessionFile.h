#pragma once
// Latent-lab sessions as JSON ("mode": "latent"): the data set, model, methods, sizes, seed,
// view and how many iterations had run, so opening one replays the same curves. Strict reading
// with the controls' ranges, as SessionFile.
#include "core/latent/LatentLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

struct LatentSession {
    LatentLiveConfig config; ///< seeds: data.modelSeed is the seed the page shows
    double speed = 20.0;     ///< iterations per second, 0 = as fast as possible
    long iterations = 0;     ///< iterations run when saved; opening runs up to here
};

QByteArray latentSessionToJson(const LatentSession& session);
/// Throws SessionError naming the first problem.
LatentSession latentSessionFromJson(const QByteArray& json);
using LatentSessionFiles = SessionFiles<LatentSession, latentSessionToJson, latentSessionFromJson>;
inline constexpr auto saveLatentSession = &LatentSessionFiles::save;
inline constexpr auto loadLatentSession = &LatentSessionFiles::load;

} // namespace fa::io
