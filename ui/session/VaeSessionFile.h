#pragma once
// Nonlinear-FA lab sessions as JSON ("mode": "nonlinear"): the data set, methods, network,
// noise, optimiser, sizes, seed, views and how many epochs had run, so opening one replays the
// same curves. Strict reading with the controls' ranges, as SessionFile.
#include "core/vae/VaeLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

struct VaeSession {
    VaeLiveConfig config; ///< seeds: data.modelSeed is the seed the page shows
    double speed = 10.0;  ///< epochs per second, 0 = as fast as possible
    long epochs = 0;      ///< epochs run when saved; opening runs up to here
};

QByteArray vaeSessionToJson(const VaeSession& session);
/// Throws SessionError naming the first problem.
VaeSession vaeSessionFromJson(const QByteArray& json);
using VaeSessionFiles = SessionFiles<VaeSession, vaeSessionToJson, vaeSessionFromJson>;
inline constexpr auto saveVaeSession = &VaeSessionFiles::save;
inline constexpr auto loadVaeSession = &VaeSessionFiles::load;

} // namespace fa::io
