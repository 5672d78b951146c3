// shardbench-core and the exported FSDP2 script under the real torchrun 2.x of
// the project's environment (SB_PYTHON -m torch.distributed.run, nothing
// patched): 2 nodes x 2 processes of the core on loopback with the static
// rendezvous and the c10d one on the agent's store (every rank a client), and
// with the c10d one on rank 0's store (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1;
// the only way for a core linked against LibTorch 1.x, whose agent's-store rows
// are skipped: there a static-rendezvous run must fail saying why); a killed rank restarted by --max-restarts 1 resumes from the
// run's newest checkpoint; a failing rank's message reaches torchrun's summary
// through TORCHELASTIC_ERROR_FILE; OMP_NUM_THREADS sets the core's threads;
// the exported script of a small plan, 2 processes, prints the core's losses.
#include "engine_support.hpp"

#include "../safe_signal.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

namespace {

// ctest sets SB_PYTHON: the project's environment, with PyTorch 2.x and its torchrun.
QString python() { return qEnvironmentVariable("SB_PYTHON"); }

// torchrun 2.x's agent hosts the ranks' TCPStore (static rendezvous always, c10d
// unless TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1). A core linked against LibTorch
// 1.x cannot be its client: 2.x's store protocol begins with a VALIDATE opcode
// that shifts every other one, and the server resets 1.x's connection.
bool coreSpeaksAgentStore()
{
    QProcess core;
    core.start(LocalRunner::corePath(), {QStringLiteral("--version")}); // "... (LibTorch 1.13.0, ...)"
    if (!core.waitForFinished(30000)) return false;
    static const QRegularExpression libtorch(QStringLiteral("LibTorch (\\d+)\\."));
    const auto m = libtorch.match(QString::fromUtf8(core.readAllStandardOutput()));
    return m.hasMatch() && m.captured(1).toInt() >= 2;
}

// The core as torchrun's target: an executable, not a Python script.
QStringList core(const QString& plan) { return {QStringLiteral("--no-python"), LocalRunner::corePath(), QStringLiteral("--plan"), plan}; }

struct Node {
    int exitCode = -1;
    QString out;
    // The core's events in this node's output (torchrun passes the ranks' stdout through).
    std::vector<QJsonObject> events(const QString& type) const
    {
        std::vector<QJsonObject> found;
        for (const QString& line : out.split(QLatin1Char('\n'))) {
            const qsizetype at = line.indexOf(QStringLiteral("@sb {"));
            if (at < 0) continue;
            const QJsonObject o = QJsonDocument::fromJson(line.mid(at + 4).toUtf8()).object();
            if (o.value(QStringLiteral("type")).toString() == type) found.push_back(o);
        }
        return found;
    }
};

// The pids of this test's shardbench-core ranks running `plan`.
QList<qint64> corePids(const QString& plan)
{
    QList<qint64> pids;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric) continue;
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QList<QByteArray> argv = f.readAll().split('\0');
        if (!argv.isEmpty() && argv.front().endsWith("shardbench-core") && argv.contains(plan.toUtf8())) pids << pid;
    }
    return pids;
}

} // namespace

