// The wheel scrolls the panel under the pointer; it changes a combo box, spin
// box or slider only when that field has the focus (issue 39: scrolling the
// Setup panel turned Device into "Custom GPU" as the combo box passed under
// the pointer). One filter for the whole application, so no field can forget
// it: such fields take the focus by click or Tab, no longer by the wheel, and
// an unfocused one leaves the wheel event to its parents (the scroll area).
// A NumberField is a line edit and never takes the wheel.
#pragma once

#include <QObject>

namespace sb::gui {

class WheelGuard : public QObject {
    Q_OBJECT
public:
    // Guards the application's fields, those there now and those to come; once.
    static void install();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QObject* parent) : QObject(parent) {}
};

} // namespace sb::gui
