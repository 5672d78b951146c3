#include "run_recorder.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QSysInfo>

namespace sb::launch {

namespace {
double now() { return QDateTime::currentMSecsSinceEpoch() / 1000.0; }
} // namespace

store::NewRun newRunRecord(const PreparedLaunch& l)
{
    store::NewRun run;
    run.uid = l.uid;
    run.name = l.config.name;
    run.planJson = QString::fromUtf8(l.planJson);
    run.backend = backendName(l.config.backend());
    for (const HostSpec& h : l.hosts) run.hosts << h.label();
    run.worldSize = l.worldSize;
    run.maxRestarts = l.config.maxRestarts;
    if (l.config.parentRun >= 0) run.parentRun = l.config.parentRun;
    run.resumedFrom = l.config.resumeFrom;
    run.initFrom = l.config.initFrom;
    if (l.config.engine != Engine::Core) {
        run.engine = QLatin1String(engineName(l.config.engine));
        run.script = l.config.script;
        run.scriptArgs = l.config.scriptArgs;
        run.python = l.config.python;
    }
    run.createdAt = now();
    run.launcherHost = QSysInfo::machineHostName();
    run.launcherPid = QCoreApplication::applicationPid();
    return run;
}

RunRecorder::RunRecorder(store::RunStore& store, RunSupervisor& supervisor, RecorderOptions options)
    : store_(store), supervisor_(supervisor), options_(options)
{
    const Result<qint64> id = store_.createRun(newRunRecord(supervisor.launch()));
    if (!id) {
        error_ = QStringLiteral("cannot record the run: ") + qtMessage(id);
        return;
    }
    runId_ = id.value();
    rows_.emplace(store_, runId_, options_);
    rows_->setPlace([this](int rank) { return supervisor_.hostOfRank(rank); }, supervisor.launch().worldSize);
    supervisor.addMetricsSink(this);

    connect(&supervisor, &RunSupervisor::statusChanged, this, [this](store::RunStatus s, const CodedReason& reason) {
        store::RunUpdate u;
        u.runId = runId_;
        u.status = s;
        if (!reason.isEmpty()) recordReason(u, reason);
        if (s == store::RunStatus::Running && supervisor_.attempt() == 0) u.startedAt = now();
        store_.updateRun(u);
    });
    connect(&supervisor, &RunSupervisor::progress, this, &RunRecorder::launcherLog);
    connect(&supervisor, &RunSupervisor::hostReady, this, [this](const HostInfo& h) {
        if (supervisor_.launch().config.backend() == BackendKind::Slurm) {
            recordNode(h);
            return;
        }
        store::HostRecord r;
        r.name = h.name;
        r.hostname = h.hostname;
        r.user = h.user;
        r.port = h.port;
        r.keyFingerprint = h.keyFingerprint;
        r.lastUsed = now();
        for (const HostSpec& s : supervisor_.launch().hosts)
            if (s.name == h.name) r.slots = s.slots;
        store_.upsertHost(r);
    });
    connect(&supervisor, &RunSupervisor::attemptStarted, this, [this](int attempt, const QString& resumeDir) {
        flushTails();
        attempt_ = attempt;
        store::AttemptRecord a;
        a.runId = runId_;
        a.attempt = attempt;
        a.startedAt = now();
        a.status = store::statusName(store::RunStatus::Running);
        a.resumeDir = resumeDir;
        store_.recordAttempt(a);
        if (attempt > 0) {
            store::RunUpdate u;
            u.runId = runId_;
            u.restarts = attempt;
            store_.updateRun(u);
        }
    });
    connect(&supervisor, &RunSupervisor::attemptEnded, this, [this](store::AttemptRecord a) {
        a.runId = runId_;
        store_.recordAttempt(a);
    });
    connect(&supervisor, &RunSupervisor::rankStarted, this, [this](int, int rank, qint64 pid) {
        launcherLog(QStringLiteral("rank %1 started on %2 (pid %3)").arg(rank).arg(supervisor_.hostOfRank(rank)).arg(pid));
    });
    connect(&supervisor, &RunSupervisor::rankExited, this, [this](int, const RankExit& e) {
        launcherLog(QStringLiteral("rank %1 %2").arg(e.rank).arg(describeExit(e)));
    });
    connect(&supervisor, &RunSupervisor::eventReceived, this, [this](int attempt, const protocol::CoreEvent& e) {
        if (e.type != QLatin1String(protocol::type::step)) rows_->event(attempt, e, QByteArray::fromStdString(e.body.dump())); // steps: log()
    });
    connect(&supervisor, &RunSupervisor::outputLine, this,
            [this](int attempt, int rank, OutputStream stream, const QString& line) {
                addLog(attempt, rank, stream == OutputStream::Stdout ? store::LogStream::Stdout : store::LogStream::Stderr, line);
            });
    connect(&supervisor, &RunSupervisor::malformedLine, this,
            [this](int, int rank, const QString& error, const QString& line) {
                if (++malformed_ > options_.malformedLogged) return;
                launcherLog(QStringLiteral("rank %1: skipped a malformed event line (%2): %3").arg(rank).arg(error, line));
            });
    connect(&supervisor, &RunSupervisor::finished, this, [this](const RunOutcome& o) {
        flushTails();
        store::RunUpdate u;
        u.runId = runId_;
        u.status = o.status;
        u.reason = o.reason;
        u.reasonCode = o.reasonCode;
        u.reasonArgs = o.reasonArgs;
        u.endedAt = o.endedAt;
        u.failingRank = o.failingRank;
        u.failingHost = o.failingHost;
        u.restarts = o.restarts;
        u.stepsDone = o.stepsDone;
        u.finalLoss = o.finalLoss;
        u.malformedLines = o.malformedLines;
        store_.updateRun(u);
        if (const Status stored = store_.flush(); !stored) error_ = QStringLiteral("some rows could not be stored: ") + qtMessage(stored);
    });
}

RunRecorder::~RunRecorder()
{
    supervisor_.removeMetricsSink(this);
}

void RunRecorder::log(const protocol::StepMetrics& step)
{
    rows_->step(step);
}

void RunRecorder::close() {}

void RunRecorder::recordNode(const HostInfo& h)
{
    // Slurm nodes are not hosts to connect to: they are named in the run only.
    const QList<HostSpec>& nodes = supervisor_.launch().hosts;
    nodeNames_.insert(h.hostIndex, h.name);
    QStringList labels;
    for (int i = 0; i < nodes.size(); ++i) labels << HostSpec{nodeNames_.value(i, nodes[i].name), nodes[i].slots}.label();
    store::RunUpdate u;
    u.runId = runId_;
    u.hosts = labels;
    store_.updateRun(u);
}

void RunRecorder::launcherLog(const QString& line)
{
    rows_->launcherLine(attempt_, line);
}

void RunRecorder::addLog(int attempt, int rank, store::LogStream stream, const QString& line)
{
    store::LogRecord r;
    r.runId = runId_;
    r.attempt = attempt;
    r.rank = rank;
    r.t = now();
    r.stream = stream;
    r.line = line;
    if (rows_->rankLog(r)) return;
    LogTail& tail = tails_[{attempt, rank}];
    tail.lines.push_back(std::move(r));
    if (static_cast<int>(tail.lines.size()) > options_.tailLines) {
        tail.lines.pop_front();
        ++tail.dropped;
    }
}

void RunRecorder::flushTails()
{
    const auto dropped = rows_->takeDroppedEvents();
    for (auto it = dropped.begin(); it != dropped.end(); ++it) // in the rank's log, where its events would be
        rows_->launcherLine(it.key().first,
                            QStringLiteral("[%1 events of rank %2 not stored: %3 bytes over the %4-byte budget]")
                                .arg(it.value().events)
                                .arg(it.key().second)
                                .arg(it.value().bytes)
                                .arg(options_.eventBytes),
                            {}, 0, it.key().second);
    for (auto it = tails_.begin(); it != tails_.end(); ++it) {
        LogTail& tail = it.value();
        if (tail.lines.empty()) continue;
        if (tail.dropped > 0) {
            store::LogRecord gap = tail.lines.front();
            gap.stream = store::LogStream::Launcher;
            gap.line = QStringLiteral("[%1 lines of rank %2 not stored]").arg(tail.dropped).arg(it.key().second);
            store_.addLog(gap);
        }
        for (const store::LogRecord& r : tail.lines) store_.addLog(r);
        tail.lines.clear();
        tail.dropped = 0;
    }
}

} // namespace sb::launch