class TestEngineTorchrun : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    // `nodes` torchrun agents on this machine, each starting `procs` ranks of `target`.
    std::vector<std::unique_ptr<QProcess>> start(int nodes, int procs, const QStringList& rdzv, const QStringList& target,
                                                 const QProcessEnvironment& extra = {})
    {
        std::vector<std::unique_ptr<QProcess>> agents;
        for (int n = 0; n < nodes; ++n) {
            auto p = std::make_unique<QProcess>();
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            for (const QString& k : extra.keys()) env.insert(k, extra.value(k));
            p->setProcessEnvironment(env);
            p->setProcessChannelMode(QProcess::MergedChannels);
            QStringList args{QStringLiteral("-m"), QStringLiteral("torch.distributed.run"), QStringLiteral("--nnodes"), QString::number(nodes),
                             QStringLiteral("--nproc-per-node"), QString::number(procs)};
            if (rdzv.isEmpty()) // static: node ranks and the master given
                args << QStringLiteral("--node-rank") << QString::number(n) << QStringLiteral("--master-addr")
                     << QStringLiteral("127.0.0.1") << QStringLiteral("--master-port") << QString::number(port_);
            args << rdzv << target;
            p->start(python(), args);
            agents.push_back(std::move(p));
        }
        return agents;
    }

    static std::vector<Node> wait(std::vector<std::unique_ptr<QProcess>>& agents)
    {
        std::vector<Node> nodes;
        for (auto& p : agents) {
            if (!p->waitForFinished(240000)) p->kill();
            p->waitForFinished();
            nodes.push_back({p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1, QString::fromUtf8(p->readAll())});
        }
        return nodes;
    }

    std::vector<double> uninterrupted(const QString& plan, int world)
    {
        const RunResult run = LocalRunner::run(world, {QStringLiteral("--plan"), plan});
        return run.ok() ? losses(run.ranks[0]) : std::vector<double>{};
    }

    // c10d rendezvous on `id`; where the core cannot use the agent's store,
    // `env` gets the opt-out and rank 0 of the core hosts the store instead.
    QStringList c10d(const QString& id, QProcessEnvironment& env) const
    {
        if (!agentStore_) env.insert(QStringLiteral("TORCH_DISABLE_SHARE_RDZV_TCP_STORE"), QStringLiteral("1"));
        return {QStringLiteral("--rdzv-backend"), QStringLiteral("c10d"), QStringLiteral("--rdzv-endpoint"), QStringLiteral("127.0.0.1:%1").arg(port_),
                QStringLiteral("--rdzv-id"), id};
    }

    int port_ = 0;
    bool agentStore_ = false;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        QProcess probe;
        if (!python().isEmpty()) probe.start(python(), {QStringLiteral("-c"), QStringLiteral("import torch.distributed.run")});
        const bool ok = !python().isEmpty() && probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit &&
                        probe.exitCode() == 0;
        if (!ok && qEnvironmentVariableIsSet("CI")) QFAIL("no torchrun 2.x at SB_PYTHON: scripts/install-deps.sh makes the environment");
        if (!ok) QSKIP("no torchrun 2.x at SB_PYTHON (scripts/install-deps.sh makes the project's environment)");
        agentStore_ = coreSpeaksAgentStore();
    }

    void init() { port_ = LocalRunner::freePort(); }

    void twoNodes_data()
    {
        QTest::addColumn<bool>("dynamic");
        QTest::addColumn<bool>("shared");
        QTest::newRow("static rendezvous: the agent's store") << false << true;
        QTest::newRow("c10d rendezvous: the agent's store") << true << true;
        QTest::newRow("c10d rendezvous: rank 0's store") << true << false;
    }

    void twoNodes()
    {
        QFETCH(bool, dynamic);
        QFETCH(bool, shared);
        if (shared && !agentStore_) QSKIP("the core's LibTorch 1.x cannot be a client of torchrun 2.x's store: link LibTorch 2.x");
        sb::Plan p = smallPlan("llama3-8b", 2, 6);
        p.mesh.nodes = 2;
        const QString plan = writePlan(tmp_, QStringLiteral("two-nodes-%1%2.plan.json").arg(dynamic).arg(shared), p);
        QProcessEnvironment env;
        if (!shared) env.insert(QStringLiteral("TORCH_DISABLE_SHARE_RDZV_TCP_STORE"), QStringLiteral("1"));
        const QStringList rdzv = dynamic ? c10d(QStringLiteral("two"), env) : QStringList{};
        auto agents = start(2, 2, rdzv, core(plan), env);
        const std::vector<Node> nodes = wait(agents);
        for (const Node& n : nodes) QVERIFY2(n.exitCode == 0, qPrintable(n.out.right(3000)));
        // The store the ranks used: with the static rendezvous the agent's, at the
        // port given to torchrun; with c10d another port either way (torchrun
        // 2.15's rank-0 agent shares a store it opens on a free port, or the
        // core's rank 0 hosts one).
        for (const Node& n : nodes)
            for (const QJsonObject& h : n.events(QStringLiteral("hello")))
                QCOMPARE(h.value(QStringLiteral("master")).toString().endsWith(QStringLiteral(":%1").arg(port_)), shared && !dynamic);
        std::vector<double> got;
        for (const Node& n : nodes)
            for (const QJsonObject& s : n.events(QStringLiteral("step")))
                if (s.value(QStringLiteral("rank")).toInt() == 0) got.push_back(s.value(QStringLiteral("loss")).toDouble());
        QCOMPARE(got.size(), std::size_t(6));
        // The same losses as the ranks started by hand with the same plan.
        QVERIFY(maxRelativeDifference(got, uninterrupted(plan, 4)) < 1e-9);
    }

    // Where the core cannot use the agent's store, a run on it fails within
    // the rendezvous time-out and says why, and what to do instead.
    void agentStoreRefusedClearly()
    {
        if (agentStore_) QSKIP("this core is built against LibTorch 2.x: it uses the agent's store (twoNodes)");
        const QString plan = writePlan(tmp_, QStringLiteral("agent-store.plan.json"), smallPlan("llama3-8b", 2, 2));
        QProcessEnvironment env;
        env.insert(QStringLiteral("SB_RENDEZVOUS_TIMEOUT_S"), QStringLiteral("10"));
        auto agents = start(1, 2, {}, core(plan), env); // static rendezvous: always the agent's store
        const std::vector<Node> nodes = wait(agents);
        QVERIFY(nodes.front().exitCode != 0);
        QVERIFY2(nodes.front().out.contains(QStringLiteral("built against LibTorch 1.x, which cannot use the store of torchrun 2.x's agent")) &&
                     nodes.front().out.contains(QStringLiteral("TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1")),
                 qPrintable(nodes.front().out.right(3000)));
    }

    void killedRankResumes()
    {
        sb::Plan p = smallPlan("llama3-8b", 2, 300);
        p.training.checkpoint.dir = tmp_.filePath(QStringLiteral("ckpt")).toStdString();
        p.training.checkpoint.interval = 20;
        const QString plan = writePlan(tmp_, QStringLiteral("restart.plan.json"), p);
        QProcessEnvironment env;
        auto agents = start(1, 2, c10d(QStringLiteral("job7"), env) + QStringList{QStringLiteral("--max-restarts"), QStringLiteral("1")},
                            core(plan), env);
        // Once the run has a checkpoint (under torchrun's run id), one rank dies.
        QElapsedTimer t;
        t.start();
        const QString first = tmp_.filePath(QStringLiteral("ckpt/job7/step-000020"));
        while (!QFile::exists(first + QStringLiteral("/index.json")) && t.elapsed() < 120000) QTest::qWait(50);
        QVERIFY2(QFile::exists(first), "no checkpoint within 120 s");
        const QList<qint64> pids = corePids(plan);
        QCOMPARE(pids.size(), 2);
        QCOMPARE(sb::test::signalProcess(pids.back(), SIGKILL), 0);
        const std::vector<Node> nodes = wait(agents);
        QVERIFY2(nodes[0].exitCode == 0, qPrintable(nodes[0].out.right(3000)));
        QVERIFY2(nodes[0].out.contains(QStringLiteral("resumed from ") + tmp_.filePath(QStringLiteral("ckpt/job7/step-"))),
                 qPrintable(nodes[0].out.right(3000)));
        std::vector<QJsonObject> done;
        for (const QJsonObject& d : nodes[0].events(QStringLiteral("done")))
            if (d.value(QStringLiteral("status")).toString() == QStringLiteral("ok")) done.push_back(d);
        QCOMPARE(done.size(), std::size_t(2));
        // Resumed exactly: the final loss of a run that was never interrupted.
        const std::vector<double> whole = uninterrupted(plan, 2);
        QVERIFY(!whole.empty());
        QVERIFY(std::abs(done.front().value(QStringLiteral("final_loss")).toDouble() - whole.back()) <= 1e-9 * whole.back());
    }

    void failureReachesTorchrun()
    {
        sb::Plan p = smallPlan("llama3-8b", 2, 3);
        p.training.data = {sb::DataConfig::Tokens, tmp_.filePath(QStringLiteral("no-such-tokens.bin")).toStdString()};
        const QString plan = writePlan(tmp_, QStringLiteral("fails.plan.json"), p);
        QProcessEnvironment env;
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("3"));
        auto agents = start(1, 2, c10d(QStringLiteral("fails"), env), core(plan), env);
        const std::vector<Node> nodes = wait(agents);
        QVERIFY(nodes[0].exitCode != 0);
        // torchrun's summary shows the core's error from TORCHELASTIC_ERROR_FILE
        // (without it: "error_file: <N/A>" and a hint about tracebacks).
        static const QRegularExpression summary(QStringLiteral("traceback\\s*:\\s*shardbench-core \\(C\\+\\+\\): cannot open data file .*no-such-tokens.bin"));
        QVERIFY2(nodes[0].out.contains(summary), qPrintable(nodes[0].out.right(4000)));
        // OMP_NUM_THREADS, as torchrun passes it, is the core's thread count.
        const std::vector<QJsonObject> hello = nodes[0].events(QStringLiteral("hello"));
        QVERIFY(!hello.empty());
        for (const QJsonObject& h : hello) QCOMPARE(h.value(QStringLiteral("threads")).toInt(), 3);
    }

    void exportedScript()
    {
        // The plan's FSDP2 script as `shardbench-cli export-script` writes it,
        // run by torchrun as a user would (static rendezvous, 2 processes).
        const sb::Plan p = smallPlan("llama3-8b", 2, 4);
        const QString plan = writePlan(tmp_, QStringLiteral("script.plan.json"), p);
        const QString script = tmp_.filePath(QStringLiteral("train.py"));
        QProcess cli;
        cli.start(LocalRunner::cliPath(),
                  {QStringLiteral("export-script"), plan, QStringLiteral("-o"), script});
        QVERIFY(cli.waitForFinished(60000) && cli.exitStatus() == QProcess::NormalExit);
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        auto agents = start(1, 2, {}, {script});
        const std::vector<Node> nodes = wait(agents);
        // The end of the output (torchrun's summary of a failed rank): Qt Test keeps about 1000 characters of a message.
        QVERIFY2(nodes[0].exitCode == 0, qPrintable(nodes[0].out.right(900)));
        // Rank 0's lines `step N loss X grad_norm Y ...`, in order.
        static const QRegularExpression stepLine(QStringLiteral("^step (\\d+) loss (\\S+) grad_norm (\\S+)"),
                                                 QRegularExpression::MultilineOption);
        std::vector<double> got;
        for (auto it = stepLine.globalMatch(nodes[0].out); it.hasNext();) {
            const auto m = it.next();
            QCOMPARE(m.captured(1).toInt(), int(got.size()) + 1);
            got.push_back(m.captured(2).toDouble());
        }
        QVERIFY2(got.size() == std::size_t(4), qPrintable(nodes[0].out.right(4000)));
        // The printed losses have 6 decimals (2e-7 relative); a wrong layout or
        // initialisation moves them by 1e-4 relative or more.
        const double diff = maxRelativeDifference(got, uninterrupted(plan, 2));
        QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("relative difference %1\n%2").arg(diff).arg(nodes[0].out.right(4000))));
    }
};

QTEST_GUILESS_MAIN(TestEngineTorchrun)
#include "tst_engine_torchrun.moc"
