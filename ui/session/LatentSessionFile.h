#pragma once
// Latent-lab sessions as JSON ("mode": "latent"): the data set, model, methods, sizes, seed,
// view and how many iterations had run, so opening one replays the same curves. Strict reading
// with the controls' ranges, as SessionFile.
#include "core/latent/LatentLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

using LatentSession = LabSession<LatentLiveConfig, 20>;

QByteArray latentSessionToJson(const LatentSession& session);
/// Throws SessionError naming the first problem.
LatentSession latentSessionFromJson(const QByteArray& json);
using LatentSessionFiles = SessionFiles<LatentSession, latentSessionToJson, latentSessionFromJson>;

} // namespace fa::io
