// Checkpoints crossing between shardbench-core and its exported FSDP2 script
// (tools/checkpoint/convert.py, run by the real PyTorch 2.x of SB_PYTHON): a
// core checkpoint resumed by the script, and the script's DCP checkpoint
// resumed by the core, each at another world size, continuing with the losses
// and gradient norms of the run that was not interrupted; bad input refused
// with a message naming what is wrong, and nothing written.
#include "engine_support.hpp"
#include "script_runner.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

// The same global batch of 12 samples at W=2 (3 a micro-batch) and W=3 (2):
// a step's loss and gradients are means over the same 12 samples at either
// world size, so a run may continue at the other one as if uninterrupted.
sb::Plan planAt(int world, const QString& checkpointDir)
{
    sb::Plan plan = smallPlan("llama3-8b", world, 6);
    plan.training.microBatch = 12 / (world * plan.training.gradAccum);
    plan.training.checkpoint.dir = checkpointDir.toStdString();
    plan.training.checkpoint.interval = 3;
    return plan;
}

// As in engine_export_script: the script prints 6 decimals (2e-7 relative); the
// core and the script differ by summation order in fp32.
constexpr double kTolerance = 1e-5;

struct Converted {
    int exitCode = -1;
    QString out, err;
    QString describe() const { return QStringLiteral("exit %1\n%2\n%3").arg(exitCode).arg(out, err); }
};

Converted convert(const QStringList& args)
{
    const PythonRun run = runPython(QStringList{sourcePath(QStringLiteral("tools/checkpoint/convert.py"))} + args, 180000);
    return {run.exitCode, run.out, run.err};
}

std::vector<StepLine> lastSteps(const std::vector<StepLine>& steps, std::size_t n)
{
    return steps.size() < n ? std::vector<StepLine>{} : std::vector<StepLine>(steps.end() - static_cast<std::ptrdiff_t>(n), steps.end());
}

bool copyFolder(const QString& from, const QString& to)
{
    if (!QDir().mkpath(to)) return false;
    for (const QString& f : QDir(from).entryList(QDir::Files | QDir::Hidden))
        if (!QFile::copy(from + QLatin1Char('/') + f, to + QLatin1Char('/') + f)) return false;
    return true;
}

} // namespace

