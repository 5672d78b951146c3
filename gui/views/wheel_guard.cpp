#include "wheel_guard.hpp"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QPointer>
#include <QScrollBar>
#include <QWidget>

namespace sb::gui {

namespace {

// A field whose value the wheel steps (a scroll bar is not one: it scrolls).
QWidget* wheelField(QObject* o)
{
    if (auto* combo = qobject_cast<QComboBox*>(o)) return combo;
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(o)) return spin;
    if (auto* slider = qobject_cast<QAbstractSlider*>(o); slider && !qobject_cast<QScrollBar*>(o)) return slider;
    return nullptr;
}

// A wheel turned over a Qt::WheelFocus widget focuses it before the event
// arrives; with Qt::StrongFocus it stays unfocused and the filter passes it on.
void takeNoFocusByWheel(QWidget* field)
{
    if (field->focusPolicy() == Qt::WheelFocus) field->setFocusPolicy(Qt::StrongFocus);
}

} // namespace

void WheelGuard::install()
{
    static QPointer<WheelGuard> installed;
    if (installed || !qApp) return;
    installed = new WheelGuard(qApp);
    qApp->installEventFilter(installed);
    for (QWidget* w : QApplication::allWidgets())
        if (QWidget* field = wheelField(w)) takeNoFocusByWheel(field);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type == QEvent::Polish) {
        if (QWidget* field = wheelField(watched)) takeNoFocusByWheel(field);
    } else if (type == QEvent::Wheel) {
        if (QWidget* field = wheelField(watched); field && !field->hasFocus()) {
            event->ignore(); // not taken: QApplication offers it to the parents, and the scroll area scrolls
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace sb::gui
