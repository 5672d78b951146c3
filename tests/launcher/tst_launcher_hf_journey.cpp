// A user's first run with their own model and data, start to end, through
// shardbench-cli only: a tiny Qwen3 and a tiny Llama 3.2 saved by
// transformers (70,000-token vocabularies) and Megatron-LM data sets of
// int32 tokens, made by support/hf_journey.py; `plan --from-hf` with a
// validation file, `run --detach --init-from` trains on this machine with a
// validation loss in the store, `checkpoint export --format hf` writes what
// transformers loads with no weight missing or left over, and transformers'
// loss of that export on the validation samples is the core's last
// validation loss. Python is the project's environment ($SB_PYTHON).
#include "hf_journey.hpp"
#include "cli_suite.hpp"
#include "launcher_test_support.hpp"

#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sb::test;

namespace {

// transformers' validation loss of the export against the core's, both fp32, relative.
constexpr double kTolerance = 1e-5;
constexpr int kSeq = 16, kMicroBatch = 2, kWorld = 2, kEvalBatches = 2, kSteps = 4;

QString s(const char* text) { return QString::fromLatin1(text); }

} // namespace

class LauncherHfJourney : public CliSuite {
    Q_OBJECT
    static CliResult cli(const QStringList& args) { return runCli(args, 300000); } // training and an export each

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(prepare(false), QString());
        SB_REQUIRE_TRANSFORMERS();
        QVERIFY(!hfJourney({s("prepare"), tmp_.path()}).isNull());
    }

    void trainsAndExportsEachFamily_data()
    {
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("arch");
        QTest::newRow("qwen3") << s("qwen3") << s("qwen3");
        QTest::newRow("llama 3.2") << s("llama3.2") << s("llama");
    }

    void trainsAndExportsEachFamily()
    {
        QFETCH(QString, family);
        QFETCH(QString, arch);
        const QString model = tmp_.filePath(family);
        const QString plan = tmp_.filePath(family + s(".plan.json"));
        const QString checkpoints = tmp_.filePath(s("ckpt-") + family);
        const QString name = s("journey ") + family;

        CliResult r = cli({s("plan"), s("--from-hf"), model, s("--nodes"), s("1"), s("--procs-per-node"), QString::number(kWorld),
                           s("--device"), s("cpu"), s("--data"), s("tokens"), s("--data-path"), tmp_.filePath(s("train")),
                           s("--val-data-path"), tmp_.filePath(s("val")), s("--eval-every"), s("2"), s("--eval-batches"),
                           QString::number(kEvalBatches), s("--steps"), QString::number(kSteps), s("--batch"), QString::number(kMicroBatch),
                           s("--seq"), QString::number(kSeq), s("--checkpoint-dir"), checkpoints, s("--checkpoint-interval"), s("2"),
                           s("--name"), family, s("-o"), plan});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const sb::LoadedPlan lp = sb::loadAndValidate(plan.toStdString());
        QVERIFY(lp.ok());
        QCOMPARE(QString::fromLatin1(sb::archName(lp.plan.model.arch)), arch);
        QCOMPARE(lp.plan.model.vocabSize, 70000);

        r = cli({s("run"), plan, s("--detach"), s("--init-from"), model, s("--name"), name, s("--db"), db_, s("--env"), s("SB_THREADS=1")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const CliResult show = cli({s("show"), name, s("--db"), db_});
        QVERIFY2(show.out.contains(s("completed")) && show.out.contains(model), qPrintable(describe(show)));
        const CliResult evals = cli({s("metrics"), name, s("--metric"), s("eval_loss"), s("--rank"), s("0"), s("--csv"), s("--db"), db_});
        const QStringList rows = evals.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(rows.size() == 3 && rows[1].startsWith(s("0,2,")) && rows[2].startsWith(s("0,4,")), qPrintable(describe(evals)));
        const double coreLoss = rows[2].section(QLatin1Char(','), 2).toDouble();
        QVERIFY(coreLoss > 0);

        const QStringList runs = QDir(checkpoints).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        const QString last = checkpoints + QLatin1Char('/') + runs[0] + s("/step-000004");
        const QString exported = tmp_.filePath(family + s("-export"));
        r = cli({s("checkpoint"), s("export"), last, s("--format"), s("hf"), s("-o"), exported});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QString out = hfJourney({s("val-loss"), exported, tmp_.filePath(s("val")), QString::number(kSeq),
                                    QString::number(kEvalBatches * kMicroBatch * kWorld)});
        QVERIFY(!out.isNull());
        const double hfLoss = out.trimmed().toDouble();
        const double diff = std::abs(hfLoss - coreLoss) / coreLoss;
        qInfo("%s: validation loss at step %d: core %.9g, transformers on the export %.9g, relative difference %.2e", qPrintable(family), kSteps,
              coreLoss, hfLoss, diff);
        QVERIFY2(diff < kTolerance, qPrintable(QString::number(diff)));
    }
};

QTEST_GUILESS_MAIN(LauncherHfJourney)
#include "tst_launcher_hf_journey.moc"
