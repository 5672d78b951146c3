// What a detached run's directory holds against what the store holds, for
// the detach suites: every line of the directory must be stored exactly once.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QString>

#include <functional>

namespace sb::test {

// Polls `done` every 100 ms (processing events) until it holds or `timeoutMs` passes.
bool waitFor(const std::function<bool()>& done, int timeoutMs);
// Reads `p`'s stderr into `err` until it holds `text` (true), `p` ends or `timeoutMs` passes.
bool readStderrUntil(QProcess& p, QByteArray* err, const QByteArray& text, int timeoutMs);

QJsonObject readJsonFile(const QString& path);
QJsonObject stateOf(const QString& runDir);  // its state.json
QString statusOf(const QString& runDir);
bool isFinalStatus(const QString& status);
QList<QByteArray> linesOf(const QString& path);

// What the run directory holds, counted the way the store should hold it.
struct DirCounts {
    int steps = 0;          // step events, every rank and attempt
    int systemSamples = 0;  // system events, every rank and attempt
    int otherEvents = 0;    // every other event
    int supervisorLines = 0;
    int rank0LogLines = 0;
    int maxStep = 0;
};
DirCounts countDir(const QString& runDir);

struct StoreCounts {
    int steps = 0, distinctSteps = 0, events = 0, systemSamples = 0, supervisorLines = 0, rank0LogLines = 0, attempts = 0;
    QString status, reason;
};
StoreCounts countStore(const QString& db, qint64 runId);
QString runDirOf(const QString& db, qint64 runId);

// Every line of the run directory is in the store once: step rows, system samples, events,
// the supervisor's lines and rank 0's log. `extraSupervisorRows`: launcher
// rows the store holds beside them (a Slurm run's batch script).
void expectStoreMatchesDir(const QString& db, qint64 runId, const QString& runDir, int extraSupervisorRows = 0);

} // namespace sb::test
