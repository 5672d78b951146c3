#include "store_commands.hpp"

#include "args.hpp"
#include "attach_commands.hpp"
#include "command_exit.hpp"
#include "store_option.hpp"
#include "text_format.hpp"

#include "launch/abandoned_runs.hpp"
#include "plan/plan_limits.hpp"
#include "store/run_reader.hpp"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>
#include <memory>

namespace sb::cli {

const char* const kRunsUsage = "shardbench-cli runs [--db FILE] [--limit N] [--tag TAG] [--json] [--refresh]";
const char* const kShowUsage = "shardbench-cli show RUN [--db FILE] [--plan] [--json]";
const char* const kMetricsUsage = "shardbench-cli metrics RUN [--db FILE] [--csv] [--rank R] [--metric NAME] [--all-attempts] [--system]";
const char* const kLogsUsage = "shardbench-cli logs RUN [--db FILE] [--rank R [--no-fetch]] [--attempt N] [--launcher] [--grep TEXT]";

namespace {

std::string s(const QString& q) { return q.toStdString(); }

std::unique_ptr<store::RunReader> openReader(const Args& a, const char* cmd, std::ostream& err)
{
    const QString path = storePathOption(a);
    Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(path);
    if (!reader) {
        err << "shardbench-cli " << cmd << ": " << s(terminalSafe(qtMessage(reader))) << "\n";
        return nullptr;
    }
    return std::move(reader).value();
}

std::optional<store::RunRow> findRun(store::RunReader& r, const std::string& ref, const char* cmd, std::ostream& err)
{
    auto run = r.findRun(q(ref));
    if (!run) err << "shardbench-cli " << cmd << ": " << s(terminalSafe(r.lastError())) << "\n";
    return run;
}

QString pad(const QString& text, int width) { return text.leftJustified(width); }

QString csvField(const QString& v)
{
    if (!v.contains(QLatin1Char(',')) && !v.contains(QLatin1Char('"')) && !v.contains(QLatin1Char('\n'))) return v;
    QString e = v;
    e.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + e + QLatin1Char('"');
}

QString csvNumber(double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', QLocale::FloatingPointShortest); }
QString csvCount(qint64 v) { return v < 0 ? QString() : QString::number(v); }

QString duration(const store::RunRow& r)
{
    if (std::isnan(r.startedAt)) return QStringLiteral("-");
    if (std::isnan(r.endedAt)) return QStringLiteral("(running)");
    return humanDuration(r.endedAt - r.startedAt);
}

QJsonValue jsonNumber(double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); }

QJsonObject runJson(const store::RunRow& r)
{
    QJsonObject o;
    o[QStringLiteral("id")] = r.id;
    o[QStringLiteral("uid")] = r.uid;
    o[QStringLiteral("name")] = r.name;
    o[QStringLiteral("status")] = r.status;
    o[QStringLiteral("backend")] = r.backend;
    o[QStringLiteral("hosts")] = QJsonArray::fromStringList(r.hosts);
    o[QStringLiteral("world_size")] = r.worldSize;
    o[QStringLiteral("created_at")] = jsonNumber(r.createdAt);
    o[QStringLiteral("started_at")] = jsonNumber(r.startedAt);
    o[QStringLiteral("ended_at")] = jsonNumber(r.endedAt);
    o[QStringLiteral("reason")] = r.reason.isEmpty() ? QJsonValue() : QJsonValue(r.reason);
    o[QStringLiteral("failing_rank")] = r.failingRank < 0 ? QJsonValue() : QJsonValue(r.failingRank);
    o[QStringLiteral("failing_host")] = r.failingHost.isEmpty() ? QJsonValue() : QJsonValue(r.failingHost);
    o[QStringLiteral("parent_run")] = r.parentRun < 0 ? QJsonValue() : QJsonValue(r.parentRun);
    o[QStringLiteral("resumed_from")] = r.resumedFrom.isEmpty() ? QJsonValue() : QJsonValue(r.resumedFrom);
    o[QStringLiteral("init_from")] = r.initFrom.isEmpty() ? QJsonValue() : QJsonValue(r.initFrom);
    o[QStringLiteral("engine")] = r.engine.isEmpty() ? QStringLiteral("core") : r.engine;
    if (!r.engine.isEmpty()) {
        o[QStringLiteral("script")] = r.script.isEmpty() ? QJsonValue() : QJsonValue(r.script); // null: the plan's exported one
        o[QStringLiteral("script_args")] = QJsonArray::fromStringList(r.scriptArgs);
        o[QStringLiteral("python")] = r.python;
    }
    o[QStringLiteral("max_restarts")] = r.maxRestarts;
    o[QStringLiteral("restarts")] = r.restarts;
    o[QStringLiteral("steps_done")] = r.stepsDone < 0 ? QJsonValue() : QJsonValue(r.stepsDone);
    o[QStringLiteral("final_loss")] = jsonNumber(r.finalLoss);
    o[QStringLiteral("malformed_lines")] = r.malformedLines;
    o[QStringLiteral("abandoned")] = r.isAbandoned();
    o[QStringLiteral("detached")] = r.isDetached();
    o[QStringLiteral("run_dir")] = r.isDetached() ? QJsonValue(r.runDir) : QJsonValue();
    o[QStringLiteral("tags")] = QJsonArray::fromStringList(r.tags);
    o[QStringLiteral("notes")] = r.notes;
    return o;
}

} // namespace

int cmdRuns(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db", "--limit", "--tag"}, {"--json", "--refresh"});
    const int limit = static_cast<int>(a.integer("--limit", 50, 0, 1 << 30));
    if (!a.ok()) return usageError(err, "runs", a.error(), kRunsUsage);
    if (!a.positional().empty()) return usageError(err, "runs", "unexpected argument \"" + a.positional()[0] + "\"", kRunsUsage);
    const QString dbPath = storePathOption(a);
    if (a.has("--refresh")) refreshDetachedRuns(dbPath, err);
    // Runs whose launcher on this machine is gone are marked failed first.
    if (QFileInfo::exists(dbPath))
        if (const Result<int> marked = launch::reconcileAbandonedRuns(dbPath); !marked)
            err << "shardbench-cli runs: warning: abandoned runs not marked: " << marked.error() << "\n";
    auto reader = openReader(a, "runs", err);
    if (!reader) return kExitBadInput;
    // --tag: the runs carrying it (the newest `limit` of them).
    const std::optional<std::string> tag = a.value("--tag");
    QList<store::RunRow> runs = reader->listRuns(tag ? 0 : limit);
    if (!reader->lastError().isEmpty()) {
        err << "shardbench-cli runs: " << s(reader->lastError()) << "\n";
        return kExitFailed;
    }
    if (tag) {
        runs.removeIf([&](const store::RunRow& r) { return !r.tags.contains(q(*tag)); });
        if (limit > 0 && runs.size() > limit) runs.resize(limit);
    }
    if (a.has("--json")) {
        QJsonArray arr;
        for (const store::RunRow& r : runs) arr.append(runJson(r));
        out << QJsonDocument(arr).toJson(QJsonDocument::Indented).toStdString();
        return kExitOk;
    }
    if (runs.isEmpty()) {
        out << "no runs recorded\n";
        return kExitOk;
    }
    out << s(pad(QStringLiteral("ID"), 5) + pad(QStringLiteral("RUN"), 23) + pad(QStringLiteral("NAME"), 16) +
             pad(QStringLiteral("STATUS"), 10) + pad(QStringLiteral("BACKEND"), 8) + pad(QStringLiteral("WORLD"), 6) +
             pad(QStringLiteral("STEPS"), 7) + pad(QStringLiteral("LOSS"), 10) + pad(QStringLiteral("STARTED"), 20) +
             QStringLiteral("TIME"))
        << "\n";
    for (const store::RunRow& r : runs) {
        QString name = r.name;
        name.replace(QLatin1Char('\n'), QLatin1Char(' '));
        name = terminalSafe(name);
        if (name.size() > 15) name = name.left(14) + QChar(0x2026);
        out << s(pad(QString::number(r.id), 5) + pad(terminalSafe(r.uid), 23) + pad(name, 16) +
                 pad(r.isAbandoned() ? QStringLiteral("abandoned") : terminalSafe(r.status), 10) +
                 pad(terminalSafe(r.backend), 8) + pad(QString::number(r.worldSize), 6) +
                 pad(r.stepsDone < 0 ? QStringLiteral("-") : QString::number(r.stepsDone), 7) +
                 pad(number(r.finalLoss, 5), 10) + pad(localTime(r.createdAt), 20) + duration(r))
            << "\n";
    }
    return kExitOk;
}

int cmdShow(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db"}, {"--plan", "--json"});
    if (!a.ok()) return usageError(err, "show", a.error(), kShowUsage);
    if (a.positional().size() != 1) return usageError(err, "show", "expected one run (id, run id or name)", kShowUsage);
    auto reader = openReader(a, "show", err);
    if (!reader) return kExitBadInput;
    auto run = findRun(*reader, a.positional()[0], "show", err);
    if (!run) return kExitBadInput;
    const QList<store::RankSummary> ranks = reader->rankSummaries(run->id);
    const QList<store::AttemptRecord> attempts = reader->attempts(run->id);
    const QList<store::CheckpointRecord> checkpoints = reader->checkpoints(run->id);
    const QJsonObject plan = QJsonDocument::fromJson(run->planJson.toUtf8()).object();

    if (a.has("--json")) {
        QJsonObject o = runJson(*run);
        o[QStringLiteral("plan")] = plan;
        QJsonArray rs;
        for (const store::RankSummary& r : ranks)
            rs.append(QJsonObject{{QStringLiteral("rank"), r.rank},
                                  {QStringLiteral("steps"), r.steps},
                                  {QStringLiteral("last_step"), r.lastStep},
                                  {QStringLiteral("mean_tokens_per_s"), jsonNumber(r.meanTokensPerS)},
                                  {QStringLiteral("mean_step_ms"), jsonNumber(r.meanStepMs)},
                                  {QStringLiteral("peak_mem"), r.peakMem < 0 ? QJsonValue() : QJsonValue(r.peakMem)}});
        o[QStringLiteral("ranks")] = rs;
        QJsonArray as;
        for (const store::AttemptRecord& at : attempts)
            as.append(QJsonObject{{QStringLiteral("attempt"), at.attempt},
                                  {QStringLiteral("status"), at.status},
                                  {QStringLiteral("reason"), at.reason},
                                  {QStringLiteral("failing_rank"), at.failingRank < 0 ? QJsonValue() : QJsonValue(at.failingRank)},
                                  {QStringLiteral("resume_dir"), at.resumeDir}});
        o[QStringLiteral("attempts")] = as;
        QJsonArray cs;
        for (const store::CheckpointRecord& c : checkpoints)
            cs.append(QJsonObject{{QStringLiteral("step"), c.step},
                                  {QStringLiteral("path"), c.path},
                                  {QStringLiteral("host"), c.host},
                                  {QStringLiteral("rank"), c.rank},
                                  {QStringLiteral("status"), c.status},
                                  {QStringLiteral("bytes"), c.bytes < 0 ? QJsonValue() : QJsonValue(c.bytes)},
                                  {QStringLiteral("checksum"), c.checksum}});
        o[QStringLiteral("checkpoints")] = cs;
        out << QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
        return kExitOk;
    }
    if (a.has("--plan")) {
        out << run->planJson.toStdString();
        if (!run->planJson.endsWith(QLatin1Char('\n'))) out << "\n";
        return kExitOk;
    }
    // Every value may come from a cluster (reason, hosts, paths) or a person (name, tags, notes): escaped.
    auto line = [&](const char* key, const QString& value) {
        out << "  " << s(QString::fromLatin1(key).leftJustified(13)) << s(terminalSafe(value)) << "\n";
    };
    out << "run " << run->id << " (" << s(terminalSafe(run->uid)) << ")\n";
    if (!run->name.isEmpty()) line("name", run->name);
    if (!run->tags.isEmpty()) line("tags", run->tags.join(QStringLiteral(", ")));
    if (!run->notes.isEmpty()) line("notes", QString(run->notes).replace(QLatin1Char('\n'), QStringLiteral("\n               ")));
    line("status", run->isAbandoned()
                       ? run->status + QStringLiteral(" (abandoned: its launcher, pid %1 on %2, is gone)").arg(run->launcherPid).arg(run->launcherHost)
                       : run->status);
    if (!run->reason.isEmpty()) line("reason", run->reason);
    if (run->failingRank >= 0 || !run->failingHost.isEmpty())
        line("failing", QStringLiteral("rank %1%2").arg(run->failingRank < 0 ? QStringLiteral("-") : QString::number(run->failingRank),
                                                       run->failingHost.isEmpty() ? QString() : QStringLiteral(" on ") + run->failingHost));
    const QJsonObject model = plan.value(QLatin1String("model")).toObject();
    const QJsonObject mesh = plan.value(QLatin1String("mesh")).toObject();
    const QJsonObject training = plan.value(QLatin1String("training")).toObject();
    line("plan", QStringLiteral("%1 \"%2\": dim %3, %4 layers, %5 units; mesh %6 x %7 (%8); %9 steps, batch %10 x seq %11")
                     .arg(model.value(QLatin1String("preset")).toString(), plan.value(QLatin1String("name")).toString())
                     .arg(model.value(QLatin1String("dim")).toInteger())
                     .arg(model.value(QLatin1String("n_layers")).toInteger())
                     .arg(plan.value(QLatin1String("units")).toArray().size())
                     .arg(mesh.value(QLatin1String("nodes")).toInteger())
                     .arg(mesh.value(QLatin1String("procs_per_node")).toInteger())
                     .arg(mesh.value(QLatin1String("device")).toString())
                     .arg(training.value(QLatin1String("steps")).toInteger())
                     .arg(training.value(QLatin1String("micro_batch")).toInteger())
                     .arg(training.value(QLatin1String("seq_len")).toInteger()));
    line("backend", QStringLiteral("%1, world %2: %3").arg(run->backend).arg(run->worldSize).arg(run->hosts.join(QStringLiteral(", "))));
    if (!run->engine.isEmpty()) {
        const QString script = run->script.isEmpty() ? QStringLiteral("the plan's exported script") : run->script;
        line("engine", QStringLiteral("%1: %2 %3").arg(run->engine, run->python, (QStringList{script} + run->scriptArgs).join(u' ')).trimmed());
    }
    line("created", localTime(run->createdAt));
    line("duration", duration(*run));
    line("steps", run->stepsDone < 0 ? QStringLiteral("-") : QString::number(run->stepsDone));
    line("final loss", number(run->finalLoss, 6));
    line("restarts", QStringLiteral("%1 of %2").arg(run->restarts).arg(run->maxRestarts));
    if (run->parentRun >= 0) line("parent run", QString::number(run->parentRun));
    if (!run->resumedFrom.isEmpty()) line("resumed from", run->resumedFrom);
    if (!run->initFrom.isEmpty()) line("init from", run->initFrom);
    if (run->malformedLines > 0) line("skipped", QStringLiteral("%1 malformed event lines").arg(run->malformedLines));
    if (!ranks.isEmpty()) {
        out << "  ranks:\n";
        for (const store::RankSummary& r : ranks)
            out << s(QStringLiteral("    r%1  steps %2  %3 tok/s  %4 ms/step  peak %5")
                         .arg(r.rank)
                         .arg(r.lastStep)
                         .arg(humanRate(r.meanTokensPerS))
                         .arg(std::isnan(r.meanStepMs) ? QStringLiteral("-") : QString::number(r.meanStepMs, 'f', 1))
                         .arg(humanBytes(r.peakMem)))
                << "\n";
    }
    if (attempts.size() > 1 || (!attempts.isEmpty() && !attempts.front().reason.isEmpty())) {
        out << "  attempts:\n";
        for (const store::AttemptRecord& at : attempts)
            out << s(terminalSafe(QStringLiteral("    %1  %2%3%4")
                         .arg(at.attempt)
                         .arg(at.status)
                         .arg(at.resumeDir.isEmpty() ? QString() : QStringLiteral(" (resumed from ") + at.resumeDir + QLatin1Char(')'))
                         .arg(at.reason.isEmpty() ? QString() : QStringLiteral(": ") + at.reason)))
                << "\n";
    }
    if (!checkpoints.isEmpty()) {
        out << "  checkpoints:\n";
        for (const store::CheckpointRecord& c : checkpoints)
            out << s(terminalSafe(QStringLiteral("    step %1  %2  %3  %4  rank %5%6")
                         .arg(c.step)
                         .arg(c.status, humanBytes(c.bytes), c.path)
                         .arg(c.rank)
                         .arg(c.host.isEmpty() ? QString() : QStringLiteral(" on ") + c.host)))
                << "\n";
    }
    return kExitOk;
}

int cmdMetrics(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db", "--rank", "--metric"}, {"--csv", "--all-attempts", "--system"});
    const int rank = static_cast<int>(a.integer("--rank", -1, 0, plan_limits::kMaxWorldSize - 1));
    if (!a.ok()) return usageError(err, "metrics", a.error(), kMetricsUsage);
    if (a.positional().size() != 1) return usageError(err, "metrics", "expected one run", kMetricsUsage);
    std::optional<store::Metric> metric;
    if (auto m = a.value("--metric")) {
        metric = store::parseMetric(q(*m));
        if (!metric) {
            std::string names;
            for (const store::MetricInfo& i : store::metricInfos()) names += std::string(" ") + i.column;
            return usageError(err, "metrics", "unknown metric \"" + *m + "\"; known:" + names, kMetricsUsage);
        }
    }
    auto reader = openReader(a, "metrics", err);
    if (!reader) return kExitBadInput;
    auto run = findRun(*reader, a.positional()[0], "metrics", err);
    if (!run) return kExitBadInput;

    if (a.has("--system")) { // the system samples (CPU, host RSS, GPU), as CSV
        const QList<store::SystemSample> samples = reader->systemSamples(run->id, rank);
        out << store::systemSamplesCsv(samples).toStdString();
        if (!reader->lastError().isEmpty()) err << "shardbench-cli metrics: " << s(reader->lastError()) << "\n";
        return reader->lastError().isEmpty() ? 0 : 1;
    }
    if (metric) {
        const store::MetricSeries series = reader->series(run->id, *metric, rank, !a.has("--all-attempts"));
        const char* col = store::metricInfo(*metric).column;
        out << (a.has("--csv") ? "rank,step," : "rank\tstep\t") << col << "\n";
        for (qsizetype i = 0; i < series.size(); ++i)
            if (!std::isnan(series.values[i])) // a step that did not report it (the validation loss between evaluations)
                out << series.ranks[i] << (a.has("--csv") ? "," : "\t") << series.steps[i] << (a.has("--csv") ? "," : "\t")
                << s(a.has("--csv") ? csvNumber(series.values[i]) : number(series.values[i], 8)) << "\n";
        return reader->lastError().isEmpty() ? 0 : 1;
    }
    if (a.has("--csv")) {
        out << "attempt,rank,step,t";
        for (const store::MetricInfo& i : store::metricInfos()) out << "," << i.column;
        out << "\n";
        const bool ok = reader->forEachStepRow(run->id, rank, [&](const store::MetricRow& row) {
            const protocol::StepMetrics& m = row.m;
            QStringList f = {QString::number(m.attempt), QString::number(m.rank), QString::number(m.step), csvNumber(m.t)};
            for (const store::MetricInfo& i : store::metricInfos())
                f << (i.integer ? csvCount(m.*i.field->count) : csvNumber(m.*i.field->real));
            for (QString& x : f) x = csvField(x);
            out << s(f.join(QLatin1Char(','))) << "\n";
        });
        if (!ok) err << "shardbench-cli metrics: " << s(reader->lastError()) << "\n";
        return ok ? 0 : 1;
    }
    // A readable table: one line per step and rank.
    out << s(pad(QStringLiteral("ATT"), 4) + pad(QStringLiteral("RANK"), 5) + pad(QStringLiteral("STEP"), 7) +
             pad(QStringLiteral("LOSS"), 11) + pad(QStringLiteral("VAL LOSS"), 11) + pad(QStringLiteral("LR"), 11) + pad(QStringLiteral("GRAD"), 9) +
             pad(QStringLiteral("TOK/S"), 9) + pad(QStringLiteral("STEP MS"), 9) + pad(QStringLiteral("COMM MS"), 9) +
             pad(QStringLiteral("MEM"), 11) + QStringLiteral("PEAK"))
        << "\n";
    const bool ok = reader->forEachStepRow(run->id, rank, [&](const store::MetricRow& row) {
        const protocol::StepMetrics& m = row.m;
        auto ms = [](double v) { return std::isnan(v) ? QStringLiteral("-") : QString::number(v, 'f', 1); };
        out << s(pad(QString::number(m.attempt), 4) + pad(QString::number(m.rank), 5) + pad(QString::number(m.step), 7) +
                 pad(number(m.loss, 6), 11) + pad(number(m.evalLoss, 6), 11) + pad(number(m.lr, 4), 11) + pad(number(m.gradNorm, 4), 9) +
                 pad(humanRate(m.tokensPerS), 9) + pad(ms(m.stepMs), 9) + pad(ms(m.commExposedMs), 9) +
                 pad(humanBytes(m.memCurrent), 11) + humanBytes(m.memPeak))
            << "\n";
    });
    if (!ok) err << "shardbench-cli metrics: " << s(reader->lastError()) << "\n";
    return ok ? 0 : 1;
}

int cmdLogs(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"--db", "--rank", "--attempt", "--grep"}, {"--launcher", "--no-fetch"});
    int rank = static_cast<int>(a.integer("--rank", -2, 0, plan_limits::kMaxWorldSize - 1));
    const int attempt = static_cast<int>(a.integer("--attempt", -1, 0, 1 << 20));
    if (!a.ok()) return usageError(err, "logs", a.error(), kLogsUsage);
    if (a.positional().size() != 1) return usageError(err, "logs", "expected one run", kLogsUsage);
    if (a.has("--launcher")) {
        if (a.has("--rank")) return usageError(err, "logs", "give --rank or --launcher, not both", kLogsUsage);
        rank = -1;
    }
    auto reader = openReader(a, "logs", err);
    if (!reader) return kExitBadInput;
    auto run = findRun(*reader, a.positional()[0], "logs", err);
    if (!run) return kExitBadInput;
    // A detached run's client holds rank 0's log only: fetch the rank's first (what is new since).
    if (run->isDetached() && rank >= 0 && !a.has("--no-fetch")) {
        const Status fetched = fetchRankLog(storePathOption(a), run->id, rank);
        if (!fetched)
            err << "shardbench-cli logs: run " << run->id << ": cannot fetch rank " << rank << "'s log (" << s(terminalSafe(qtMessage(fetched)))
                << "); showing what the store holds\n";
    }
    const QList<store::LogRecord> logs = reader->logs(run->id, rank, attempt);
    // --grep: the lines containing TEXT, case-insensitively (as the workbench's log filter).
    const QString grep = a.value("--grep") ? q(*a.value("--grep")) : QString();
    for (const store::LogRecord& l : logs) {
        if (!grep.isEmpty() && !l.line.contains(grep, Qt::CaseInsensitive)) continue;
        QString prefix = l.rank < 0 ? QStringLiteral("[launcher]") : QStringLiteral("[rank %1]").arg(l.rank);
        if (run->restarts > 0) prefix = QStringLiteral("[attempt %1]").arg(l.attempt) + prefix;
        // The core already starts its lines with "[rank N]"; do not say it twice.
        const QString text = l.rank >= 0 && l.line.startsWith(QStringLiteral("[rank %1]").arg(l.rank)) && run->restarts == 0
                                 ? l.line
                                 : prefix + QLatin1Char(' ') + l.line;
        out << s(terminalSafe(text)) << "\n"; // rank output and supervisor lines come from the cluster
    }
    if (!reader->lastError().isEmpty()) {
        err << "shardbench-cli logs: " << s(reader->lastError()) << "\n";
        return kExitFailed;
    }
    return kExitOk;
}

} // namespace sb::cli
