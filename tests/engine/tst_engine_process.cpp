// The process contract of shardbench-core (docs/protocol.md): bad input gives
// a clear message and a non-zero exit, never a hang; a dying peer fails the
// run; events are well-formed; file data sources work; non-finite initial
// weights are refused and a loss that is not finite stops the run.
#include "engine_support.hpp"

#include "plan/plan_json.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

#include <unistd.h>

namespace {

struct Single {
    int exitCode = -1;
    QString out, err;
    qint64 ms = 0;
};

Single runSingle(const QStringList& args, const QHash<QString, QString>& env, int timeoutMs = 60000)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const char* k : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"})
        e.remove(QString::fromLatin1(k));
    for (const QString& k : e.keys())
        if (k.startsWith(QStringLiteral("SLURM_"))) e.remove(k); // the suites may themselves run under Slurm
    for (auto it = env.begin(); it != env.end(); ++it) e.insert(it.key(), it.value());
    p.setProcessEnvironment(e);
    QElapsedTimer t;
    t.start();
    p.start(LocalRunner::corePath(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError()), t.elapsed()};
}

// Whether the core under test was built against a CUDA LibTorch (its --version
// says so): such a core refuses a cuda plan only for want of a device here.
bool coreHasCuda()
{
    static const bool cuda = runSingle({QStringLiteral("--version")}, {}).out.contains(QStringLiteral("CUDA and NCCL"));
    return cuda;
}

} // namespace

class EngineProcess : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString tiny_;

