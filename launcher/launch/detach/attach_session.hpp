// A client attached to a detached run: follows its run directory through one
// stream (a local process or one SSH channel to the head node), ingests into
// the store, notices a silent link (no record for `silenceMs`: the follower
// sends one at least every 2 s) and reconnects with back-off, resuming from
// the offsets already stored. Detaching never touches the run.
#pragma once

#include "attach_target.hpp"
#include "follow_stream.hpp"
#include "run_ingestor.hpp"

#include "store/run_reader.hpp"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

namespace sb::launch {

// Rank sets: "all", "none", "rank0" or "0,5,17" (checkRankSet()).
struct AttachOptions {
    bool follow = true;                      // false: catch up, then finish
    QString logs = QStringLiteral("rank0");  // whose logs: live while following, and at catch-up
    QString events = QStringLiteral("all");  // whose events files
    // Whose step events come as they are written; the other ranks' come in
    // the catch-up when the run ends (or at the next attach), their other
    // events (hello, plan, checkpoint, error, done) live.
    QString liveSteps = QStringLiteral("rank0");
    int wire = 2;                            // 1: JSON records, as followers before wire 2 send (comparisons)
    int silenceMs = 10000;                   // a link silent this long is declared lost
    int firstRetryMs = 1000;
    int maxRetryMs = 30000;
};

class AttachSession final : public QObject {
    Q_OBJECT
public:
    // `offsets` and `storedLogLines` come from the store (RunReader).
    AttachSession(store::RunStore& store, const store::RunRow& run, AttachTarget target, HostKeyPolicy* policy,
                  AttachOptions options, QHash<QString, qint64> offsets, QHash<QPair<int, int>, int> storedLogLines,
                  QHash<QPair<int, int>, qint64> storedEventBytes, QObject* parent = nullptr);
    ~AttachSession() override;

    void start();
    // Stops following; the run goes on. finished() follows.
    void detach();
    RunIngestor& ingestor() { return ingestor_; }
    const AttachTarget& target() const { return target_; }

Q_SIGNALS:
    void progress(const QString& message);
    void connectionLost(const QString& why);   // "connection lost — reconnecting"
    void reconnected();
    // The run ended and everything is stored (error empty), the client
    // detached, or the run could not be reached.
    void finished(const QString& error);

private:
    void connectStream();
    void onEnded(const QString& error);
    void retry(const QString& why);
    void finish(const QString& error);

    store::RunStore& store_;
    const qint64 runId_;
    AttachTarget target_;
    HostKeyPolicy* policy_;
    AttachOptions options_;
    RunIngestor ingestor_;
    std::unique_ptr<FollowStream> stream_;
    QTimer watchdog_, retryTimer_, saveTimer_;
    QElapsedTimer sinceData_;
    int retryMs_ = 0;
    bool everConnected_ = false;
    bool detaching_ = false;
    bool finished_ = false;
    bool lost_ = false;
};

} // namespace sb::launch
