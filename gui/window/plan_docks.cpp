#include "plan_docks.hpp"

#include "settings/setting.hpp"

#include <QAction>
#include <QTabWidget>
#include <QWidget>

namespace sb::gui {

using app::Setting;

namespace {
// One setting per part, named after it: "window/planDocks/setupDock".
Setting<bool> shownSetting(const QWidget* part) { return Setting<bool>(QStringLiteral("window/planDocks/") + part->objectName(), true); }
} // namespace

PlanDocks::PlanDocks(QTabWidget* tabs, int planTab, const QList<Part>& parts, QObject* parent)
    : QObject(parent), tabs_(tabs), planTab_(planTab), parts_(parts)
{
    for (const Part& p : parts_) {
        const QWidget* widget = p.widget;
        connect(p.toggle, &QAction::toggled, this, [this, widget](bool shown) { toggled(widget, shown); });
    }
    connect(tabs_, &QTabWidget::currentChanged, this, &PlanDocks::apply);
}

void PlanDocks::restore()
{
    for (const Part& p : parts_) wanted_[p.widget] = shownSetting(p.widget).value();
    apply();
}

void PlanDocks::save() const
{
    for (const Part& p : parts_) shownSetting(p.widget).setValue(wanted(p.widget));
}

void PlanDocks::apply()
{
    const bool designing = tabs_->currentIndex() == planTab_;
    applying_ = true;
    for (const Part& p : parts_) {
        p.widget->setVisible(designing && wanted(p.widget));
        // The menu shows the choice even while another tab hides the part.
        p.toggle->setChecked(wanted(p.widget));
        p.toggle->setEnabled(designing);
    }
    applying_ = false;
}

void PlanDocks::toggled(const QWidget* part, bool shown)
{
    // Only a change made on the Plan tab is the user's choice; another tab hides the parts for a while.
    if (!applying_ && tabs_->currentIndex() == planTab_) wanted_[part] = shown;
}

} // namespace sb::gui
