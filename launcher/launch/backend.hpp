// Where ranks run. A backend starts one shardbench-core process per rank
// for one attempt, reports their output line by line and their exits, and
// stops them all on request. Supervision decisions (who failed first,
// restarts) belong to RunSupervisor, not to backends.
#pragma once

#include "prepared_launch.hpp"

#include <QByteArray>
#include <QObject>
#include <QString>

namespace sb::launch {

enum class OutputStream { Stdout, Stderr };

struct RankExit {
    enum Kind {
        Exited,      // code is the exit status
        Signaled,    // code is the signal number
        Lost,        // its host connection dropped or it never confirmed stopping
        NotStarted   // could not be started (code unused)
    };
    int rank = -1;
    Kind kind = Exited;
    int code = 0;
    QString detail;  // for Lost and NotStarted, or extra context
    bool stoppedByLauncher = false; // the signal came from our own stop
    bool success() const { return kind == Exited && code == 0; }
};

QString signalName(int sig);         // "SIGKILL"
QString describeExit(const RankExit& e); // "exited with code 1", "was killed by signal 9 (SIGKILL)"

// What an SSH backend learnt about a host (nothing secret).
struct HostInfo {
    int hostIndex = 0;
    QString name;            // as the user wrote it
    QString hostname;        // after ~/.ssh/config
    QString user;
    int port = 22;
    QString keyFingerprint;  // "ssh-ed25519 SHA256:..."
};

class Backend : public QObject {
    Q_OBJECT
public:
    explicit Backend(QObject* parent = nullptr) : QObject(parent) {}

    // Starts every rank of the attempt. Results arrive as signals; finished()
    // always follows, exactly once, after every started rank has exited.
    virtual void start(const PreparedLaunch& launch, const AttemptSpec& attempt) = 0;
    // Stops every rank: SIGTERM (or the remote equivalent), SIGKILL after
    // the grace; finished() within the stop deadline.
    virtual void terminate() = 0;
    // Like terminate() without the grace.
    virtual void kill() = 0;

Q_SIGNALS:
    void progress(const QString& message);
    void hostReady(const sb::launch::HostInfo& info);
    // Before any rank starts: the rendezvous point chosen for this attempt.
    void ranksStarting(const QString& masterAddr, int masterPort);
    // Nothing could be started (bad host, authentication, ...); finished() follows.
    void launchFailed(const QString& message, int hostIndex);
    void rankStarted(int rank, qint64 pid);
    void rankOutput(int rank, sb::launch::OutputStream stream, const QByteArray& line, bool truncated);
    void rankExited(const sb::launch::RankExit& exit);
    void finished();
};

} // namespace sb::launch

Q_DECLARE_METATYPE(sb::launch::RankExit)
Q_DECLARE_METATYPE(sb::launch::HostInfo)
Q_DECLARE_METATYPE(sb::launch::OutputStream)
