#include "run_console.hpp"

#include "text_format.hpp"


#include <cmath>

namespace sb::cli {

using launch::RunSupervisor;

RunConsole::RunConsole(RunSupervisor& supervisor, QTextStream& err, Options options)
    : supervisor_(supervisor), err_(err), options_(options)
{
    sinceStart_.start();
    sinceDraw_.start();
    supervisor.addMetricsSink(this);
    connect(&supervisor, &RunSupervisor::progress, this, &RunConsole::message);
    connect(&supervisor, &RunSupervisor::attemptStarted, this, [this](int attempt, const QString& resume) {
        if (attempt > 0)
            message(QStringLiteral("attempt %1%2").arg(attempt).arg(resume.isEmpty() ? QString() : QStringLiteral(", resuming from ") + resume));
    });
    connect(&supervisor, &RunSupervisor::rankExited, this, [this](int, const launch::RankExit& e) {
        if (!e.success() || options_.verbose)
            message(QStringLiteral("rank %1 %2").arg(e.rank).arg(launch::describeExit(e)));
    });
    connect(&supervisor, &RunSupervisor::eventReceived, this, [this](int, const protocol::CoreEvent& e) {
        if (e.type == QLatin1String(protocol::type::error))
            message(QStringLiteral("rank %1: error: %2").arg(e.rank).arg(protocol::errorText(e)));
        else if (e.type == QLatin1String(protocol::type::checkpoint) && options_.verbose)
            message(QStringLiteral("rank %1: checkpoint %2").arg(e.rank).arg(QString::fromStdString(e.body.dump())));
    });
    connect(&supervisor, &RunSupervisor::outputLine, this,
            [this](int, int rank, launch::OutputStream, const QString& line) {
                if (!options_.verbose) return;
                const QString prefix = QStringLiteral("[rank %1]").arg(rank);
                message(line.startsWith(prefix) ? line : prefix + QLatin1Char(' ') + line);
            });
    connect(&supervisor, &RunSupervisor::malformedLine, this, [this](int, int rank, const QString& error, const QString&) {
        if (options_.verbose) message(QStringLiteral("rank %1: skipped a malformed event line (%2)").arg(rank).arg(error));
    });
}

void RunConsole::message(const QString& text)
{
    if (lineShown_ && options_.terminal) err_ << "\r\x1b[K";
    lineShown_ = false;
    err_ << "shardbench: " << terminalSafe(text) << "\n"; // rank lines, reasons, host names: from the cluster
    err_.flush();
    drawProgress(true);
}

void RunConsole::log(const protocol::StepMetrics& s)
{
    if (s.memPeak >= 0) peakByRank_[s.rank] = std::max(peakByRank_.value(s.rank, 0), s.memPeak);
    if (s.rank == 0) {
        if (!std::isnan(s.tokensPerS)) tokensPerSSum_ += s.tokensPerS;
        if (!std::isnan(s.stepMs)) stepMsSum_ += s.stepMs;
        ++rank0Steps_;
    }
    drawProgress(false);
}

void RunConsole::close()
{
    if (lineShown_ && options_.terminal) {
        err_ << "\n";
        err_.flush();
    }
    lineShown_ = false;
}

QString RunConsole::progressText() const
{
    const QList<launch::RankView> ranks = supervisor_.ranks();
    const launch::RankView* lead = nullptr;
    for (const launch::RankView& r : ranks)
        if (r.lastStep && (!lead || r.lastStep->step > lead->lastStep->step)) lead = &r;
    if (!lead) return {};
    const protocol::StepMetrics& s = *lead->lastStep;
    QString text = QStringLiteral("step %1/%2  loss %3  %4 tok/s")
                       .arg(s.step)
                       .arg(s.steps > 0 ? s.steps : supervisor_.launch().planSteps)
                       .arg(number(s.loss))
                       .arg(humanRate(s.tokensPerS));
    QStringList mem;
    for (const launch::RankView& r : ranks) {
        if (!r.lastStep) continue;
        const qint64 m = r.lastStep->memPeak >= 0 ? r.lastStep->memPeak : r.lastStep->memCurrent;
        mem << QStringLiteral("r%1 %2").arg(r.rank).arg(humanBytes(m));
    }
    if (mem.size() > 8) mem = mem.mid(0, 8) << QStringLiteral("...");
    if (!mem.isEmpty()) text += QStringLiteral("  mem ") + mem.join(QLatin1Char(' '));
    if (supervisor_.attempt() > 0) text += QStringLiteral("  [attempt %1]").arg(supervisor_.attempt());
    return text;
}

void RunConsole::drawProgress(bool force)
{
    if (options_.quiet || supervisor_.isFinished()) return;
    const QString text = progressText();
    if (text.isEmpty()) return;
    if (options_.terminal) {
        if (!force && sinceDraw_.elapsed() < 100) return;
        sinceDraw_.restart();
        err_ << "\r\x1b[K" << text;
        err_.flush();
        lineShown_ = true;
        return;
    }
    // Not a terminal: one line per tenth of the run (and the last step).
    int step = 0, steps = supervisor_.launch().planSteps;
    for (const launch::RankView& r : supervisor_.ranks())
        if (r.lastStep) step = std::max(step, r.lastStep->step);
    const int every = std::max(1, steps / 10);
    // A forced redraw (after a message) prints nothing here: log files get one
    // progress line per tenth of the run, not one after every message.
    if (force || (step < lastPrintedStep_ + every && step != steps)) return;
    if (step == lastPrintedStep_) return;
    lastPrintedStep_ = step;
    err_ << "shardbench: " << text << "\n";
    err_.flush();
}

void RunConsole::printSummary(QTextStream& out, qint64 runId, const QString& dbPath) const
{
    const launch::RunOutcome& o = supervisor_.outcome();
    const launch::PreparedLaunch& l = supervisor_.launch();
    const QString status = store::statusName(o.status);
    out << "run " << runId << " (" << l.uid << ") " << status;
    if (!o.reason.isEmpty()) out << ": " << terminalSafe(o.reason);
    out << "\n";
    if (!l.config.name.isEmpty()) out << "  name      " << terminalSafe(l.config.name) << "\n";
    out << "  plan      " << terminalSafe(l.planSummary) << "\n";
    QStringList hosts;
    for (int i = 0; i < l.hosts.size(); ++i)
        hosts << launch::HostSpec{supervisor_.hostName(i), l.hosts[i].slots}.label();
    out << "  backend   " << launch::backendName(l.config.backend()) << " (" << terminalSafe(hosts.join(QStringLiteral(", "))) << ")\n";
    out << "  steps     " << o.stepsDone << "/" << l.planSteps;
    if (!std::isnan(o.finalLoss)) out << ", final loss " << number(o.finalLoss, 6);
    out << "\n";
    if (rank0Steps_ > 0)
        out << "  speed     " << humanRate(tokensPerSSum_ / rank0Steps_) << " tokens/s, "
            << QString::number(stepMsSum_ / rank0Steps_, 'f', 1) << " ms/step (means)\n";
    if (!peakByRank_.isEmpty()) {
        QStringList mem;
        for (auto it = peakByRank_.begin(); it != peakByRank_.end(); ++it)
            mem << QStringLiteral("r%1 %2").arg(it.key()).arg(humanBytes(it.value()));
        out << "  memory    peak " << mem.join(QStringLiteral(", ")) << "\n";
    }
    out << "  time      " << humanDuration(o.endedAt - o.startedAt);
    if (o.restarts > 0) out << ", " << o.restarts << " restart" << (o.restarts == 1 ? "" : "s");
    out << "\n";
    if (o.malformedLines > 0) out << "  skipped   " << o.malformedLines << " malformed event line(s)\n";
    out << "  store     " << dbPath << "\n";
    out.flush();
}

} // namespace sb::cli
