// Sharded checkpoints on real multi-process runs: exact resume, resume at
// other world sizes (load-time resharding), full safetensors export/import,
// refusal of damaged checkpoints, and no lost checkpoint under kill -9.
#include "engine_support.hpp"

#include "checkpoint/checkpoint_io.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTest>

#include <csignal>

namespace {

// Global batch 12 so that 2, 3 and 4 ranks all see the same samples.
sb::Plan ckptPlan(int world, int steps, const QString& dir, int interval)
{
    sb::Plan p = tinyPlan(world, 12 / world, steps);
    p.training.checkpoint.dir = dir.toStdString();
    p.training.checkpoint.interval = interval;
    p.training.checkpoint.keep = 100;
    return p;
}

} // namespace

class EngineCheckpoint : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<double> straight_; // 40 steps at W=4

    RunResult run(const sb::Plan& plan, const QString& name, const QStringList& extra = {})
    {
        return LocalRunner::run(plan.mesh.worldSize(), QStringList{QStringLiteral("--plan"), writePlan(dir_, name, plan)} + extra);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const RunResult r = run(ckptPlan(4, 40, dir_.filePath(QStringLiteral("straight")), 0), QStringLiteral("straight.json"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        straight_ = losses(r.ranks[0]);
        QCOMPARE(straight_.size(), std::size_t(40));
        // The first half, saved at step 20 (and 10).
        const RunResult h = run(ckptPlan(4, 20, dir_.filePath(QStringLiteral("half")), 10), QStringLiteral("half.json"));
        QVERIFY2(h.ok(), qPrintable(h.describe()));
        const auto events = h.ranks[0].ofType(QStringLiteral("checkpoint"));
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(events.back().value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        QVERIFY(events.back().value(QStringLiteral("bytes")).toInteger() > 0);
    }

    void resumeIsBitExactAtTheSameWorldSize()
    {
        const RunResult r = run(ckptPlan(4, 40, dir_.filePath(QStringLiteral("same")), 0), QStringLiteral("same.json"),
                                {QStringLiteral("--resume"), dir_.filePath(QStringLiteral("half"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<double> got = losses(r.ranks[0]);
        QCOMPARE(got.size(), std::size_t(20));
        for (std::size_t i = 0; i < got.size(); ++i) QCOMPARE(got[i], straight_[20 + i]); // bit for bit
        QCOMPARE(r.ranks[0].ofType(QStringLiteral("step")).front().value(QStringLiteral("step")).toInt(), 21);
    }

    void resumeAtAnotherWorldSize_data()
    {
        QTest::addColumn<int>("world");
        QTest::newRow("4 -> 2") << 2;
        QTest::newRow("4 -> 3 (rows not divisible)") << 3;
    }

    void resumeAtAnotherWorldSize()
    {
        QFETCH(int, world);
        const RunResult r = run(ckptPlan(world, 40, dir_.filePath(QStringLiteral("w%1").arg(world)), 0),
                                QStringLiteral("w%1.json").arg(world), {QStringLiteral("--resume"), dir_.filePath(QStringLiteral("half/step-000020"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<double> got = losses(r.ranks[0]);
        const std::vector<double> tail(straight_.begin() + 20, straight_.end());
        const double diff = maxRelativeDifference(got, tail);
        qInfo("resumed at W=%d: max relative loss difference %.3g", world, diff);
        QVERIFY(diff <= 1e-6);
    }

    void exportAndImportFullSafetensors()
    {
        const QString ckpt = dir_.filePath(QStringLiteral("half/step-000020"));
        const QString out = dir_.filePath(QStringLiteral("full.safetensors"));
        QCOMPARE(QString::fromStdString(sb::ckpt::exportCheckpoint(ckpt.toStdString(), out.toStdString())), QString());
        const Tensors full = readSafetensors(out); // independent reader, by the specification
        QVERIFY2(full.error.isEmpty(), qPrintable(full.error));
        QCOMPARE(full.shapes.value(QStringLiteral("tok_embeddings.weight")), (std::vector<qint64>{130, 64}));
        // The core's own export of a live model gives the same bytes.
        const RunResult r = run(ckptPlan(2, 20, dir_.filePath(QStringLiteral("x")), 0), QStringLiteral("x.json"),
                                {QStringLiteral("--resume"), ckpt, QStringLiteral("--export-final"), dir_.filePath(QStringLiteral("live.safetensors"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        QCOMPARE(maxAbsoluteDifference(readSafetensors(dir_.filePath(QStringLiteral("live.safetensors"))), full), 0.0);
        // Import as initial weights: 3 sharded ranks train like the unsharded reference from the same file.
        sb::Plan p = ckptPlan(3, 5, dir_.filePath(QStringLiteral("imp")), 0);
        const RunResult a = run(p, QStringLiteral("imp3.json"), {QStringLiteral("--init-from"), out});
        QVERIFY2(a.ok(), qPrintable(a.describe()));
        const QString refPlan = writePlan(dir_, QStringLiteral("imp-ref.json"), p);
        const RunResult b = LocalRunner::run(1, {QStringLiteral("--plan"), refPlan, QStringLiteral("--reference"),
                                                 QStringLiteral("--init-from"), out});
        QVERIFY2(b.ok(), qPrintable(b.describe()));
        const double diff = maxRelativeDifference(losses(a.ranks[0]), losses(b.ranks[0]));
        qInfo("imported weights: sharded W=3 against the reference, max relative loss difference %.3g", diff);
        QVERIFY(diff < 1e-5);
        // A fresh model would start near ln(130) = 4.87; the imported one starts where training left it.
        QVERIFY(losses(a.ranks[0]).front() < straight_.front() - 0.5);
    }

    void commandLineInspectVerifyExport()
    {
        const QString cli = qEnvironmentVariable("SB_BIN_DIR") + QStringLiteral("/shardbench-cli");
        auto runCli = [&](const QStringList& args, int& code) {
            QProcess p;
            p.start(cli, args);
            p.waitForFinished(60000);
            code = p.exitCode();
            return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        };
        int code = -1;
        const QString root = dir_.filePath(QStringLiteral("half"));
        QString out = runCli({QStringLiteral("checkpoint"), QStringLiteral("inspect"), root}, code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("step         20")) && out.contains(QStringLiteral("world size   4")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("tok_embeddings.weight")));
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("verify"), root, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("verified")), qPrintable(out));
        const QString model = dir_.filePath(QStringLiteral("cli.safetensors"));
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), root, QStringLiteral("-o"), model, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 0);
        QVERIFY(readSafetensors(model).error.isEmpty());
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("verify"), dir_.filePath(QStringLiteral("nowhere"))}, code);
        QCOMPARE(code, 2);
        QVERIFY2(out.contains(QStringLiteral("no such checkpoint folder")), qPrintable(out));
    }

    void damagedCheckpointsAreRefused_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated shard") << QStringLiteral("truncate") << QStringLiteral("rank-00001.safetensors");
        QTest::newRow("altered byte") << QStringLiteral("flip") << QStringLiteral("checksum mismatch");
        QTest::newRow("missing shard") << QStringLiteral("delete") << QStringLiteral("rank-00001.safetensors: missing");
        QTest::newRow("unknown version") << QStringLiteral("version") << QStringLiteral("version 99 is not supported");
        QTest::newRow("no index") << QStringLiteral("noindex") << QStringLiteral("holds no complete checkpoint");
        QTest::newRow("other model") << QStringLiteral("model") << QStringLiteral("in the plan's model");
    }

    void damagedCheckpointsAreRefused()
    {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        // A private copy of the step-20 checkpoint, then damage it.
        const QString src = dir_.filePath(QStringLiteral("half/step-000020"));
        const QString root = dir_.filePath(QStringLiteral("damaged-") + damage);
        const QString copy = root + QStringLiteral("/step-000020");
        QVERIFY(QDir().mkpath(copy));
        for (const QString& f : QDir(src).entryList(QDir::Files)) QVERIFY(QFile::copy(src + QLatin1Char('/') + f, copy + QLatin1Char('/') + f));
        const QString shard = copy + QStringLiteral("/rank-00001.safetensors");
        sb::Plan plan = ckptPlan(4, 40, root, 0);
        if (damage == QStringLiteral("truncate")) {
            QFile f(shard);
            QVERIFY(f.resize(f.size() - 100));
        } else if (damage == QStringLiteral("flip")) {
            QFile f(shard);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(f.size() - 5);
            const char c = static_cast<char>(f.peek(1).at(0) ^ 0x40);
            f.write(&c, 1);
        } else if (damage == QStringLiteral("delete")) {
            QVERIFY(QFile::remove(shard));
        } else if (damage == QStringLiteral("version")) {
            QFile f(copy + QStringLiteral("/index.json"));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray text = f.readAll();
            f.close();
            text.replace("\"version\": 1", "\"version\": 99");
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        } else if (damage == QStringLiteral("noindex")) {
            QVERIFY(QFile::remove(copy + QStringLiteral("/index.json")));
        } else if (damage == QStringLiteral("model")) {
            plan.model.ffnHidden = 128;
        }
        const RunResult r = run(plan, damage + QStringLiteral(".json"), {QStringLiteral("--resume"), root});
        QVERIFY(!r.ok());
        QCOMPARE(r.ranks[0].exitCode, 2);
        const QString err = r.ranks[0].stdErr + r.ranks[1].stdErr + r.ranks[2].stdErr + r.ranks[3].stdErr;
        QVERIFY2(err.contains(message), qPrintable(err));
        // The verifier agrees (except for a model mismatch, which only a plan reveals).
        if (damage != QStringLiteral("model") && damage != QStringLiteral("noindex"))
            QVERIFY(!sb::ckpt::verifyCheckpoint(copy.toStdString()).empty());
    }

    void killDuringSavesNeverLosesACheckpoint()
    {
        // 2 ranks saving (async) after every step; kill -9 at random moments.
        const QString root = dir_.filePath(QStringLiteral("killed"));
        const QString plan = writePlan(dir_, QStringLiteral("killed.json"), ckptPlan(2, 100000, root, 1));
        QRandomGenerator rng(1234);
        int kills = 0, verified = 0;
        for (int round = 0; round < 20; ++round) {
            auto ranks = LocalRunner::start(2, {QStringLiteral("--plan"), plan, QStringLiteral("--resume"), QStringLiteral("auto")});
            QTest::qWait(1200 + static_cast<int>(rng.bounded(1200)));
            for (auto& p : ranks) ::kill(static_cast<pid_t>(p->processId()), SIGKILL);
            for (auto& p : ranks) p->waitForFinished();
            ++kills;
            const auto complete = sb::ckpt::listCheckpoints(root.toStdString());
            if (complete.empty()) continue;
            // The newest complete checkpoint is intact and loadable.
            QCOMPARE(QString::fromStdString(sb::ckpt::verifyCheckpoint(complete.back().second)), QString());
            ++verified;
        }
        qInfo("%d kills, %d verified checkpoints", kills, verified);
        QVERIFY(verified >= 15);
        // And training resumes from it.
        sb::Plan p = ckptPlan(2, 0, root, 0);
        const auto complete = sb::ckpt::listCheckpoints(root.toStdString());
        p.training.steps = static_cast<int>(complete.back().first) + 2;
        const RunResult r = run(p, QStringLiteral("after-kill.json"), {QStringLiteral("--resume"), root});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        QCOMPARE(losses(r.ranks[0]).size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(EngineCheckpoint)
#include "tst_engine_checkpoint.moc"
