#pragma once
// Runs one of the built programs (the CLI, the window) as a test's child process and collects
// its exit code and output; a run that outlives its time is killed and reads as code -1.
#include <QDeadlineTimer>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <csignal>

namespace test {

struct ProgramResult {
    int code;
    QString out, err;
};

inline ProgramResult
runProgram(const QString& program, const QStringList& args, const QString& workingDir = {},
           int timeoutMs = 120000,
           const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timeout: it never ended"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// What interruptWhenSaid saw: whether the marker came while the program ran, and its result
/// after SIGINT (code -1: it did not end within the time given).
struct InterruptResult {
    bool said = false, runningAtSignal = false;
    ProgramResult result{-1, {}, {}};
};

/// Ctrl-C at a chosen moment: starts program, reads its stderr until it contains `marker` (or it
/// ends, or waitMs pass), then sends SIGINT and gives it endMs to end.
inline InterruptResult interruptWhenSaid(const QString& program, const QStringList& args,
                                         const QString& marker, int waitMs = 120000,
                                         int endMs = 60000) {
    InterruptResult r;
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted())
        return r;
    QString err;
    const QDeadlineTimer deadline(waitMs);
    while (!deadline.hasExpired() && p.state() == QProcess::Running && !err.contains(marker)) {
        p.waitForReadyRead(100);
        err += QString::fromUtf8(p.readAllStandardError());
    }
    r.said = err.contains(marker);
    r.runningAtSignal = p.state() == QProcess::Running;
    if (r.runningAtSignal)
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    if (!p.waitForFinished(endMs)) {
        p.kill();
        p.waitForFinished();
        r.result.err = err;
        return r;
    }
    r.result = {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                err + QString::fromUtf8(p.readAllStandardError())};
    return r;
}

} // namespace test
