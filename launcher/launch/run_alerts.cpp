#include "run_alerts.hpp"

#include <QProcess>
#include <QProcessEnvironment>

#include <algorithm>
#include <cmath>

namespace sb::launch {

QString alertName(RunAlert::Kind kind)
{
    switch (kind) {
    case RunAlert::Finished: return QStringLiteral("finished");
    case RunAlert::Failed: return QStringLiteral("failed");
    case RunAlert::Stalled: return QStringLiteral("stalled");
    case RunAlert::NonFiniteLoss: return QStringLiteral("nan_loss");
    }
    return {};
}

QString alertSentence(const RunAlert& a)
{
    const QString run = a.runName.isEmpty() ? QStringLiteral("run %1").arg(a.runId) : QStringLiteral("run %1 (%2)").arg(a.runId).arg(a.runName);
    switch (a.kind) {
    case RunAlert::Finished:
        return QStringLiteral("%1 %2 at step %3").arg(run, store::statusName(a.status)).arg(a.step);
    case RunAlert::Failed: return QStringLiteral("%1 failed at step %2: %3").arg(run).arg(a.step).arg(a.reason);
    case RunAlert::Stalled: return QStringLiteral("%1 has reported no step for %2 s (last step %3)").arg(run).arg(a.silentMs / 1000).arg(a.step);
    case RunAlert::NonFiniteLoss: return QStringLiteral("%1 reported a loss of %2 at step %3").arg(run).arg(a.loss).arg(a.step);
    }
    return run;
}

bool startAlertCommand(const QString& command, const RunAlert& alert)
{
    const QStringList argv = QProcess::splitCommand(command);
    if (argv.isEmpty()) return false;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SHARDBENCH_ALERT"), alertName(alert.kind));
    env.insert(QStringLiteral("SHARDBENCH_RUN_ID"), QString::number(alert.runId));
    env.insert(QStringLiteral("SHARDBENCH_RUN_NAME"), alert.runName);
    env.insert(QStringLiteral("SHARDBENCH_MESSAGE"), alertSentence(alert));
    p.setProcessEnvironment(env);
    p.setProgram(argv.first());
    p.setArguments(argv.mid(1));
    p.setStandardInputFile(QProcess::nullDevice());
    return p.startDetached();
}

RunAlerts::RunAlerts(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<RunAlert>();
    timer_.setInterval(options_.checkEveryMs);
    connect(&timer_, &QTimer::timeout, this, &RunAlerts::checkStall);
}

RunAlerts::~RunAlerts() { leaveSupervisor(); }

void RunAlerts::leaveSupervisor()
{
    if (!supervisor_) return;
    supervisor_->removeMetricsSink(this);
    supervisor_->disconnect(this);
    supervisor_ = nullptr;
}

void RunAlerts::setOptions(const Options& options)
{
    options_ = options;
    timer_.setInterval(std::max(10, options_.checkEveryMs));
}

void RunAlerts::watch(qint64 runId, const QString& name)
{
    leaveSupervisor();
    runId_ = runId;
    name_ = name;
    lastStep_ = 0;
    intervals_.clear();
    stalledSaid_ = lossSaid_ = endSaid_ = false;
    sinceStep_.invalidate();
    timer_.start();
}

void RunAlerts::watchSupervised(RunSupervisor& supervisor, qint64 runId, const QString& name)
{
    watch(runId, name);
    supervisor_ = &supervisor;
    supervisor.addMetricsSink(this);
    connect(&supervisor, &RunSupervisor::statusChanged, this,
            [this](store::RunStatus status, const CodedReason& reason) { setStatus(status, reason.text); });
}

void RunAlerts::forget()
{
    leaveSupervisor();
    runId_ = -1;
    timer_.stop();
}

RunAlert RunAlerts::make(RunAlert::Kind kind) const
{
    RunAlert a;
    a.kind = kind;
    a.runId = runId_;
    a.runName = name_;
    a.step = lastStep_;
    return a;
}

void RunAlerts::log(const protocol::StepMetrics& step)
{
    if (runId_ < 0 || endSaid_) return;
    if (!std::isfinite(step.loss) && !lossSaid_) {
        lossSaid_ = true;
        RunAlert a = make(RunAlert::NonFiniteLoss);
        a.step = step.step;
        a.loss = step.loss;
        Q_EMIT alert(a);
    }
    // The pace is rank 0's: every rank steps together.
    if (step.rank != 0) return;
    if (sinceStep_.isValid() && step.step > lastStep_) {
        // The recent pace: the last thousand or so intervals.
        if (intervals_.size() >= 2048) intervals_.erase(intervals_.begin(), intervals_.begin() + 1024);
        intervals_.push_back(sinceStep_.elapsed());
    }
    lastStep_ = std::max(lastStep_, step.step);
    sinceStep_.start();
    stalledSaid_ = false; // steps came back: a later stall is said again
}

void RunAlerts::setStatus(store::RunStatus status, const QString& reason)
{
    if (runId_ < 0 || endSaid_ || !store::isFinal(status)) return;
    endSaid_ = true;
    timer_.stop();
    RunAlert a = make(status == store::RunStatus::Failed ? RunAlert::Failed : RunAlert::Finished);
    a.status = status;
    a.reason = reason;
    Q_EMIT alert(a);
}

void RunAlerts::checkStall()
{
    // Before two steps there is no pace to judge a silence by.
    if (runId_ < 0 || endSaid_ || stalledSaid_ || intervals_.empty() || !sinceStep_.isValid()) return;
    std::vector<qint64> sorted = intervals_;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    const double median = static_cast<double>(sorted[sorted.size() / 2]);
    const qint64 silent = sinceStep_.elapsed();
    if (silent < options_.minStallMs || silent < options_.stallFactor * median) return;
    stalledSaid_ = true;
    RunAlert a = make(RunAlert::Stalled);
    a.silentMs = silent;
    Q_EMIT alert(a);
}

} // namespace sb::launch
