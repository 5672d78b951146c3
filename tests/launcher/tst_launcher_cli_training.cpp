// shardbench-cli and what the core trains: a validation loss every 5 steps
// reaches the store, `metrics` and the rank log on the steps that took it;
// `run --init-from`: weights the reference trained to,
// exported, start a supervised and a detached run on every rank (their
// first loss, on the same first batch, far below a fresh run's), are
// recorded with the run; weights that do not fit the plan are refused by the
// pre-flight before any rank starts, naming the file; `--on-alert`: the
// run's end reaches the command, supervised and detached.
#include "cli_suite.hpp"
#include "launcher_test_support.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sb::test;

class LauncherCliTraining : public CliSuite {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(prepare(true, 20), QString());
        // With a validation loss every 5 steps (synthetic data holds out its own stream).
        QFile in(plan_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject plan = QJsonDocument::fromJson(in.readAll()).object();
        in.close();
        QJsonObject training = plan.value(QLatin1String("training")).toObject();
        training.insert(QStringLiteral("eval"), QJsonObject{{QStringLiteral("every"), 5}, {QStringLiteral("batches"), 1}});
        plan.insert(QStringLiteral("training"), training);
        QCOMPARE(SshdFixture::writeFile(plan_, QJsonDocument(plan).toJson()), QString());
    }

