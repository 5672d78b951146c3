// shardbench-cli run's pre-flight on this machine: a plan whose estimated
// peak does not fit the device is refused (exit 2), and launched with a
// warning under --ignore-memory-estimate; a cuda plan with a CPU-only core,
// more ranks than the cores can carry and a checkpoint folder that cannot be
// created are refused before anything starts; only the overridden run is
// recorded.
#include "cli_suite.hpp"
#include "launcher_test_support.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <functional>

using namespace sb::test;

class LauncherCliPreflight : public CliSuite {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QCOMPARE(prepare(true), QString()); }

    void preflightRefusesWhatCannotRunHere()
    {
        // Variants of the tiny plan, each refused before anything starts (exit 2).
        auto variant = [&](const QString& name, const std::function<void(QJsonObject& mesh, QJsonObject& training)>& edit) {
            const QString path = tmp_.filePath(name + QStringLiteral(".json"));
            if (!writeTinyPlan(path, 1, 2, 3).isEmpty()) return QString();
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly)) return QString();
            QJsonObject plan = QJsonDocument::fromJson(f.readAll()).object();
            f.close();
            QJsonObject mesh = plan.value(QLatin1String("mesh")).toObject();
            QJsonObject training = plan.value(QLatin1String("training")).toObject();
            edit(mesh, training);
            plan[QLatin1String("mesh")] = mesh;
            plan[QLatin1String("training")] = training;
            return SshdFixture::writeFile(path, QJsonDocument(plan).toJson()).isEmpty() ? path : QString();
        };
        const QString runsBefore = cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json")}).out;

        // The estimated peak (a few MiB) against 10 KiB of device memory.
        const QString small = variant(QStringLiteral("small-device"), [](QJsonObject& mesh, QJsonObject&) {
            mesh[QLatin1String("device_memory_gib")] = 0.00001;
        });
        QVERIFY(!small.isEmpty());
        Result r = cli({QStringLiteral("run"), small, QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        static const QRegularExpression memoryRe(
            QStringLiteral("memory: rank \\d+ needs [\\d.]+ [KMG]i?B but the device has 10[.\\d]* [Kk]i?B: over by"));
        QVERIFY2(memoryRe.match(r.err).hasMatch(), qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QLatin1String("--ignore-memory-estimate")), qPrintable(r.err));
        // The override launches it, with a warning.
        r = cli({QStringLiteral("run"), small, QStringLiteral("--db"), db_, QStringLiteral("--ignore-memory-estimate"), QStringLiteral("--quiet")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QLatin1String("warning: memory: rank ")), qPrintable(r.err));

        // A cuda plan with this build of the core.
        QByteArray version;
        QCOMPARE(runProgram(corePath(), {QStringLiteral("--version")}, &version), 0);
        const QString cuda = variant(QStringLiteral("cuda"), [](QJsonObject& mesh, QJsonObject&) {
            mesh[QLatin1String("device")] = QStringLiteral("cuda");
        });
        r = cli({QStringLiteral("run"), cuda, QStringLiteral("--db"), db_});
        if (version.contains("CPU and Gloo")) {
            QVERIFY2(r.code == 2, qPrintable(describe(r)));
            QVERIFY2(r.err.contains(QLatin1String("the plan runs on cuda but")) && r.err.contains(QLatin1String("was built without CUDA")),
                     qPrintable(r.err));
        }

        // More ranks than this machine's cores can carry.
        const int tooMany = QThread::idealThreadCount() * 4 + 1;
        const QString crowded = variant(QStringLiteral("crowded"), [tooMany](QJsonObject& mesh, QJsonObject&) {
            mesh[QLatin1String("procs_per_node")] = tooMany;
        });
        r = cli({QStringLiteral("run"), crowded, QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("the plan runs %1 ranks on this machine, which has %2 core(s)").arg(tooMany).arg(QThread::idealThreadCount())),
                 qPrintable(r.err));

        // A checkpoint folder that cannot be created.
        const QString proc = variant(QStringLiteral("proc-ckpt"), [](QJsonObject&, QJsonObject& training) {
            QJsonObject ck = training.value(QLatin1String("checkpoint")).toObject();
            ck[QLatin1String("dir")] = QStringLiteral("/proc/x");
            ck[QLatin1String("interval")] = 1;
            training[QLatin1String("checkpoint")] = ck;
        });
        r = cli({QStringLiteral("run"), proc, QStringLiteral("--db"), db_});
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QLatin1String("the checkpoint folder /proc/x cannot be created")), qPrintable(r.err));

        // Only the run with the override was recorded.
        const QJsonArray before = QJsonDocument::fromJson(runsBefore.toUtf8()).array();
        const QJsonArray after = QJsonDocument::fromJson(cli({QStringLiteral("runs"), QStringLiteral("--db"), db_, QStringLiteral("--json")}).out.toUtf8()).array();
        QCOMPARE(after.size(), before.size() + 1);
    }
};

QTEST_GUILESS_MAIN(LauncherCliPreflight)
#include "tst_launcher_cli_preflight.moc"
