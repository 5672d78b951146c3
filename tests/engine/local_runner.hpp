// Starts W processes of shardbench-core on this machine with the torchrun
// environment, collects their output and events, and fails fast: when one
// rank exits non-zero the others are killed.
#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

struct RankResult {
    int exitCode = -1;
    bool crashed = false;
    QString stdErr;
    std::vector<QJsonObject> events; // parsed "@sb" lines
    std::vector<QJsonObject> ofType(const QString& type) const;
};

struct RunResult {
    std::vector<RankResult> ranks;
    bool timedOut = false;
    qint64 ms = 0;
    bool ok() const;
    QString describe() const; // exit codes and the tail of each rank's stderr
};

class LocalRunner {
public:
    static QString corePath();
    static QString cliPath(); // shardbench-cli, beside the core
    // Runs `world` ranks; extra arguments go to every rank. A run whose
    // rendezvous port was taken before rank 0 bound it (freePort() closes the
    // port it found; the other ctest stream's connections may take it) is
    // started again on another port, at most twice: nothing has run by then.
    static RunResult run(int world, const QStringList& args, int timeoutMs = 120000,
                         const QProcessEnvironment& extraEnv = QProcessEnvironment());
    static int freePort();
    // True when a rank's stderr says its rendezvous server could not listen:
    // LibTorch 1.13 writes "Address already in use", 2.x "EADDRINUSE ...
    // address already in use".
    static bool rendezvousPortTaken(const QString& stdErr);
    // torchrun's variables for one rank (and SB_THREADS=1), rendezvous on 127.0.0.1:port.
    static QProcessEnvironment rankEnvironment(int rank, int world, int port);
    // Starts the ranks without waiting (for tests that kill them mid-run);
    // `program` instead of the core gets the same torchrun environment.
    static std::vector<std::unique_ptr<QProcess>> start(int world, const QStringList& args,
                                                        const QProcessEnvironment& extraEnv = QProcessEnvironment(),
                                                        const QString& program = QString());

private:
    static RunResult runOnce(int world, const QStringList& args, int timeoutMs, const QProcessEnvironment& extraEnv);
};
