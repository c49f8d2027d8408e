#pragma once
// Neural-lab sessions as JSON ("mode": "neural"): the data set and split, the methods, the
// network and the fit's settings, the prior, noise and VIPPCA's σ, the seed, the speed and how
// many epochs had run, so opening one reproduces the same curves. Strict reading, as SessionFile.
#include "core/neural/NeuralLive.h"
#include "ui/session/SessionFile.h"

namespace fa::io {

using NeuralSession = LabSession<NeuralLiveConfig, 20>;

QByteArray neuralSessionToJson(const NeuralSession& session);
/// Throws SessionError naming the first problem.
NeuralSession neuralSessionFromJson(const QByteArray& json);
using NeuralSessionFiles = SessionFiles<NeuralSession, neuralSessionToJson, neuralSessionFromJson>;

} // namespace fa::io
