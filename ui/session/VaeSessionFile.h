#pragma once
// Nonlinear-FA lab sessions as JSON ("mode": "nonlinear"): the data set, methods, network,
// noise, optimiser, sizes, seed, views and how many epochs had run, so opening one replays the
// same curves. Strict reading with the controls' ranges, as SessionFile.
#include "core/vae/VaeLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

using VaeSession = LabSession<VaeLiveConfig, 10>;

QByteArray vaeSessionToJson(const VaeSession& session);
/// Throws SessionError naming the first problem.
VaeSession vaeSessionFromJson(const QByteArray& json);
using VaeSessionFiles = SessionFiles<VaeSession, vaeSessionToJson, vaeSessionFromJson>;

} // namespace fa::io
