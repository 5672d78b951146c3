#include "checkpoints/checkpoint_job.hpp"

#include "checkpoint/checkpoint_io.hpp"
#include "hf/hf_export.hpp"
#include "jobs/work_pool.hpp"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace sb::app {

CheckpointJob::CheckpointJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<Result>();
    connect(&watcher_, &QFutureWatcher<Result>::finished, this, [this] {
        result_ = watcher_.result();
        Q_EMIT finished(result_);
    });
}

CheckpointJob::~CheckpointJob()
{
    cancel();
    watcher_.waitForFinished();
}

void CheckpointJob::waitForFinished()
{
    watcher_.waitForFinished();
    QCoreApplication::sendPostedEvents(this);
    QCoreApplication::sendPostedEvents(&watcher_);
}

bool CheckpointJob::start(Kind kind, const QString& checkpoint, const QString& output)
{
    if (watcher_.isRunning()) return false;
    kind_ = kind;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto cancel = cancel_;
    // Progress reaches the GUI thread in steps of 1/1000, not per shard.
    auto lastShown = std::make_shared<std::atomic<int>>(-1);
    // The destructor waits for the worker, so `this` outlives every call.
    const ckpt::Progress progress = [this, cancel, lastShown](double fraction) {
        const int permille = static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000));
        if (lastShown->exchange(permille) != permille)
            QMetaObject::invokeMethod(this, [this, permille] { Q_EMIT progressChanged(permille / 1000.0); }, Qt::QueuedConnection);
        return !cancel->load();
    };
    watcher_.setFuture(QtConcurrent::run(workPool(), [kind, checkpoint, output, progress, cancel] {
        Result r;
        r.kind = kind;
        r.checkpoint = checkpoint;
        r.output = output;
        const Status done = kind == Verify   ? ckpt::verifyCheckpoint(checkpoint.toStdString(), progress)
                            : kind == Export ? ckpt::exportCheckpoint(checkpoint.toStdString(), output.toStdString(), progress)
                                             : hf::exportCheckpointAsHf(checkpoint.toStdString(), output.toStdString(), {}, progress);
        r.cancelled = cancel->load();
        if (!r.cancelled) r.error = QString::fromStdString(done.message());
        return r;
    }));
    Q_EMIT progressChanged(0);
    return true;
}

void CheckpointJob::cancel()
{
    if (cancel_) cancel_->store(true);
}

} // namespace sb::app
