// Views name each widget where they create it: tests, EmptyState and
// FrozenColumn find widgets by objectName, so the name belongs with the widget.
#pragma once

#include <QString>

#include <utility>

namespace sb::gui {

// A new W, made from `args`, already called `objectName`.
template <class W, class... Args>
W* named(const char* objectName, Args&&... args)
{
    auto* widget = new W(std::forward<Args>(args)...);
    widget->setObjectName(QString::fromLatin1(objectName));
    return widget;
}

} // namespace sb::gui
