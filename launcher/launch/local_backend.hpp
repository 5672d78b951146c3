// Ranks as processes on this machine. Each rank is its own process group
// (so a terminal's Ctrl-C reaches the launcher, not the ranks, and a stop
// reaches anything a rank spawned) and, on Linux, dies with the launcher
// (PR_SET_PDEATHSIG), so no rank outlives it even after a SIGKILL.
// The ranks read the plan bytes recorded for the run (PreparedLaunch::planJson),
// written to a private folder for each attempt, never the user's plan file,
// which may have changed since the run was validated.
#pragma once

#include "status/qt_status.hpp"

#include "backend.hpp"
#include "events/line_splitter.hpp"

#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>
#include <vector>

namespace sb::launch {

class LocalBackend final : public Backend {
    Q_OBJECT
public:
    explicit LocalBackend(QObject* parent = nullptr);
    ~LocalBackend() override;

    void start(const PreparedLaunch& launch, const AttemptSpec& attempt) override;
    void terminate() override;
    void kill() override;

private:
    struct Rank {
        int rank = 0;
        QProcess* process = nullptr;
        qint64 pid = 0;
        protocol::LineSplitter out, err;
        bool running = false;
    };
    void signalAll(int sig);
    void onReadable(Rank& r, OutputStream stream);
    void onFinished(Rank& r, int code, QProcess::ExitStatus status);
    void onStartError(Rank& r);
    void maybeFinish();
    Result<QString> writePlanCopy(const PreparedLaunch& launch); // the plan.json beside its shipped files

    std::unique_ptr<QTemporaryDir> planDir_; // removed with the backend, after its ranks
    std::vector<std::unique_ptr<Rank>> ranks_;
    QTimer graceTimer_;
    QTimer deadlineTimer_;
    int graceMs_ = 2000;
    int deadlineMs_ = 5000;
    bool stopping_ = false;
    bool startBlocked_ = false; // a rank failed to start: start no more
    bool finished_ = false;
    bool started_ = false;
};

} // namespace sb::launch