class TestEngineCheckpointCrossing : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString coreCheckpoint_; // the core's step 3 at W=2, for the refusals

    QString path(const QString& name) const { return tmp_.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        SB_REQUIRE_TORCH2();
    }

    void coreToScriptAtAnotherWorldSize()
    {
        // The core runs 6 steps at W=2, saving step 3; the script resumes from it at W=3.
        const QString corePlan = writePlan(tmp_, QStringLiteral("core2.plan.json"), planAt(2, path(QStringLiteral("core"))));
        const RunResult core = LocalRunner::run(2, {QStringLiteral("--plan"), corePlan});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        const std::vector<StepLine> whole = coreSteps(core.ranks[0]);
        QCOMPARE(whole.size(), std::size_t(6));
        coreCheckpoint_ = path(QStringLiteral("core/local/step-000003"));
        QVERIFY(QFile::exists(coreCheckpoint_ + QStringLiteral("/index.json.sha256")));

        const QString scriptDir = path(QStringLiteral("dcp-from-core"));
        const QString script = exportScript(tmp_, planAt(3, scriptDir), QStringLiteral("script3"));
        QVERIFY(!script.isEmpty());
        const Converted c = convert({QStringLiteral("core-to-dcp"), coreCheckpoint_, scriptDir, QStringLiteral("--script"), script});
        QVERIFY2(c.exitCode == 0, qPrintable(c.describe()));
        QVERIFY(QFile::exists(scriptDir + QStringLiteral("/step-000003/.metadata")));

        const ScriptRun resumed = runScript(script, 3, QString());
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.describe()));
        QVERIFY2(resumed.out.contains(QStringLiteral("step-000003 at step 3")), qPrintable(resumed.out));
        QCOMPARE(resumed.steps.size(), std::size_t(3));
        const double diff = worstDifference(resumed.steps, lastSteps(whole, 3));
        qInfo("core W=2 -> script W=3, steps 4-6: worst relative difference %.2e", diff);
        QVERIFY2(diff < kTolerance, qPrintable(QStringLiteral("relative difference %1\n%2").arg(diff).arg(resumed.out)));
    }

    void scriptToCoreAtAnotherWorldSize()
    {
        // The script runs 6 steps at W=2, saving step 3 with DCP; the core resumes from it at W=3.
        const QString dcpDir = path(QStringLiteral("dcp"));
        const QString script = exportScript(tmp_, planAt(2, dcpDir), QStringLiteral("script2"));
        QVERIFY(!script.isEmpty());
        const ScriptRun whole = runScript(script, 2, QString());
        QVERIFY2(whole.exitCode == 0 && whole.steps.size() == 6, qPrintable(whole.describe()));

        const QString corePlan = writePlan(tmp_, QStringLiteral("core3.plan.json"), planAt(3, path(QStringLiteral("core3"))));
        const QString converted = path(QStringLiteral("from-dcp"));
        const Converted c = convert({QStringLiteral("dcp-to-core"), dcpDir + QStringLiteral("/step-000003"), converted,
                                     QStringLiteral("--script"), script, QStringLiteral("--plan"), corePlan});
        QVERIFY2(c.exitCode == 0, qPrintable(c.describe()));
        const QString checkpoint = converted + QStringLiteral("/converted/step-000003");
        // The core's own reader: the index's SHA-256, completeness against the
        // plan's model, every file's size and SHA-256, every shard's CRC-32C.
        QProcess verify;
        verify.start(LocalRunner::cliPath(),
                     {QStringLiteral("checkpoint"), QStringLiteral("verify"), checkpoint});
        QVERIFY(verify.waitForFinished(60000));
        QVERIFY2(verify.exitCode() == 0, qPrintable(QString::fromUtf8(verify.readAllStandardError() + verify.readAllStandardOutput())));

        const RunResult core = LocalRunner::run(3, {QStringLiteral("--plan"), corePlan, QStringLiteral("--resume"), checkpoint});
        QVERIFY2(core.ok(), qPrintable(core.describe()));
        QVERIFY2(core.ranks[0].stdErr.contains(QStringLiteral("step 3, saved at world size 3")), qPrintable(core.ranks[0].stdErr));
        const std::vector<StepLine> continued = coreSteps(core.ranks[0]);
        QCOMPARE(continued.size(), std::size_t(3));
        const double diff = worstDifference(continued, lastSteps(whole.steps, 3));
        qInfo("script W=2 -> core W=3, steps 4-6: worst relative difference %.2e", diff);
        QVERIFY2(diff < kTolerance, qPrintable(QStringLiteral("relative difference %1").arg(diff)));
    }

    void refusesBadInput()
    {
        QVERIFY2(!coreCheckpoint_.isEmpty(), "needs coreToScriptAtAnotherWorldSize's checkpoint");
        const QString script = path(QStringLiteral("script3.py"));
        const QString out = path(QStringLiteral("refused"));
        auto refused = [&](const QStringList& args, const QString& message) {
            const Converted c = convert(args);
            if (c.exitCode != 2 || !c.err.contains(message)) return QStringLiteral("wanted exit 2 and \"%1\"; got %2").arg(message, c.describe());
            if (QDir(out).exists() && !QDir(out).isEmpty()) return QStringLiteral("%1 was written into").arg(out);
            return QString();
        };

        // A shard altered after the commit: named, with its checksums.
        const QString corrupt = path(QStringLiteral("corrupt/step-000003"));
        QVERIFY(copyFolder(coreCheckpoint_, corrupt));
        QFile shard(corrupt + QStringLiteral("/rank-00001.safetensors"));
        QVERIFY(shard.open(QIODevice::ReadWrite));
        QVERIFY(shard.seek(shard.size() - 5));
        const char byte = shard.read(1).at(0);
        QVERIFY(shard.seek(shard.size() - 5) && shard.write(QByteArray(1, static_cast<char>(byte ^ 0x40))) == 1);
        shard.close();
        QString why = refused({QStringLiteral("core-to-dcp"), corrupt, out, QStringLiteral("--script"), script},
                              corrupt + QStringLiteral("/rank-00001.safetensors: checksum mismatch: its SHA-256 is"));
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A version this tool does not know, its index re-checksummed: refused by name.
        const QString future = path(QStringLiteral("future/step-000003"));
        QVERIFY(copyFolder(coreCheckpoint_, future));
        QFile index(future + QStringLiteral("/index.json"));
        QVERIFY(index.open(QIODevice::ReadOnly));
        const QByteArray text = index.readAll().replace("\"version\": 2,", "\"version\": 3,");
        index.close();
        QVERIFY(index.open(QIODevice::WriteOnly | QIODevice::Truncate) && index.write(text) == text.size());
        index.close();
        QProcess sum;
        sum.setWorkingDirectory(future);
        sum.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("sha256sum index.json > index.json.sha256")});
        QVERIFY(sum.waitForFinished(10000) && sum.exitCode() == 0);
        why = refused({QStringLiteral("core-to-dcp"), future, out, QStringLiteral("--script"), script},
                      QStringLiteral("checkpoint format version 3 is not supported"));
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // Another model's script: the field that differs is named.
        sb::Plan narrow = planAt(3, out);
        narrow.model.ffnHidden = 96;
        const QString other = exportScript(tmp_, narrow, QStringLiteral("narrow"));
        QVERIFY(!other.isEmpty());
        why = refused({QStringLiteral("core-to-dcp"), coreCheckpoint_, out, QStringLiteral("--script"), other},
                      QStringLiteral("a different model: ffn_hidden is 128, the script's is 96"));
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A DCP folder that never committed (no .metadata), and a missing plan.
        why = refused({QStringLiteral("dcp-to-core"), path(QStringLiteral("corrupt")), out, QStringLiteral("--script"), script,
                       QStringLiteral("--plan"), path(QStringLiteral("core3.plan.json"))},
                      QStringLiteral("holds no committed DCP checkpoint"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        why = refused({QStringLiteral("dcp-to-core"), path(QStringLiteral("dcp/step-000003")), out, QStringLiteral("--script"), script,
                       QStringLiteral("--plan"), path(QStringLiteral("nowhere.json"))},
                      QStringLiteral("--plan ") + path(QStringLiteral("nowhere.json")) + QStringLiteral(": No such file or directory"));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestEngineCheckpointCrossing)
#include "tst_engine_checkpoint_crossing.moc"
