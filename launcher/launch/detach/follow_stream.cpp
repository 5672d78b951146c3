#include "follow_stream.hpp"

#include "slurm_follow_stream.hpp"

#include "../shell_quote.hpp"
#include "../ssh/ssh_connection.hpp"

#include "events/line_splitter.hpp"
#include "supervisor/follow_files.hpp"

#include <libssh/libssh.h>

namespace sb::launch {

Status checkRankSet(const QString& option, const QString& value)
{
    const Result<supervise::RankSet> set = supervise::RankSet::parse(value.toStdString());
    return set ? Status() : set.status().prefixed(option.toStdString());
}

QByteArrayList followArguments(const FollowRequest& r)
{
    // Wire 2: lines as text, parsed once by the client (a follower older than that refuses it by name).
    QByteArrayList args = {"follow"};
    if (r.wire != 1) args << "--wire" << QByteArray::number(r.wire);
    args << "--logs" << r.logs.toUtf8();
    if (r.events != QLatin1String("all")) args << "--events" << r.events.toUtf8();
    if (!r.once && r.liveSteps != QLatin1String("all")) args << "--live-steps" << r.liveSteps.toUtf8();
    if (r.once) args << "--once";
    return args;
}

QByteArray offsetsPreamble(const QHash<QString, qint64>& offsets)
{
    QByteArray out;
    for (auto it = offsets.begin(); it != offsets.end(); ++it)
        if (!it.key().contains(QLatin1Char('\n'))) out += it.key().toUtf8() + ' ' + QByteArray::number(it.value()) + '\n';
    return out + '\n';
}

std::unique_ptr<FollowStream> makeFollowStream(const AttachTarget& target, HostKeyPolicy* policy)
{
    if (target.transport == AttachTarget::Transport::Local) return std::make_unique<LocalFollowStream>(target);
    if (target.transport == AttachTarget::Transport::Slurm) return std::make_unique<SlurmFollowStream>(target);
    return std::make_unique<SshFollowStream>(target, policy);
}

LocalFollowStream::LocalFollowStream(AttachTarget target, QObject* parent) : FollowStream(parent), target_(std::move(target))
{
    connect(&process_, &QProcess::readyReadStandardOutput, this, [this] {
        QList<QByteArray> batch;
        splitter_.feed(process_.readAllStandardOutput(), [&batch](QByteArray l, bool) { batch.push_back(std::move(l)); });
        if (!batch.isEmpty()) Q_EMIT lines(batch);
    });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        if (ended_) return;
        ended_ = true;
        const QString err = QString::fromUtf8(process_.readAllStandardError().trimmed());
        Q_EMIT ended(status == QProcess::NormalExit && code == 0
                         ? QString()
                         : QStringLiteral("the follower ended (exit %1)%2").arg(code).arg(err.isEmpty() ? QString() : QStringLiteral(": ") + err));
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || ended_) return;
        ended_ = true;
        Q_EMIT ended(QStringLiteral("cannot run %1: %2").arg(target_.supervise, process_.errorString()));
    });
}

LocalFollowStream::~LocalFollowStream()
{
    process_.disconnect(this);
    if (process_.state() != QProcess::NotRunning) {
        process_.kill();
        process_.waitForFinished(2000);
    }
}

void LocalFollowStream::start(const FollowRequest& request)
{
    QStringList args;
    for (const QByteArray& a : superviseCommand(target_, followArguments(request)).mid(1)) args << QString::fromUtf8(a);
    process_.start(target_.supervise, args);
    process_.write(offsetsPreamble(request.offsets)); // stdin stays open: closing it tells the follower we left
    Q_EMIT connected();
}

void LocalFollowStream::stop()
{
    if (process_.state() != QProcess::NotRunning) process_.closeWriteChannel();
}

SshFollowStream::SshFollowStream(AttachTarget target, HostKeyPolicy* policy, QObject* parent)
    : FollowStream(parent), target_(std::move(target)), policy_(policy)
{
}

SshFollowStream::~SshFollowStream()
{
    stop_ = true;
    if (thread_) thread_->wait();
}

void SshFollowStream::start(const FollowRequest& request)
{
    thread_.reset(QThread::create([this, request] { run(request); }));
    thread_->start();
}

void SshFollowStream::stop() { stop_ = true; }

void SshFollowStream::run(FollowRequest request)
{
    // Signals cross to the owner's thread queued.
    auto finish = [this](const QString& error) {
        QMetaObject::invokeMethod(this, [this, error] { Q_EMIT ended(error); }, Qt::QueuedConnection);
    };
    SshConnection conn;
    HostKeyInfo key;
    QString err = qtMessage(conn.open(target_.host, target_.ssh, *policy_, &key));
    if (!err.isEmpty()) return finish(err);
    const Result<QByteArray> cmd = shellCommand(superviseCommand(target_, followArguments(request)));
    if (!cmd) return finish(qtMessage(cmd));
    ssh_channel ch = ssh_channel_new(conn.session());
    if (!ch || ssh_channel_open_session(ch) != SSH_OK || ssh_channel_request_exec(ch, cmd.value().constData()) != SSH_OK) {
        err = QStringLiteral("%1: cannot start the follower: %2").arg(conn.label(), conn.sshError());
        if (ch) ssh_channel_free(ch);
        return finish(err);
    }
    const QByteArray pre = offsetsPreamble(request.offsets);
    if (ssh_channel_write(ch, pre.constData(), static_cast<uint32_t>(pre.size())) != pre.size()) {
        ssh_channel_free(ch);
        return finish(QStringLiteral("%1: cannot send the offsets: %2").arg(conn.label(), conn.sshError()));
    }
    QMetaObject::invokeMethod(this, [this] { Q_EMIT connected(); }, Qt::QueuedConnection);
    protocol::LineSplitter splitter(kMaxFollowerLine);
    QByteArray stderrText;
    char buf[65536];
    while (!stop_) {
        const int n = ssh_channel_read_timeout(ch, buf, sizeof buf, 0, 200);
        if (n == SSH_ERROR) {
            err = QStringLiteral("%1: the connection broke: %2").arg(conn.label(), conn.sshError());
            break;
        }
        if (n > 0) {
            QList<QByteArray> batch;
            splitter.feed(QByteArrayView(buf, n), [&batch](QByteArray l, bool) { batch.push_back(std::move(l)); });
            if (!batch.isEmpty())
                QMetaObject::invokeMethod(this, [this, batch] { Q_EMIT lines(batch); }, Qt::QueuedConnection);
        }
        int e;
        while ((e = ssh_channel_read_nonblocking(ch, buf, sizeof buf, 1)) > 0)
            if (stderrText.size() < 4096) stderrText.append(buf, e);
        if (n == 0 && ssh_channel_is_eof(ch)) {
            const int status = ssh_channel_get_exit_status(ch);
            if (status != 0)
                err = QStringLiteral("%1: the follower ended (exit %2): %3").arg(conn.label()).arg(status).arg(QString::fromUtf8(stderrText.trimmed()));
            break;
        }
    }
    if (stop_ && err.isEmpty()) err = QStringLiteral("detached");
    ssh_channel_send_eof(ch);
    ssh_channel_close(ch);
    ssh_channel_free(ch);
    conn.disconnect();
    finish(err);
}

} // namespace sb::launch