private Q_SLOTS:
    void initTestCase() { tiny_ = writePlan(dir_, QStringLiteral("tiny1.json"), tinyPlan(1, 2, 3)); }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("env"); // NAME=VALUE
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        const QString missing = dir_.filePath(QStringLiteral("nope.json"));
        QFile bad(dir_.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"shardbench-plan\",\n \"version\": 1,\n \"mesh\": {\"nodes\": }\n}");
        bad.close();
        const QString badPath = bad.fileName();
        const QString p2 = writePlan(dir_, QStringLiteral("tiny4.json"), tinyPlan(4, 2, 3));
        // A model imported from a PyTorch module tree: planned and estimated, not trained.
        const QString importedPath = qEnvironmentVariable("SB_SOURCE_DIR") +
                                     QStringLiteral("/tests/core/data/estimate/golden/imported-small.plan.json");
        sb::Plan tokens = tinyPlan(1, 2, 3);
        tokens.training.data = {sb::DataConfig::Tokens, dir_.filePath(QStringLiteral("missing.bin")).toStdString()};
        const QString tokensPath = writePlan(dir_, QStringLiteral("tokens-missing.json"), tokens);

        QTest::newRow("no --plan") << QStringList{} << QStringList{} << 2 << QStringLiteral("missing --plan");
        QTest::newRow("unknown argument") << QStringList{QStringLiteral("--frobnicate")} << QStringList{} << 2
                                          << QStringLiteral("--frobnicate");
        QTest::newRow("missing plan file") << QStringList{QStringLiteral("--plan"), missing} << QStringList{} << 2
                                           << QStringLiteral("nope.json");
        QTest::newRow("malformed plan") << QStringList{QStringLiteral("--plan"), badPath} << QStringList{} << 2
                                        << QStringLiteral("line 3, column");
        QTest::newRow("RANK without WORLD_SIZE") << QStringList{QStringLiteral("--plan"), tiny_}
                                                 << QStringList{QStringLiteral("RANK=0")} << 2 << QStringLiteral("WORLD_SIZE");
        QTest::newRow("RANK not a number") << QStringList{QStringLiteral("--plan"), tiny_}
                                           << QStringList{QStringLiteral("RANK=abc"), QStringLiteral("WORLD_SIZE=1")} << 2
                                           << QStringLiteral("RANK=\\\"abc\\\"");
        QTest::newRow("RANK >= WORLD_SIZE") << QStringList{QStringLiteral("--plan"), tiny_}
                                            << QStringList{QStringLiteral("RANK=2"), QStringLiteral("WORLD_SIZE=2"),
                                                           QStringLiteral("MASTER_ADDR=127.0.0.1"), QStringLiteral("MASTER_PORT=1")}
                                            << 2 << QStringLiteral("RANK 2 is not below WORLD_SIZE 2");
        QTest::newRow("mesh does not match WORLD_SIZE") << QStringList{QStringLiteral("--plan"), p2} << QStringList{} << 2
                                                        << QStringLiteral("WORLD_SIZE is 1");
        QTest::newRow("model the core cannot run") << QStringList{QStringLiteral("--plan"), importedPath} << QStringList{} << 2
                                                   << QStringLiteral("\\\"imported\\\"");
        QTest::newRow("system sample period not a number")
            << QStringList{QStringLiteral("--plan"), tiny_} << QStringList{QStringLiteral("SB_SYSTEM_SAMPLE_S=often")} << 2
            << QStringLiteral("SB_SYSTEM_SAMPLE_S=\\\"often\\\" is not an integer from 0 to 86400");
        QTest::newRow("missing token file") << QStringList{QStringLiteral("--plan"), tokensPath} << QStringList{} << 2
                                            << QStringLiteral("missing.bin");
        // This build's LibTorch has no CUDA: a cuda plan is refused, naming the field.
        sb::Plan cuda = tinyPlan(1, 2, 3);
        cuda.mesh.device = sb::Device::Cuda;
        const QString cudaPath = writePlan(dir_, QStringLiteral("cuda.json"), cuda);
        QTest::newRow("cuda plan without a GPU") << QStringList{QStringLiteral("--plan"), cudaPath} << QStringList{} << 2
                                                 << (coreHasCuda() ? QStringLiteral("no CUDA device visible")
                                                                   : QStringLiteral("built without CUDA"));
    }

    void versionNamesTheBuild()
    {
        const Single r = runSingle({QStringLiteral("--version")}, {});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("shardbench-core ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("(LibTorch ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(coreHasCuda() ? QStringLiteral("CUDA and NCCL") : QStringLiteral("CPU and Gloo")), qPrintable(r.out));
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, env);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        QHash<QString, QString> e;
        for (const QString& kv : env) e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        const Single r = runSingle(args, e);
        QCOMPARE(r.exitCode, exitCode);
        const QString all = r.out + r.err;
        QVERIFY2(all.contains(message), qPrintable(all));
        if (!args.isEmpty() && args.first() == QStringLiteral("--plan"))
            QVERIFY2(r.out.contains(QStringLiteral("@sb {\"type\":\"error\"")), qPrintable(r.out));
    }

    void srunTaskNeedsNoTorchrunVariables()
    {
        // One srun task: rank, world and master come from SLURM_* alone.
        const QHash<QString, QString> slurm{{QStringLiteral("SLURM_STEP_ID"), QStringLiteral("0")},
                                            {QStringLiteral("SLURM_PROCID"), QStringLiteral("0")},
                                            {QStringLiteral("SLURM_NTASKS"), QStringLiteral("1")},
                                            {QStringLiteral("SLURM_LOCALID"), QStringLiteral("0")},
                                            {QStringLiteral("SLURM_NODEID"), QStringLiteral("0")},
                                            {QStringLiteral("SLURM_STEP_TASKS_PER_NODE"), QStringLiteral("1")},
                                            {QStringLiteral("SLURM_STEP_NODELIST"), QStringLiteral("gpu[07-09,12],cpu1")},
                                            {QStringLiteral("SLURM_JOB_ID"), QStringLiteral("123456")}};
        const Single r = runSingle({QStringLiteral("--plan"), tiny_}, slurm);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("\"master\":\"gpu07:18456\"")), qPrintable(r.out.left(600)));
        QVERIFY2(r.out.contains(QStringLiteral("\"env\":\"slurm\"")), qPrintable(r.out.left(600)));

        QHash<QString, QString> bad = slurm;
        bad.insert(QStringLiteral("SLURM_STEP_NODELIST"), QStringLiteral("gpu[07-"));
        const Single b = runSingle({QStringLiteral("--plan"), tiny_}, bad);
        QCOMPARE(b.exitCode, 2);
        QVERIFY2(b.out.contains(QStringLiteral("SLURM_STEP_NODELIST")), qPrintable(b.out));
    }

    void twoSrunTasksTrainTogether()
    {
        // Two tasks of one step on this host (srun -n 2): ranks from SLURM_PROCID,
        // local layout from SLURM_STEP_TASKS_PER_NODE; an explicit MASTER_PORT wins.
        const QString plan = writePlan(dir_, QStringLiteral("srun2.json"), tinyPlan(2, 2, 3));
        const int port = LocalRunner::freePort();
        QProcess procs[2];
        for (int r = 0; r < 2; ++r) {
            QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
            for (const char* k : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR"})
                e.remove(QString::fromLatin1(k));
            e.insert(QStringLiteral("SLURM_STEP_ID"), QStringLiteral("0"));
            e.insert(QStringLiteral("SLURM_PROCID"), QString::number(r));
            e.insert(QStringLiteral("SLURM_LOCALID"), QString::number(r));
            e.insert(QStringLiteral("SLURM_NTASKS"), QStringLiteral("2"));
            e.insert(QStringLiteral("SLURM_NODEID"), QStringLiteral("0"));
            e.insert(QStringLiteral("SLURM_STEP_TASKS_PER_NODE"), QStringLiteral("2"));
            e.insert(QStringLiteral("SLURM_STEP_NODELIST"), QStringLiteral("localhost"));
            e.insert(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("7"));
            e.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
            e.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
            procs[r].setProcessEnvironment(e);
            procs[r].start(LocalRunner::corePath(), {QStringLiteral("--plan"), plan});
        }
        for (QProcess& p : procs) {
            if (!p.waitForFinished(120000)) p.kill();
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     qPrintable(out.right(400) + QString::fromUtf8(p.readAllStandardError()).right(400)));
            QVERIFY2(out.contains(QStringLiteral("\"local_world\":2")), qPrintable(out.left(600)));
            QVERIFY2(out.contains(QStringLiteral("\"type\":\"done\"")), qPrintable(out.right(400)));
        }
    }

    void unreachableMasterFailsWithinTheTimeout()
    {
        const int port = LocalRunner::freePort(); // nobody listens there
        QElapsedTimer t;
        t.start();
        const Single r = runSingle({QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("t2.json"), tinyPlan(2, 2, 3))},
                                   {{QStringLiteral("RANK"), QStringLiteral("1")},
                                    {QStringLiteral("WORLD_SIZE"), QStringLiteral("2")},
                                    {QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1")},
                                    {QStringLiteral("MASTER_PORT"), QString::number(port)},
                                    {QStringLiteral("SB_RENDEZVOUS_TIMEOUT_S"), QStringLiteral("3")}});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("rendezvous")), qPrintable(r.out));
        QVERIFY2(t.elapsed() < 30000, "bounded wait");
    }

    void aTakenRendezvousPortIsRecognised()
    {
        // Rank 0 cannot listen where another process already does: it fails at
        // once, and the suites' runners recognise the message to start again on
        // another port (its wording differs between LibTorch 1.13 and 2.x).
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        const Single r = runSingle({QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("t3.json"), tinyPlan(2, 2, 3))},
                                   {{QStringLiteral("RANK"), QStringLiteral("0")},
                                    {QStringLiteral("WORLD_SIZE"), QStringLiteral("2")},
                                    {QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1")},
                                    {QStringLiteral("MASTER_PORT"), QString::number(squatter.serverPort())},
                                    {QStringLiteral("SB_RENDEZVOUS_TIMEOUT_S"), QStringLiteral("5")}});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.out.contains(QStringLiteral("rendezvous")), qPrintable(r.out));
        QVERIFY2(LocalRunner::rendezvousPortTaken(r.err + r.out), qPrintable(r.err.left(600) + r.out.left(600)));
    }

    void deadPeerFailsTheRun()
    {
        // kill -9 rank 1 after the first step: rank 0 must exit non-zero, not hang.
        const QString plan = writePlan(dir_, QStringLiteral("long.json"), tinyPlan(2, 2, 100000));
        auto procs = LocalRunner::start(2, {QStringLiteral("--plan"), plan});
        QProcess* ranks[2] = {procs[0].get(), procs[1].get()};
        QByteArray out0;
        QElapsedTimer t;
        t.start();
        while (!out0.contains("\"type\":\"step\"") && t.elapsed() < 60000) {
            ranks[0]->waitForReadyRead(200);
            out0 += ranks[0]->readAllStandardOutput();
        }
        QVERIFY2(out0.contains("\"type\":\"step\""), "rank 0 never reported a step");
        ranks[1]->kill(); // SIGKILL
        ranks[1]->waitForFinished();
        t.restart();
        const bool finished = ranks[0]->waitForFinished(60000);
        if (!finished) ranks[0]->kill();
        QVERIFY2(finished, "rank 0 hung after its peer died");
        QVERIFY(ranks[0]->exitCode() != 0);
        out0 += ranks[0]->readAllStandardOutput();
        QVERIFY2(out0.contains("\"type\":\"error\""), out0.right(400).constData());
        // Not the collective timeout (300 s): the shared-memory wait sees the
        // peer's process gone, as Gloo sees its socket close.
        QVERIFY2(t.elapsed() < 20000, qPrintable(QStringLiteral("noticed after %1 ms").arg(t.elapsed())));
        qInfo("rank 0 noticed the dead peer after %lld ms", t.elapsed());
    }

    void eventsAreWellFormed()
    {
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), tiny_, QStringLiteral("--run-id"), QStringLiteral("r42")});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const RankResult& r = run.ranks[0];
        QCOMPARE(r.ofType(QStringLiteral("hello")).size(), std::size_t(1));
        QCOMPARE(r.ofType(QStringLiteral("plan")).size(), std::size_t(1));
        QCOMPARE(r.ofType(QStringLiteral("step")).size(), std::size_t(3));
        QCOMPARE(r.ofType(QStringLiteral("done")).size(), std::size_t(1));
        for (const QJsonObject& e : r.events) {
            QCOMPARE(e.value(QStringLiteral("run_id")).toString(), QStringLiteral("r42"));
            QCOMPARE(e.value(QStringLiteral("v")).toInt(), 1);
            QVERIFY(e.value(QStringLiteral("t")).toDouble() > 1.6e9);
        }
        for (const char* key : {"loss", "lr", "grad_norm", "tokens", "tokens_per_s", "step_ms", "forward_ms", "backward_ms",
                                "optimizer_ms", "comm_exposed_ms", "mem_current", "mem_peak", "mem_reserved", "device_mem_used"})
            QVERIFY2(r.ofType(QStringLiteral("step")).front().contains(QLatin1String(key)), key);
    }

    // Every rank samples its process at once and then every SB_SYSTEM_SAMPLE_S
    // seconds (docs/protocol.md, `system`): CPU time used and a resident set
    // that a LibTorch process has (more than 10 MiB) and the machine can hold.
    void systemSamplesFromEveryRank()
    {
        const QString plan = writePlan(dir_, QStringLiteral("system2.json"), tinyPlan(2, 2, 1000));
        QProcessEnvironment env;
        env.insert(QStringLiteral("SB_SYSTEM_SAMPLE_S"), QStringLiteral("1"));
        const RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), plan}, 300000, env);
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        const double machine = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
        for (int rank = 0; rank < 2; ++rank) {
            const RankResult& r = run.ranks[static_cast<std::size_t>(rank)];
            const std::vector<QJsonObject> samples = r.ofType(QStringLiteral("system"));
            const double seconds = r.ofType(QStringLiteral("done")).front().value(QStringLiteral("t")).toDouble() -
                                   r.ofType(QStringLiteral("hello")).front().value(QStringLiteral("t")).toDouble();
            qInfo("rank %d: %zu samples in %.1f s", rank, samples.size(), seconds);
            // The first at once, then one a second (a sample may be cut off by the end).
            QVERIFY2(samples.size() >= 1 + static_cast<std::size_t>(seconds * 0.5),
                     qPrintable(QStringLiteral("rank %1: %2 samples in %3 s").arg(rank).arg(samples.size()).arg(seconds)));
            double busiest = 0;
            for (const QJsonObject& s : samples) {
                QCOMPARE(s.value(QStringLiteral("rank")).toInt(), rank);
                QVERIFY2(s.value(QStringLiteral("cpu_util")).toDouble(-1) >= 0, QJsonDocument(s).toJson().constData());
                busiest = std::max(busiest, s.value(QStringLiteral("cpu_util")).toDouble());
                const double rss = s.value(QStringLiteral("host_rss")).toDouble();
                QVERIFY2(rss > 10.0 * 1024 * 1024 && rss < machine, QJsonDocument(s).toJson().constData());
                QVERIFY(!s.contains(QStringLiteral("gpu_util"))); // a CPU run sends no GPU fields
            }
            QVERIFY2(busiest > 0, qPrintable(QStringLiteral("rank %1 used no CPU time").arg(rank)));
        }
    }

    void systemSamplesCanBeTurnedOff()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("SB_SYSTEM_SAMPLE_S"), QStringLiteral("0"));
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), tiny_}, 120000, env);
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        QVERIFY(run.ranks[0].ofType(QStringLiteral("system")).empty());
        QCOMPARE(run.ranks[0].ofType(QStringLiteral("step")).size(), std::size_t(3));
    }

    void tokenAndTextFilesTrain()
    {
        // A nanoGPT-style uint16 token file and a raw text file.
        QFile bin(dir_.filePath(QStringLiteral("train.bin")));
        QVERIFY(bin.open(QIODevice::WriteOnly));
        for (int i = 0; i < 5000; ++i) {
            const quint16 id = static_cast<quint16>((i * 7) % 130);
            bin.write(reinterpret_cast<const char*>(&id), 2);
        }
        bin.close();
        sb::Plan p = tinyPlan(2, 2, 3);
        p.training.data = {sb::DataConfig::Tokens, bin.fileName().toStdString()};
        RunResult run = LocalRunner::run(2, {QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("bin.json"), p)});
        QVERIFY2(run.ok(), qPrintable(run.describe()));

        QFile txt(dir_.filePath(QStringLiteral("train.txt")));
        QVERIFY(txt.open(QIODevice::WriteOnly));
        for (int i = 0; i < 200; ++i) txt.write("the quick brown fox jumps over the lazy dog\n");
        txt.close();
        p.model.vocabSize = 256;
        p.training.data = {sb::DataConfig::Text, txt.fileName().toStdString()};
        run = LocalRunner::run(2, {QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("txt.json"), p)});
        QVERIFY2(run.ok(), qPrintable(run.describe()));
        // Token ids outside the vocabulary are refused with the position.
        sb::Plan small = tinyPlan(1, 2, 3);
        small.model.vocabSize = 100;
        small.training.data = {sb::DataConfig::Tokens, bin.fileName().toStdString()};
        run = LocalRunner::run(1, {QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("bin100.json"), small)});
        QVERIFY(!run.ok());
        QVERIFY2(run.ranks[0].stdErr.contains(QStringLiteral("is not below the model's vocab_size 100")), qPrintable(run.describe()));
    }

    // --init-from refuses weights with a NaN (or an infinity) in a tensor,
    // naming the tensor and the file: nothing trains from them.
    void nonFiniteInitialWeightsAreRefused()
    {
        const QString weights = exportedWeights(QStringLiteral("nan"));
        QVERIFY(!weights.isEmpty());
        QString victim;
        QVERIFY(editFloats(weights, [&](const QString& name, float* v, qint64 n) {
            if (!victim.isEmpty() || n < 4) return;
            victim = name;
            v[3] = std::numeric_limits<float>::quiet_NaN();
        }));
        QVERIFY(!victim.isEmpty());
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), tiny_, QStringLiteral("--init-from"), weights});
        const RankResult& r = run.ranks[0];
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.stdErr.contains(weights) && r.stdErr.contains(QStringLiteral("\"%1\"").arg(victim)) &&
                     r.stdErr.contains(QStringLiteral("is not finite (nan at element 3")),
                 qPrintable(run.describe()));
        QVERIFY(r.ofType(QStringLiteral("step")).empty());
        QVERIFY(r.ofType(QStringLiteral("done")).empty());
    }

    // Finite weights whose forward pass overflows: the loss is not finite, and
    // the run stops at once with that reason and a failure exit, never "done: ok".
    void aLossThatIsNotFiniteStopsTheRun()
    {
        const QString weights = exportedWeights(QStringLiteral("huge"));
        QVERIFY(!weights.isEmpty());
        QVERIFY(editFloats(weights, [](const QString&, float* v, qint64 n) {
            float top = 0;
            for (qint64 i = 0; i < n; ++i) top = std::max(top, std::abs(v[i]));
            if (top > 0)
                for (qint64 i = 0; i < n; ++i) v[i] = v[i] / top * 3e38f; // the largest element just below FLT_MAX
        }));
        for (int world : {1, 2}) {
            const QString plan = world == 1 ? tiny_ : writePlan(dir_, QStringLiteral("tiny2-huge.json"), tinyPlan(2, 2, 3));
            const RunResult run = LocalRunner::run(world, {QStringLiteral("--plan"), plan, QStringLiteral("--init-from"), weights});
            QVERIFY2(!run.timedOut, qPrintable(run.describe()));
            for (const RankResult& r : run.ranks) {
                QCOMPARE(r.exitCode, 1);
                QVERIFY2(r.stdErr.contains(QStringLiteral("loss is not finite (")) && r.stdErr.contains(QStringLiteral(") at step 1;")),
                         qPrintable(run.describe()));
                const std::vector<QJsonObject> errors = r.ofType(QStringLiteral("error"));
                QCOMPARE(errors.size(), std::size_t(1));
                QVERIFY(errors.front().value(QStringLiteral("message")).toString().startsWith(QStringLiteral("loss is not finite")));
                QVERIFY(r.ofType(QStringLiteral("step")).empty());
                QVERIFY(r.ofType(QStringLiteral("done")).empty());
            }
        }
    }

