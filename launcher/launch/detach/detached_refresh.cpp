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

int DetachedRefresh::start(const QSet<qint64>& skip)
{
    if (running_) return 0;
    queue_.clear();
    errors_.clear();
    QString error;
    if (auto reader = store::RunReader::open(dbPath_, &error)) {
        for (const store::RunRow& r : reader->listRuns()) {
            const auto status = store::parseStatus(r.status);
            if (r.isDetached() && status && !store::isFinal(*status) && !skip.contains(r.id)) queue_ << r.id;
        }
    } else {
        errors_ << error;
    }
    running_ = true;
    const int count = static_cast<int>(queue_.size());
    QTimer::singleShot(0, this, &DetachedRefresh::next);
    return count;
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
    QString error;
    current_ = openAttachSession(dbPath_, store_, currentRun_, policy_, o, &error);
    if (!current_) {
        errors_ << QStringLiteral("run %1: %2").arg(currentRun_).arg(error);
        Q_EMIT runRefreshed(currentRun_, error);
        QTimer::singleShot(0, this, &DetachedRefresh::next);
        return;
    }
    connect(current_.get(), &AttachSession::finished, this, [this](const QString& e) {
        if (!e.isEmpty()) errors_ << QStringLiteral("run %1: %2").arg(currentRun_).arg(e);
        Q_EMIT runRefreshed(currentRun_, e);
        next();
    }, Qt::QueuedConnection);
    current_->start();
}

} // namespace sb::launch
