// The suite gui_run (tst_gui_run.cpp, tst_gui_run_targets.cpp): one
// workbench for every function, run in order, each building on the runs and
// checkpoints of the ones before.
#pragma once

#include "gui_test_support.hpp"

#include "session/run_session.hpp"
#include "store/run_reader.hpp"
#include "window/run_areas.hpp"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

namespace sb::gui {

class TestRun : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void launchTheTinyPlanFromTheGui();
    void stopMarksTheRunCancelled();
    void compareTwoRuns();
    void aPastRunIsAPageOfItsOwn();
    void verifyAndExportACheckpoint();
    void restoreResumesAtAnotherWorldSize();
    void aRestoreWhileFollowingARunIsRefused();
    void launchThroughSlurm();
    void startFromExportedWeights();

private:
    RunAreas* areas() const { return w_->window->areas(); }
    std::unique_ptr<store::RunReader> reader() const;
    static void typeInto(QWidget* w, const QString& text);
    // Launch clicked; the run's session once it completed, or null (and a failure recorded).
    RunSession* launchToTheEnd();

    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    qint64 firstRun_ = -1;
    qint64 cancelledRun_ = -1;
    QString checkpointRoot_;
};

} // namespace sb::gui