private:
    // The tiny plan's weights after one step, as --export-final writes them.
    QString exportedWeights(const QString& name)
    {
        const QString out = dir_.filePath(name + QStringLiteral(".safetensors"));
        sb::Plan one = tinyPlan(1, 2, 1);
        const RunResult run = LocalRunner::run(1, {QStringLiteral("--plan"), writePlan(dir_, name + QStringLiteral("-1.json"), one),
                                                   QStringLiteral("--export-final"), out});
        if (!run.ok()) qWarning("%s", qPrintable(run.describe()));
        return run.ok() ? out : QString();
    }

    // Rewrites the F32 tensors of a .safetensors file in place, in the header's order.
    static bool editFloats(const QString& path, const std::function<void(const QString&, float*, qint64)>& edit)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadWrite)) return false;
        QByteArray bytes = f.readAll();
        quint64 n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
        const QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, static_cast<int>(n))).object();
        if (header.isEmpty()) return false;
        for (auto it = header.begin(); it != header.end(); ++it) {
            if (it.key() == QStringLiteral("__metadata__")) continue;
            const QJsonObject t = it.value().toObject();
            if (t.value(QStringLiteral("dtype")).toString() != QStringLiteral("F32")) return false;
            const QJsonArray range = t.value(QStringLiteral("data_offsets")).toArray();
            const qint64 begin = 8 + static_cast<qint64>(n) + range.at(0).toInteger(), end = 8 + static_cast<qint64>(n) + range.at(1).toInteger();
            edit(it.key(), reinterpret_cast<float*>(bytes.data() + begin), (end - begin) / 4);
        }
        return f.seek(0) && f.write(bytes) == bytes.size();
    }
};

QTEST_GUILESS_MAIN(EngineProcess)
#include "tst_engine_process.moc"
