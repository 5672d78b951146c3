// shardbench-core under the real torchrun of Debian's python3-torch (1.13,
// through data/torchrun/torchrun.py, which fixes only its argument parser on
// Python 3.11): 2 nodes x 2 processes on loopback with the static rendezvous
// (the agent hosts the store: every rank is a client) and the c10d one; a
// killed rank restarted by --max_restarts 1 resumes from the run's newest
// checkpoint; a failing rank's message reaches torchrun's summary through
// TORCHELASTIC_ERROR_FILE; OMP_NUM_THREADS sets the core's threads.
#include "engine_support.hpp"

#include "../safe_signal.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

QString torchrunScript()
{
    return qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/engine/data/torchrun/torchrun.py");
}

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

    // `nodes` torchrun agents on this machine, each starting `procs` ranks of the core.
    std::vector<std::unique_ptr<QProcess>> start(int nodes, int procs, const QStringList& rdzv, const QString& plan,
                                                 const QProcessEnvironment& extra = {})
    {
        std::vector<std::unique_ptr<QProcess>> agents;
        for (int n = 0; n < nodes; ++n) {
            auto p = std::make_unique<QProcess>();
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            for (const QString& k : extra.keys()) env.insert(k, extra.value(k));
            p->setProcessEnvironment(env);
            p->setProcessChannelMode(QProcess::MergedChannels);
            QStringList args{torchrunScript(), QStringLiteral("--nnodes"), QString::number(nodes), QStringLiteral("--nproc_per_node"),
                             QString::number(procs)};
            if (rdzv.isEmpty()) // static: node ranks and the master given
                args << QStringLiteral("--node_rank") << QString::number(n) << QStringLiteral("--master_addr")
                     << QStringLiteral("127.0.0.1") << QStringLiteral("--master_port") << QString::number(port_);
            args << rdzv << QStringLiteral("--no_python") << LocalRunner::corePath() << QStringLiteral("--plan") << plan;
            p->start(kPython, args);
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

    int port_ = 0;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        const bool ok = QProcess::execute(kPython, {QStringLiteral("-c"), QStringLiteral("import torch.distributed.run")}) == 0;
        if (!ok && qEnvironmentVariableIsSet("CI")) QFAIL("python3-torch is missing: scripts/install-deps.sh installs it");
        if (!ok) QSKIP("Debian's python3-torch is not installed");
    }

    void init() { port_ = LocalRunner::freePort(); }

    void twoNodes_data()
    {
        QTest::addColumn<bool>("c10d");
        QTest::newRow("static rendezvous: the agent's store") << false;
        QTest::newRow("c10d rendezvous") << true;
    }

    void twoNodes()
    {
        QFETCH(bool, c10d);
        sb::Plan p = smallPlan("llama3-8b", 2, 6);
        p.mesh.nodes = 2;
        const QString plan = writePlan(tmp_, QStringLiteral("two-nodes-%1.plan.json").arg(c10d), p);
        const QStringList rdzv = c10d ? QStringList{QStringLiteral("--rdzv_backend"), QStringLiteral("c10d"), QStringLiteral("--rdzv_endpoint"),
                                                    QStringLiteral("127.0.0.1:%1").arg(port_), QStringLiteral("--rdzv_id"), QStringLiteral("two")}
                                      : QStringList{};
        auto agents = start(2, 2, rdzv, plan);
        const std::vector<Node> nodes = wait(agents);
        for (const Node& n : nodes) QVERIFY2(n.exitCode == 0, qPrintable(n.out.right(3000)));
        std::vector<double> got;
        for (const Node& n : nodes)
            for (const QJsonObject& s : n.events(QStringLiteral("step")))
                if (s.value(QStringLiteral("rank")).toInt() == 0) got.push_back(s.value(QStringLiteral("loss")).toDouble());
        QCOMPARE(got.size(), std::size_t(6));
        // The same losses as the ranks started by hand with the same plan.
        QVERIFY(maxRelativeDifference(got, uninterrupted(plan, 4)) < 1e-9);
    }

    void killedRankResumes()
    {
        sb::Plan p = smallPlan("llama3-8b", 2, 300);
        p.training.checkpoint.dir = tmp_.filePath(QStringLiteral("ckpt")).toStdString();
        p.training.checkpoint.interval = 20;
        const QString plan = writePlan(tmp_, QStringLiteral("restart.plan.json"), p);
        auto agents = start(1, 2, {QStringLiteral("--rdzv_backend"), QStringLiteral("c10d"), QStringLiteral("--rdzv_endpoint"),
                                   QStringLiteral("127.0.0.1:%1").arg(port_), QStringLiteral("--rdzv_id"), QStringLiteral("job7"),
                                   QStringLiteral("--max_restarts"), QStringLiteral("1")},
                            plan);
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
        auto agents = start(1, 2, {}, plan, env);
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
};

QTEST_GUILESS_MAIN(TestEngineTorchrun)
#include "tst_engine_torchrun.moc"
