// libFuzzer target: the four session readers on arbitrary bytes. A session is either refused with
// SessionError (anything else is a finding) or accepted; an accepted session, written out
// again, must be accepted again with the same parameters (what a user saves, they can reopen).
#include "ui/session/LatentSessionFile.h"
#include "ui/session/NeuralSessionFile.h"
#include "ui/session/PosteriorSessionFile.h"
#include "ui/session/SessionFile.h"
#include "ui/session/VaeSessionFile.h"

#include <cstdint>
#include <cstdlib>

namespace {
void check(bool ok) {
    if (!ok)
        std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const fa::io::Session s = fa::io::sessionFromJson(json);
        const QByteArray again = fa::io::sessionToJson(s);
        check(fa::io::sessionToJson(fa::io::sessionFromJson(again)) == again);
    } catch (const fa::io::SessionError&) {
    }
    try {
        const fa::io::PosteriorSession s = fa::io::posteriorSessionFromJson(json);
        const QByteArray again = fa::io::posteriorSessionToJson(s);
        check(fa::io::posteriorSessionToJson(fa::io::posteriorSessionFromJson(again)) == again);
    } catch (const fa::io::SessionError&) {
    }
    try {
        const fa::io::LatentSession s = fa::io::latentSessionFromJson(json);
        const QByteArray again = fa::io::latentSessionToJson(s);
        check(fa::io::latentSessionToJson(fa::io::latentSessionFromJson(again)) == again);
    } catch (const fa::io::SessionError&) {
    }
    try {
        const fa::io::NeuralSession s = fa::io::neuralSessionFromJson(json);
        const QByteArray again = fa::io::neuralSessionToJson(s);
        check(fa::io::neuralSessionToJson(fa::io::neuralSessionFromJson(again)) == again);
    } catch (const fa::io::SessionError&) {
    }
    try {
        const fa::io::VaeSession s = fa::io::vaeSessionFromJson(json);
        const QByteArray again = fa::io::vaeSessionToJson(s);
        check(fa::io::vaeSessionToJson(fa::io::vaeSessionFromJson(again)) == again);
    } catch (const fa::io::SessionError&) {
    }
    return 0;
}