    // The validation loss: on the steps that took it only, in the CSV (empty
    // between), `--metric eval_loss` and the rank log.
    void validationLossReachesTheStore()
    {
        const Result r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"),
                              QStringLiteral("fresh")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QStringList lines = cli({QStringLiteral("metrics"), QStringLiteral("fresh"), QStringLiteral("--csv"), QStringLiteral("--db"), db_})
                                      .out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 41);
        QVERIFY(lines[0].endsWith(QLatin1String(",eval_loss,eval_perplexity")));
        QVERIFY(lines[5].endsWith(QLatin1String(",,")));   // step 3 of rank 0: none taken
        QVERIFY(!lines[9].endsWith(QLatin1String(",,"))); // step 5 of rank 0
        const Result csv = cli({QStringLiteral("metrics"), QStringLiteral("fresh"), QStringLiteral("--metric"), QStringLiteral("eval_loss"),
                                QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("--csv"), QStringLiteral("--db"), db_});
        const QStringList evals = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(evals.size(), 5);
        QCOMPARE(evals[0], QStringLiteral("rank,step,eval_loss"));
        QVERIFY(evals[1].startsWith(QLatin1String("0,5,")) && evals[4].startsWith(QLatin1String("0,20,")));
        QVERIFY(evals[4].section(QLatin1Char(','), 2).toDouble() > 0);
        const Result rankLogs = cli({QStringLiteral("logs"), QStringLiteral("fresh"), QStringLiteral("--rank"), QStringLiteral("0"), QStringLiteral("--db"), db_});
        for (const char* want : {"[rank 0] step 5/20  loss ", "  val loss ", "[rank 0] step 10/20  loss "})
            QVERIFY2(rankLogs.out.contains(QLatin1String(want)), qPrintable(QLatin1String(want) + QStringLiteral(" not in:\n") + rankLogs.out));
        QVERIFY2(!rankLogs.out.contains(QLatin1String("step 2/20")), "progress every 10 steps and at evaluations, not every step");
    }

    // --on-alert: the run's end, said on stderr and to the command with the
    // alert in its environment, for a supervised run and a detached one followed.
    void alertsReachTheCommand()
    {
        const QString said = tmp_.filePath(QStringLiteral("alerts.txt"));
        const QString hook = tmp_.filePath(QStringLiteral("alert hook.sh")); // a space: the command is split as quoted
        QCOMPARE(SshdFixture::writeFile(hook, "echo \"$SHARDBENCH_ALERT $SHARDBENCH_RUN_ID $SHARDBENCH_RUN_NAME: $SHARDBENCH_MESSAGE\" >> \"$1\"\n"),
                 QString());
        const QString command = QStringLiteral("/bin/sh \"%1\" %2").arg(hook, said);
        Result r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"),
                        QStringLiteral("alerted"), QStringLiteral("--on-alert"), command});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        static const QRegularExpression supervised(QStringLiteral("shardbench: alert: run (\\d+) \\(alerted\\) completed at step 20\n"));
        const QRegularExpressionMatch m = supervised.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(describe(r)));
        r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"),
                 QStringLiteral("alerted-detached"), QStringLiteral("--detach"), QStringLiteral("--on-alert"), command});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        static const QRegularExpression followed(QStringLiteral("shardbench: alert: run (\\d+) \\(alerted-detached\\) completed at step 20\n"));
        const QRegularExpressionMatch d = followed.match(r.err);
        QVERIFY2(d.hasMatch(), qPrintable(describe(r)));
        // The commands run on their own: wait for both lines.
        QStringList lines;
        QVERIFY(QTest::qWaitFor([&] {
            QFile f(said);
            lines = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts) : QStringList();
            return lines.size() >= 2;
        }, 10000));
        lines.sort();
        QStringList want{QStringLiteral("finished %1 alerted: run %1 (alerted) completed at step 20").arg(m.captured(1)),
                         QStringLiteral("finished %1 alerted-detached: run %1 (alerted-detached) completed at step 20").arg(d.captured(1))};
        want.sort();
        QCOMPARE(lines, want);
        // Nothing follows a --no-follow run: no alert can come.
        r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--detach"),
                 QStringLiteral("--no-follow"), QStringLiteral("--on-alert"), command});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("--on-alert needs a run this command follows")), qPrintable(describe(r)));
        r = cli({QStringLiteral("attach"), d.captured(1), QStringLiteral("--db"), db_, QStringLiteral("--no-follow"), QStringLiteral("--on-alert"), command});
        QVERIFY2(r.code == 2 && r.err.contains(QLatin1String("--on-alert needs a run this command follows")), qPrintable(describe(r)));
    }

    void startsFromWeights()
    {
        const QString weights = tmp_.filePath(QStringLiteral("trained.safetensors"));
        QProcess core;
        core.setProcessChannelMode(QProcess::MergedChannels);
        core.start(corePath(), {QStringLiteral("--plan"), plan_, QStringLiteral("--reference"), QStringLiteral("--export-final"), weights});
        QVERIFY(core.waitForFinished(120000));
        QVERIFY2(core.exitCode() == 0, core.readAll().constData());
        auto firstLoss = [this](const QString& run) {
            const Result r = cli({QStringLiteral("metrics"), run, QStringLiteral("--metric"), QStringLiteral("loss"), QStringLiteral("--rank"),
                                  QStringLiteral("0"), QStringLiteral("--csv"), QStringLiteral("--db"), db_});
            return r.out.split(QLatin1Char('\n')).value(1).section(QLatin1Char(','), 2).toDouble();
        };
        const Result r = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--name"),
                              QStringLiteral("from weights"), QStringLiteral("--init-from"), weights});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        // "fresh": validationLossReachesTheStore's run of the same plan.
        const double fresh = firstLoss(QStringLiteral("fresh")), started = firstLoss(QStringLiteral("from weights"));
        // The same first batch: 20 steps of training show (a fresh start is the same bits every time).
        QVERIFY2(fresh > 0 && started < fresh - 0.05, qPrintable(QStringLiteral("first loss %1 from the weights, %2 fresh").arg(started).arg(fresh)));
        const Result show = cli({QStringLiteral("show"), QStringLiteral("from weights"), QStringLiteral("--db"), db_});
        QVERIFY2(show.out.contains(QStringLiteral("init from    ") + weights), qPrintable(show.out));
        // Detached: the supervisor passes them to its ranks the same way.
        const Result detached = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--detach"), QStringLiteral("--db"), db_,
                                     QStringLiteral("--name"), QStringLiteral("detached from weights"), QStringLiteral("--init-from"), weights});
        QVERIFY2(detached.code == 0, qPrintable(describe(detached)));
        const double again = firstLoss(QStringLiteral("detached from weights"));
        QVERIFY2(std::abs(again - started) <= 1e-6 * started, qPrintable(QStringLiteral("%1 against %2").arg(again).arg(started)));

        // Another model's weights (a plan twice as wide), a file that is not safetensors, a missing file.
        QFile notWeights(tmp_.filePath(QStringLiteral("notes.safetensors")));
        QVERIFY(notWeights.open(QIODevice::WriteOnly) && notWeights.write("not a header") > 0);
        notWeights.close();
        for (const auto& [file, says] : {std::pair{notWeights.fileName(), QStringLiteral("notes.safetensors")},
                                         std::pair{tmp_.filePath(QStringLiteral("none.safetensors")), QStringLiteral("none.safetensors")}}) {
            const Result bad = cli({QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), db_, QStringLiteral("--init-from"), file});
            QCOMPARE(bad.code, 2);
            QVERIFY2(bad.err.contains(QStringLiteral("the initial weights cannot start this plan's model: ")) && bad.err.contains(says),
                     qPrintable(describe(bad)));
            QVERIFY2(!bad.err.contains(QStringLiteral("[rank")), "refused before any rank started");
        }
    }
};

QTEST_GUILESS_MAIN(LauncherCliTraining)
#include "tst_launcher_cli_training.moc"
