#pragma once
// Runs one of the built programs (the CLI, the window) as a test's child process and collects
// its exit code and output; a run that outlives its time is killed and reads as code -1.
#include <QProcess>
#include <QString>
#include <QStringList>

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

} // namespace test
