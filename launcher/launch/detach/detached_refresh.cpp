#include "detached_refresh.hpp"

#include "detached_control.hpp"

#include <QTimer>

namespace sb::launch {

DetachedRefresh::DetachedRefresh(QString dbPath, store::RunStore& store, HostKeyPolicy* policy, QObject* parent)
    : QObject(parent), dbPath_(std::move(dbPath)), store_(store), policy_(policy)
{
}

DetachedRefresh::~DetachedRefresh()
{
    if (current_) current_->disconnect(this);
}

QList<qint64> DetachedRefresh::pendingRuns(const QList<store::RunRow>& runs)
{
    QList<qint64> out;
    for (const store::RunRow& r : runs) {
        const auto status = store::parseStatus(r.status);
        if (r.isDetached() && status && !store::isFinal(*status)) out << r.id;
    }
    return out;
}

void DetachedRefresh::start(const QList<qint64>& runs)
{
    if (running_) return;
    queue_ = runs;
    errors_.clear();
    running_ = true;
    QTimer::singleShot(0, this, &DetachedRefresh::next);
}

void DetachedRefresh::cancel() { queue_.clear(); }

void DetachedRefresh::next()
{
    if (current_) current_.release()->deleteLater(); // this turn may still be inside its signal
    if (queue_.isEmpty()) {
        running_ = false;
        Q_EMIT finished(errors_);
        return;
    }
    currentRun_ = queue_.takeFirst();
    AttachOptions o;
    o.follow = false;
    o.logs = QStringLiteral("none");
    Result<std::unique_ptr<AttachSession>> opened = openAttachSession(dbPath_, store_, currentRun_, policy_, o);
    if (!opened) {
        const QString error = qtMessage(opened);
        errors_ << QStringLiteral("run %1: %2").arg(currentRun_).arg(error);
        Q_EMIT runRefreshed(currentRun_, error);
        QTimer::singleShot(0, this, &DetachedRefresh::next);
        return;
    }
    current_ = std::move(opened).value();
    connect(current_.get(), &AttachSession::finished, this, [this](const QString& e) {
        if (!e.isEmpty()) errors_ << QStringLiteral("run %1: %2").arg(currentRun_).arg(e);
        Q_EMIT runRefreshed(currentRun_, e);
        next();
    }, Qt::QueuedConnection);
    current_->start();
}

} // namespace sb::launch
