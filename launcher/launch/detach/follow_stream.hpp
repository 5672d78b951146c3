// The byte stream of `shardbench-supervise follow` (core/supervisor/follower.hpp):
// a local process, or one exec channel on the head node over SSH. It sends
// the offsets the client already has, then hands out the follower's lines.
// ended() comes exactly once: the follower finished (error empty) or the
// stream broke (the process died, the connection dropped, stop()).
#pragma once

#include "attach_target.hpp"

#include "status/qt_status.hpp"
#include "../ssh/host_key_policy.hpp"
#include "events/line_splitter.hpp"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QProcess>
#include <QThread>

#include <atomic>
#include <memory>

namespace sb::launch {

// A follower record holds one line of the run directory (a rank's line is cut
// at 1 MiB, then escaped twice: into its log record and into the record).
inline constexpr qsizetype kMaxFollowerLine = 64 << 20;

// What the follower sends (core/supervisor/follower.hpp). Rank sets are
// "all", "none", "rank0" or "0,5,17".
struct FollowRequest {
    QHash<QString, qint64> offsets;  // file -> next byte to read
    QString logs = QStringLiteral("rank0");      // whose logs
    QString events = QStringLiteral("all");      // whose events files
    QString liveSteps = QStringLiteral("rank0"); // whose step events come live (the others' at catch-up)
    int wire = 2;                                // 1: JSON records (any follower), 2: lines as text
    bool once = false;
};

// Ok, or why `value` is not a rank set (`option` names it in the message).
Status checkRankSet(const QString& option, const QString& value);

class FollowStream : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void start(const FollowRequest& request) = 0;
    virtual void stop() = 0;

Q_SIGNALS:
    void connected();
    void lines(const QList<QByteArray>& lines); // records in order, as they came in one read
    void ended(const QString& error);
};

std::unique_ptr<FollowStream> makeFollowStream(const AttachTarget& target, HostKeyPolicy* policy);

// The follower's arguments and its stdin preamble.
QByteArrayList followArguments(const FollowRequest& r);
QByteArray offsetsPreamble(const QHash<QString, qint64>& offsets);

class LocalFollowStream final : public FollowStream {
    Q_OBJECT
public:
    explicit LocalFollowStream(AttachTarget target, QObject* parent = nullptr);
    ~LocalFollowStream() override;
    void start(const FollowRequest& request) override;
    void stop() override;

private:
    AttachTarget target_;
    QProcess process_;
    protocol::LineSplitter splitter_{kMaxFollowerLine};
    bool ended_ = false;
};

class SshFollowStream final : public FollowStream {
    Q_OBJECT
public:
    SshFollowStream(AttachTarget target, HostKeyPolicy* policy, QObject* parent = nullptr);
    ~SshFollowStream() override; // stops and waits for its thread
    void start(const FollowRequest& request) override;
    void stop() override;

private:
    void run(FollowRequest request);

    AttachTarget target_;
    HostKeyPolicy* policy_;
    std::unique_ptr<QThread> thread_;
    std::atomic<bool> stop_{false};
};

} // namespace sb::launch
