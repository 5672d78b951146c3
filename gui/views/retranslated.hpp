// A widget that writes its texts in retranslateUi(): it calls that itself
// once built, and this calls it again on every language change.
#pragma once

#include <QEvent>

namespace sb::gui {

template <class Base>
class Retranslated : public Base {
public:
    using Base::Base;

protected:
    virtual void retranslateUi() = 0;

    void changeEvent(QEvent* event) override
    {
        if (event->type() == QEvent::LanguageChange) retranslateUi();
        Base::changeEvent(event);
    }
};

} // namespace sb::gui
