// The workbench's pre-flight refuses what cannot run where it is sent, as
// the command line does: a plan whose estimated peak does not fit launches
// only after the user confirms it (and then runs), and a checkpoint folder
// that cannot be created fails the check of this machine.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "session/run_session.hpp"
#include "text/preflight_text.hpp"
#include "views/launch_panel.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::gui;

namespace {

// The tiny plan with its mesh and training edited.
QString writePlan(const QString& path, double deviceMemoryGib, const QString& checkpointDir)
{
    const QString error = test::writeTinyPlan(path, 3);
    if (!error.isEmpty()) return error;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return f.errorString();
    QJsonObject plan = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    QJsonObject mesh = plan.value(QLatin1String("mesh")).toObject();
    mesh[QLatin1String("device_memory_gib")] = deviceMemoryGib;
    plan[QLatin1String("mesh")] = mesh;
    QJsonObject training = plan.value(QLatin1String("training")).toObject();
    QJsonObject checkpoint = training.value(QLatin1String("checkpoint")).toObject();
    checkpoint[QLatin1String("dir")] = checkpointDir;
    checkpoint[QLatin1String("interval")] = checkpointDir.isEmpty() ? 0 : 1;
    training[QLatin1String("checkpoint")] = checkpoint;
    plan[QLatin1String("training")] = training;
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(QJsonDocument(plan).toJson()) < 0) return f.errorString();
    return {};
}

} // namespace

class TestPreflight : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings();
        QVERIFY(tmp_.isValid());
        test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
        w_ = std::make_unique<test::Workbench>();
        w_->window->setInteractive(false);
    }
    void cleanupTestCase() { w_.reset(); }

    void aPlanThatDoesNotFitNeedsAConfirmation()
    {
        const QString plan = tmp_.filePath(QStringLiteral("small-device.json"));
        QCOMPARE(writePlan(plan, 0.00001, QString()), QString()); // 10 KiB per rank
        RunController* rc = areas()->runs();
        QSignalSpy asked(rc, &RunController::memoryOverrideRequested);
        QVERIFY(launchAndWait(plan));
        QCOMPARE(rc->refusal(), RunController::Refusal::ChecksFailed);
        QVERIFY(rc->session() == nullptr);
        QCOMPARE(asked.count(), 1);
        const app::Preflight::Item memory = rc->preflight()->items().value(app::Preflight::MemoryFits);
        QCOMPARE(memory.state, app::Preflight::Failed);
        // A code with raw numbers, worded when shown: the device's 10 KiB in the workbench's byte format.
        QVERIFY(memory.summary && memory.summary->code == app::PreflightCode::MemoryOver);
        QVERIFY2(preflightSummaryText(memory).contains(QLatin1String("but the device has 10")), qPrintable(preflightSummaryText(memory)));
        QVERIFY(rc->preflight()->onlyMemoryFailed());

        // Confirmed: the checked run starts and completes.
        rc->launchDespiteMemoryEstimate();
        QVERIFY2(rc->session() != nullptr, qPrintable(rc->lastError()));
        RunSession* s = rc->session();
        QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 60000));
        QCOMPARE(s->status(), store::RunStatus::Completed);
        // A second confirmation does nothing without a new refusal.
        rc->launchDespiteMemoryEstimate();
        QCOMPARE(rc->session(), s);
    }

    void aCheckpointFolderThatCannotBeCreatedFailsTheChecks()
    {
        const QString plan = tmp_.filePath(QStringLiteral("proc-checkpoints.json"));
        QCOMPARE(writePlan(plan, 16, QStringLiteral("/proc/x")), QString());
        RunController* rc = areas()->runs();
        QSignalSpy asked(rc, &RunController::memoryOverrideRequested);
        QVERIFY(launchAndWait(plan));
        QCOMPARE(rc->refusal(), RunController::Refusal::ChecksFailed);
        QCOMPARE(asked.count(), 0);
        const app::Preflight::Item layout = rc->preflight()->items().value(app::Preflight::Layout);
        QCOMPARE(layout.state, app::Preflight::Failed);
        const QString details = preflightDetailLines(layout).join(u'\n');
        QVERIFY2(details.contains(QLatin1String("the checkpoint folder /proc/x cannot be created")), qPrintable(details));
        QCOMPARE(rc->preflight()->items().value(app::Preflight::MemoryFits).state, app::Preflight::Passed);
    }

private:
    RunAreas* areas() const { return w_->window->areas(); }
    // Opens the plan, presses Launch and waits until the checks are over.
    bool launchAndWait(const QString& plan)
    {
        if (!w_->window->files()->openFile(plan)) return false;
        RunController* rc = areas()->runs();
        QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
        return QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 60000);
    }
    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
};

QTEST_MAIN(TestPreflight)
#include "tst_gui_preflight.moc"
