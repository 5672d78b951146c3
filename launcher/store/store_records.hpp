// Rows of the run store as plain structs, shared by the writer and readers.
// Nothing here ever holds a password or a private key: hosts are stored by
// name, address, user, port and the public key fingerprint only.
#pragma once

#include "events/core_event.hpp"
#include "run_status.hpp"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

namespace sb::store {

inline constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();

struct NewRun {
    QString uid;            // globally unique, also passed to the core as --run-id
    QString name;
    QString planJson;
    QString backend;        // local | ssh | slurm
    QStringList hosts;      // "alias slots=N" per host
    int worldSize = 0;
    int maxRestarts = 0;
    std::optional<qint64> parentRun;
    QString resumedFrom;    // checkpoint directory the first attempt resumes from
    QString initFrom;       // weights every rank starts from when it resumes no checkpoint (--init-from)
    QString engine;         // "" = shardbench-core, "pytorch" (launch/run_config.hpp)
    QString script;         // pytorch: the user's script, "" = the plan's exported one
    QStringList scriptArgs; // pytorch: the script's arguments
    QString python;         // pytorch: the interpreter the ranks ran
    double createdAt = 0;
    QString launcherHost;   // the machine and process supervising the run
    qint64 launcherPid = -1;
    QString runDir;         // detached: the run directory on the cluster
    QString attachJson;     // detached: how a client reaches it (launch/detach/attach_target.hpp)
};

// Fields left empty are not changed.
struct RunUpdate {
    qint64 runId = -1;
    std::optional<RunStatus> status;
    std::optional<double> startedAt, endedAt;
    std::optional<QString> reason;  // English; setting it also sets (or clears) the code below
    QString reasonCode;             // a failure catalogue code name, "" for text only
    QStringList reasonArgs;         // the code's arguments, %1.. in order
    std::optional<int> failingRank;
    std::optional<QString> failingHost;
    std::optional<int> restarts;
    std::optional<int> stepsDone;
    std::optional<double> finalLoss;
    std::optional<qint64> malformedLines;
    std::optional<QStringList> hosts; // once known (the nodes Slurm allocated)
    std::optional<QString> attachJson; // detached: once the supervisor's process is known
    // A person's words on the run (the workbench's Rename, Tags, Notes).
    std::optional<QString> name;
    std::optional<QStringList> tags;
    std::optional<QString> notes;
};

// Removes a run and everything recorded about it (metrics, events, logs,
// attempts, checkpoint records); files on disk are not touched.
struct DeleteRun {
    qint64 runId = -1;
};

struct AttemptRecord {
    qint64 runId = -1;
    int attempt = 0;
    double startedAt = kNoTime;
    double endedAt = kNoTime;
    QString status;
    QString reason;       // English
    QString reasonCode;   // a failure catalogue code name, "" for text only
    QStringList reasonArgs;
    int failingRank = -1;
    QString resumeDir;
};

struct MetricRow {
    qint64 runId = -1;
    protocol::StepMetrics m;
};

struct EventRecord {
    qint64 runId = -1;
    int attempt = 0;
    int rank = -1;
    double t = 0;
    QString type;
    QByteArray json;
    QString src;       // ingested from a run directory: "FILE:OFFSET", the row's key
};

enum class LogStream : char { Stdout = 'o', Stderr = 'e', Launcher = 'l' };

struct LogRecord {
    qint64 runId = -1;
    int attempt = 0;
    int rank = -1;     // -1: the launcher itself
    double t = 0;
    LogStream stream = LogStream::Stderr;
    QString line;
    QString src;       // as EventRecord::src
};

struct CheckpointRecord {
    qint64 runId = -1;
    int attempt = 0;
    int rank = -1;
    int step = 0;
    QString path;
    QString host;
    int worldSize = 0;
    qint64 bytes = -1;
    QString checksum;
    QString kind;
    QString status;
    QString message;
    double ms = kNoTime;
    double t = 0;
    QString src;       // as EventRecord::src
};

// How far a client has ingested one file of a detached run's directory.
struct IngestOffset {
    qint64 runId = -1;
    QString file;      // relative to the run directory
    qint64 offset = 0; // the byte after the last line stored
};

struct HostRecord {
    QString name;           // as the user wrote it (alias)
    QString hostname;       // resolved through ~/.ssh/config
    QString user;
    int port = 22;
    int slots = 0;
    QString keyFingerprint; // SHA256:... of the public host key
    double lastUsed = 0;
};

} // namespace sb::store
