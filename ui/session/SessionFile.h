#pragma once
// Explorer sessions as JSON: every parameter and seed of a run, the view, and how far it had
// run, so opening one reproduces the same curves exactly. Reading is strict: a malformed or
// incompatible file gives one clear message and no partial session.
#include "core/explorer/LiveExplorer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <stdexcept>

namespace fa::io {

struct Session {
    ExplorerConfig config;
    ViewOptions view;
    double speed = 0.0; ///< observations per second, 0 = as fast as possible
    long samples = 0;   ///< samples seen when saved; opening runs up to here
};

constexpr int kSessionVersion = 1;
constexpr const char* kSessionFormat = "faexplorer-session";

class SessionError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

QByteArray sessionToJson(const Session& session);
/// Throws SessionError naming the first problem (syntax, missing key, wrong type, refused value).
Session sessionFromJson(const QByteArray& json);

/// The checked top level of any session (format and version); throws SessionError.
QJsonObject sessionRoot(const QByteArray& json);
/// "explorer" or "posterior": which window mode a session file belongs to.
QString sessionMode(const QString& path);
/// A regular file of at most 1 MiB (a FIFO, device or folder is refused without waiting);
/// throws SessionError naming the path.
QByteArray readSessionFile(const QString& path);
/// Atomic write (temporary + rename); throws SessionError naming the path.
void writeSessionFile(const QString& path, const QByteArray& json);

/// A lab's session: its run's configuration, the speed (units per second, 0 = as fast as
/// possible) and the position, the units run when it was saved (opening replays up to there).
template <class Config, int DefaultSpeed> struct LabSession {
    Config config;
    double speed = DefaultSpeed;
    long position = 0;
};

/// A lab's session files from its pair of JSON functions: save() writes atomically (temporary
/// + rename), load() reads a regular file; both throw SessionError naming the path and the
/// problem. Each lab's header names them: NeuralSessionFiles::save, ...
template <class S, QByteArray (*ToJson)(const S&), S (*FromJson)(const QByteArray&)>
struct SessionFiles {
    using Session = S;
    static void save(const QString& path, const S& session) {
        writeSessionFile(path, ToJson(session));
    }
    static S load(const QString& path) {
        const QByteArray json = readSessionFile(path);
        try {
            return FromJson(json);
        } catch (const SessionError& e) {
            throw SessionError(QString("'%1': %2").arg(path, e.what()).toStdString());
        }
    }
};

/// The explorer's sessions.
using ExplorerSessionFiles = SessionFiles<Session, sessionToJson, sessionFromJson>;
inline constexpr auto saveSession = &ExplorerSessionFiles::save;
inline constexpr auto loadSession = &ExplorerSessionFiles::load;

} // namespace fa::io
