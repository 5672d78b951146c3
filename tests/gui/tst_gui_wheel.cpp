// The mouse wheel over the workbench's fields (WheelGuard, issue 39):
// scrolling the Setup panel passed a combo box under the pointer and changed
// Device to "Custom GPU". An unfocused combo box, number field or spin box
// leaves the wheel to the scroll area and the plan and its undo stack as they
// were, and takes no focus from the wheel; a focused one takes it, as one edit.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "views/launch_panel.hpp"
#include "views/mesh_panel.hpp"
#include "views/number_field.hpp"
#include "views/training_panel.hpp"
#include "window/run_areas.hpp"

#include "plan/plan_json.hpp"

#include <QApplication>
#include <QComboBox>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

using namespace sb;
using namespace sb::gui;

class TestWheel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void theWheelChangesOnlyAFocusedField();
};

namespace {

// One notch of the wheel over the middle of `w` (up when `up`); whether `w` took it.
bool turnWheel(QWidget* w, bool up)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, up ? 120 : -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
    return e.isAccepted();
}

} // namespace

void TestWheel::theWheelChangesOnlyAFocusedField()
{
    test::Workbench w;
    w->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w.window.get()));
    PlanDocument* doc = w->document();
    QUndoStack* undo = doc->undoStack();
    NumberField* steps = w->trainingPanel()->stepsBox();
    steps->setFocus();
    QTRY_VERIFY(steps->hasFocus());
    const std::string before = planToJson(doc->plan()).dump();
    const int undoCount = undo->count();

    QComboBox* device = w->meshPanel()->deviceBox();
    QCOMPARE(device->objectName(), QStringLiteral("device"));
    const int preset = device->currentIndex();
    const bool up = preset > 0; // towards another item
    QVERIFY(!turnWheel(device, up)); // left to the scroll area
    QCOMPARE(device->currentIndex(), preset);
    QComboBox* schedule = w->trainingPanel()->scheduleBox();
    const int scheduled = schedule->currentIndex();
    QVERIFY(!turnWheel(schedule, scheduled > 0));
    QCOMPARE(schedule->currentIndex(), scheduled);
    NumberField* procs = w->meshPanel()->procsBox();
    const QString procsText = procs->text();
    QVERIFY(!turnWheel(procs, true));
    QCOMPARE(procs->text(), procsText);
    QCOMPARE(planToJson(doc->plan()).dump(), before);
    QCOMPARE(undo->count(), undoCount);
    // A spin box outside the plan: the launch panel's restarts.
    QSpinBox* restarts = w->areas()->launchPanel()->restartsBox();
    const int restartsBefore = restarts->value();
    QVERIFY(!turnWheel(restarts, restartsBefore < restarts->maximum()));
    QCOMPARE(restarts->value(), restartsBefore);
    // A wheel passing over them does not give them the focus first.
    QCOMPARE(device->focusPolicy(), Qt::StrongFocus);
    QCOMPARE(restarts->focusPolicy(), Qt::StrongFocus);
    QVERIFY(steps->hasFocus());

    // Focused, the combo box takes the wheel: one edit, undone as one.
    device->setFocus();
    QTRY_VERIFY(device->hasFocus());
    QVERIFY(turnWheel(device, up));
    QCOMPARE(device->currentIndex(), up ? preset - 1 : preset + 1);
    QVERIFY(planToJson(doc->plan()).dump() != before);
    QCOMPARE(undo->count(), undoCount + 1);
    undo->undo();
    QCOMPARE(planToJson(doc->plan()).dump(), before);
    QCOMPARE(device->currentIndex(), preset);
}

QTEST_MAIN(TestWheel)
#include "tst_gui_wheel.moc"
