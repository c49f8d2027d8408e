#pragma once
// Neural-lab sessions as JSON ("mode": "neural"): the data set and split, the methods, the
// network and the fit's settings, the prior, noise and VIPPCA's σ, the seed, the speed and how
// many epochs had run, so opening one reproduces the same curves. Strict reading, as SessionFile.
#include "core/neural/NeuralLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

struct NeuralSession {
    NeuralLiveConfig config;
    double speed = 20.0; ///< epochs per second, 0 = as fast as possible
    long epochs = 0;     ///< epochs run when saved; opening runs up to here
};

QByteArray neuralSessionToJson(const NeuralSession& session);
/// Throws SessionError naming the first problem.
NeuralSession neuralSessionFromJson(const QByteArray& json);
using NeuralSessionFiles = SessionFiles<NeuralSession, neuralSessionToJson, neuralSessionFromJson>;
inline constexpr auto saveNeuralSession = &NeuralSessionFiles::save;
inline constexpr auto loadNeuralSession = &NeuralSessionFiles::load;

} // namespace fa::io
