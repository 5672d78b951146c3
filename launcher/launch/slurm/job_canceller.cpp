#include "job_canceller.hpp"

#include <QDeadlineTimer>

namespace sb::launch {

JobCanceller::JobCanceller(QObject* parent) : QObject(parent) {}

JobCanceller::~JobCanceller()
{
    disconnect(this, nullptr, nullptr, nullptr); // nobody hears from a canceller going away
    wait(5000);
    abandon();
}

void JobCanceller::wait(int ms)
{
    // finished() is delivered inside waitForFinished(), which starts the next command.
    const QDeadlineTimer deadline(ms);
    while (process_ && !deadline.hasExpired()) process_->waitForFinished(static_cast<int>(deadline.remainingTime()));
}

void JobCanceller::cancel(qint64 jobId, const QString& step, bool ownAllocation)
{
    const QString job = QString::number(jobId);
    pending_ << QStringList{QStringLiteral("--signal=KILL"), step.isEmpty() ? job : step};
    if (ownAllocation) pending_ << QStringList{job};
    if (!process_) runNext();
}

void JobCanceller::abandon()
{
    pending_.clear();
    if (!process_) return;
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(1000);
    process_.reset();
    Q_EMIT done();
}

void JobCanceller::runNext()
{
    if (pending_.isEmpty()) {
        Q_EMIT done();
        return;
    }
    const QStringList args = pending_.takeFirst();
    process_ = std::make_unique<QProcess>();
    process_->setProcessChannelMode(QProcess::MergedChannels);
    process_->setStandardInputFile(QProcess::nullDevice());
    connect(process_.get(), &QProcess::finished, this, [this, args](int code, QProcess::ExitStatus status) {
        const QString out = QString::fromUtf8(process_->readAll()).trimmed();
        if (status != QProcess::NormalExit || code != 0 || !out.isEmpty())
            Q_EMIT message(QStringLiteral("scancel %1: exit %2 %3").arg(args.join(QLatin1Char(' '))).arg(code).arg(out));
        process_.release()->deleteLater();
        runNext();
    });
    connect(process_.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        Q_EMIT message(QStringLiteral("cannot run scancel: ") + process_->errorString());
        process_.release()->deleteLater();
        pending_.clear();
        runNext();
    });
    Q_EMIT message(QStringLiteral("scancel ") + args.join(QLatin1Char(' ')));
    process_->start(QStringLiteral("scancel"), args);
}

} // namespace sb::launch
