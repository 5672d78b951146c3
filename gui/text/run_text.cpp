#include "run_text.hpp"

#include "plan/failure_reason.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace sb::gui {

namespace {
struct RunText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::RunText)
};
} // namespace

QString runStatusText(const QString& s, bool abandoned, bool detached, bool attached)
{
    if (abandoned) return RunText::tr("abandoned");
    if (detached && (s == store::statusName(store::RunStatus::Running) || s == store::statusName(store::RunStatus::Starting)))
        return attached ? RunText::tr("running on the cluster — attached") : RunText::tr("running on the cluster — not attached");
    if (const auto status = store::parseStatus(s)) return runStatusText(*status);
    return s;
}

QString runStatusText(store::RunStatus status)
{
    switch (status) {
    case store::RunStatus::Starting: return RunText::tr("starting");
    case store::RunStatus::Running: return RunText::tr("running");
    case store::RunStatus::Completed: return RunText::tr("completed");
    case store::RunStatus::Failed: return RunText::tr("failed");
    case store::RunStatus::Cancelled: return RunText::tr("cancelled");
    }
    return {};
}

QColor runStatusColor(const QString& s, bool abandoned)
{
    if (abandoned) return QColor(0x8a, 0x6d, 0x3b);
    const auto status = store::parseStatus(s);
    if (!status) return QColor(Qt::gray);
    switch (*status) {
    case store::RunStatus::Starting:
    case store::RunStatus::Running: return QColor(0x1f, 0x6f, 0xc5);
    case store::RunStatus::Completed: return QColor(0x2e, 0x8b, 0x3e);
    case store::RunStatus::Failed: return QColor(0xc6, 0x28, 0x28);
    case store::RunStatus::Cancelled: return QColor(0x80, 0x80, 0x80);
    }
    return QColor(Qt::gray);
}

QString durationText(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0) return {};
    const qint64 s = std::llround(seconds);
    if (s < 60) return RunText::tr("%1 s").arg(s);
    if (s < 3600) return RunText::tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return RunText::tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString timeText(double unixSeconds)
{
    if (!std::isfinite(unixSeconds) || unixSeconds <= 0) return {};
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(unixSeconds * 1000));
    return QLocale().toString(t, QLocale::ShortFormat);
}

QString rateText(double tokensPerSecond)
{
    if (!std::isfinite(tokensPerSecond)) return {};
    return RunText::tr("%1 tokens/s").arg(QLocale().toString(tokensPerSecond, 'f', 0));
}

QString lossText(double loss)
{
    if (!std::isfinite(loss)) return {};
    return QLocale().toString(loss, 'f', 4);
}

QString planSummaryText(const QString& preset, int units, int nodes, int procsPerNode, int replicate)
{
    QString mesh = RunText::tr("%1 × %2 ranks").arg(nodes).arg(procsPerNode);
    if (replicate > 1) mesh += RunText::tr(", %1 replicas").arg(replicate);
    return RunText::tr("%1, %n unit(s), %2", nullptr, units).arg(preset, mesh);
}

const std::vector<FailureTextTemplate>& failureTextTemplates()
{
    static const std::vector<FailureTextTemplate> rows{
        {"rank.exited", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code %3")},
        {"rank.runtime_failure", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code 1 (runtime failure)")},
        {"rank.bad_input", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code 2 (bad input)")},
        {"rank.rendezvous", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code 3 (rendezvous failed)")},
        {"rank.cannot_run",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code 126 (the core could not be executed)")},
        {"rank.not_found", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 exited with code 127 (the core was not found)")},
        {"rank.killed", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 was killed by signal %3 (%4)")},
        {"rank.stopped", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 was stopped (%3)")},
        {"rank.lost", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 was lost: %3")},
        {"rank.not_started", QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 could not be started: %3")},
        {"launch.failed", QT_TRANSLATE_NOOP("sb::gui::FailureText", "launch failed: %1")},
        {"run.unfinished", QT_TRANSLATE_NOOP("sb::gui::FailureText", "the ranks stopped without finishing")},
        {"run.launcher_gone",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "the launcher (pid %1 on %2) is gone; last heard from at %3")},
        {"run.launcher_gone_unknown",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "the launcher (pid %1 on %2) is gone; last heard from at an unknown time")},
        {"run.not_started", QT_TRANSLATE_NOOP("sb::gui::FailureText", "the run could not start: %1")},
        {"rank.connection_lost",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 lost its connection (ssh exited with 255)")},
        {"rank.unreachable",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "rank %1 on %2 could not be reached (ssh exited with 255)")},
        {"run.stopped", QT_TRANSLATE_NOOP("sb::gui::FailureText", "stopped on request")},
        {"run.cancelled", QT_TRANSLATE_NOOP("sb::gui::FailureText", "cancelled by the user")},
        {"run.cancelled_signal", QT_TRANSLATE_NOOP("sb::gui::FailureText", "cancelled by the user (%1)")},
        {"run.cancelled_workbench", QT_TRANSLATE_NOOP("sb::gui::FailureText", "cancelled from the workbench")},
        {"run.slurm_ended",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "Slurm ended the job (SIGTERM: its time limit, an scancel of the job, a preemption)")},
        {"run.checkpoint_failed", QT_TRANSLATE_NOOP("sb::gui::FailureText", "1 checkpoint failed (%1)")},
        {"run.checkpoints_failed", QT_TRANSLATE_NOOP("sb::gui::FailureText", "%1 checkpoints failed (%2)")},
        {"run.supervisor_gone",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "the supervisor on %1 is gone (last heard from at %2)")},
        {"run.line_lost", QT_TRANSLATE_NOOP("sb::gui::FailureText", "1 line lost")},
        {"run.lines_lost", QT_TRANSLATE_NOOP("sb::gui::FailureText", "%1 lines lost")},
        {"slurm.queued", QT_TRANSLATE_NOOP("sb::gui::FailureText", "queued: Slurm job %1 is %2")},
        {"slurm.ended_no_state",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "Slurm job %1 ended %2 and the supervisor recorded no final state (see %3/slurm-%1.out)")},
        {"slurm.ended_before_start",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "Slurm job %1 ended %2 before the supervisor started")},
        {"slurm.unknown_no_state",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "Slurm job %1 is unknown to Slurm (squeue and sacct) and the supervisor recorded no final state (see %2/slurm-%1.out)")},
        {"slurm.unknown_before_start",
         QT_TRANSLATE_NOOP("sb::gui::FailureText", "Slurm job %1 is unknown to Slurm (squeue and sacct) before the supervisor started")},
    };
    return rows;
}

QString runReasonText(const store::RunRow& run) { return runReasonText(launch::storedReason(run)); }

QString runReasonText(const launch::CodedReason& reason)
{
    const QString& code = reason.code;
    const int restarts = reason.restarts;
    if (code.isEmpty()) return reason.text;
    for (const FailureTextTemplate& t : failureTextTemplates()) {
        if (code != QLatin1String(t.code)) continue;
        std::vector<std::string> words;
        for (const QString& a : reason.args) words.push_back(a.toStdString());
        const QString text = QCoreApplication::translate("sb::gui::FailureText", t.text);
        QString out = QString::fromStdString(FailureReason::fillFailure(text.toStdString(), words));
        // English keeps the source's "(s)", agreed with the count as the core's English does.
        if (restarts > 0)
            out += QCoreApplication::translate("sb::gui::FailureText", " (after %n restart(s))", nullptr, restarts)
                       .replace(QStringLiteral("(s)"), restarts == 1 ? QString() : QStringLiteral("s"));
        return out;
    }
    return reason.text;
}

} // namespace sb::gui
