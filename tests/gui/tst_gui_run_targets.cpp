// gui_run, continued (tst_gui_run.hpp): the tiny plan launched through srun
// on a real one-node Slurm cluster, and a run started from the weights the
// first run's checkpoint was exported to (a model's weights of another
// model refused before any rank starts).
#include "tst_gui_run.hpp"

#include "models/live_run_model.hpp"
#include "views/launch_panel.hpp"
#include "views/run_page.hpp"
#include "views/runs_view.hpp"
#include "views/target_chooser.hpp"
#include "window/main_window.hpp"
#include "window/run_controller.hpp"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <unistd.h>

namespace sb::gui {

RunSession* TestRun::launchToTheEnd()
{
    RunController* rc = areas()->runs();
    const RunSession* before = rc->session();
    QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
    if (!QTest::qWaitFor([&] { return rc->session() != before; }, 60000)) {
        QTest::qFail(qPrintable(areas()->launchPanel()->messageLabel()->text()), __FILE__, __LINE__);
        return nullptr;
    }
    RunSession* s = rc->session();
    if (!QTest::qWaitFor([&] { return s->isFinished(); }, 90000) || s->status() != store::RunStatus::Completed) {
        QTest::qFail(qPrintable(QStringLiteral("not completed: ") + s->reason()), __FILE__, __LINE__);
        return nullptr;
    }
    return s;
}

void TestRun::launchThroughSlurm()
{
    // The launcher's own one-node cluster (tests/launcher/support/slurm_cluster.sh).
    if (::geteuid() != 0) QSKIP("a Slurm cluster needs root (slurmd starts tasks as any user)");
    for (const char* program : {"srun", "slurmctld", "slurmd", "munged"})
        if (QStandardPaths::findExecutable(QString::fromLatin1(program)).isEmpty() &&
            QStandardPaths::findExecutable(QString::fromLatin1(program), {QStringLiteral("/usr/sbin")}).isEmpty())
            QSKIP("slurm-wlm and munge are not installed");
    QTemporaryDir cluster;
    const QString script = test::sourcePath(QStringLiteral("tests/launcher/support/slurm_cluster.sh"));
    auto runScript = [&](const QString& what) {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("bash"), {script, what, cluster.path()});
        const bool done = p.waitForFinished(60000);
        return done && p.exitCode() == 0 ? QString() : QString::fromUtf8(p.readAll());
    };
    const QString started = runScript(QStringLiteral("start"));
    const auto stop = qScopeGuard([&] { runScript(QStringLiteral("stop")); });
    QVERIFY2(started.isEmpty(), qPrintable(started));
    qputenv("SLURM_CONF", cluster.filePath(QStringLiteral("slurm.conf")).toUtf8());

    TargetChooser* target = areas()->launchPanel()->targetChooser();
    target->slurmButton()->click();
    typeInto(target->partitionEdit(), QStringLiteral("debug"));
    typeInto(target->timeLimitEdit(), QStringLiteral("10:00"));
    typeInto(areas()->launchPanel()->nameEdit(), QStringLiteral("through slurm"));
    RunSession* s = launchToTheEnd();
    QVERIFY(s);
    QCOMPARE(s->live()->lastStep(), 20);
    const auto row = reader()->run(s->runId());
    QVERIFY(row);
    QCOMPARE(row->backend, QStringLiteral("slurm"));
    QCOMPARE(row->stepsDone, 20);
    target->localButton()->click();
}

// Start from weights: the first run's final checkpoint, exported above, starts
// a run on both ranks (its first loss, on the same first batch, far below the
// first run's); the store and the run's page keep where the weights came from.
void TestRun::startFromExportedWeights()
{
    const QString weights = tmp_.filePath(QStringLiteral("model.safetensors"));
    QVERIFY(QFile::exists(weights));
    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    typeInto(areas()->launchPanel()->nameEdit(), QStringLiteral("from weights"));
    typeInto(areas()->launchPanel()->initFromEdit(), weights);
    RunSession* s = launchToTheEnd();
    QVERIFY(s);
    RunController* rc = areas()->runs();
    auto r = reader();
    QCOMPARE(r->run(s->runId())->initFrom, weights);
    const double first = r->series(firstRun_, store::Metric::Loss, 0).values.value(0);
    const double started = r->series(s->runId(), store::Metric::Loss, 0).values.value(0);
    QVERIFY2(started < first - 0.05, qPrintable(QStringLiteral("%1 from the weights, %2 fresh").arg(started).arg(first)));

    // Weights of another model are refused by the pre-flight, before any rank starts.
    QFile junk(tmp_.filePath(QStringLiteral("junk.safetensors")));
    QVERIFY(junk.open(QIODevice::WriteOnly) && junk.write("junk") == 4);
    junk.close();
    typeInto(areas()->launchPanel()->initFromEdit(), junk.fileName());
    const RunSession* last = rc->session();
    QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
    QVERIFY(QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 30000));
    QCOMPARE(rc->session(), last);
    // The check that refused it says why, in the table or the message below it.
    QString said = areas()->launchPanel()->messageLabel()->text();
    const QAbstractItemModel* checks = areas()->launchPanel()->checksTable()->model();
    for (int row = 0; row < checks->rowCount(); ++row)
        for (int column = 0; column < checks->columnCount(); ++column) said += u'\n' + checks->index(row, column).data().toString();
    QVERIFY2(said.contains(QStringLiteral("junk.safetensors")), qPrintable(said));
    areas()->launchPanel()->initFromEdit()->clear();

    w_->window->areaTabs()->setCurrentWidget(areas()->runsArea());
    RunsView* view = areas()->runsView();
    view->selectRuns({s->runId()});
    QVERIFY(QTest::qWaitFor([&] { return view->runPage()->runId() == s->runId(); }, 10000));
    QVERIFY2(view->runPage()->detailsLabel()->text().contains(QStringLiteral("started from the weights ") + weights),
             qPrintable(view->runPage()->detailsLabel()->text()));
}

} // namespace sb::gui
