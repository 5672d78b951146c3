// What belongs to designing (the Setup and Problems docks, the main toolbar
// of plan actions) shows with the Plan tab only: the other tabs get the whole
// window. What the user chose on the Plan tab (a dock or the toolbar hidden
// or shown with the View menu or a close button) holds whenever the Plan tab
// comes back, and across starts; off the Plan tab their View menu entries
// are off.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>

class QAction;
class QTabWidget;
class QWidget;

namespace sb::gui {

class PlanDocks : public QObject {
    Q_OBJECT
public:
    // A dock or toolbar and the action that shows or hides it (its toggleViewAction()).
    struct Part {
        QWidget* widget;
        QAction* toggle;
    };
    // `planTab`: the tab index the parts belong to.
    PlanDocks(QTabWidget* tabs, int planTab, const QList<Part>& parts, QObject* parent = nullptr);

    // Reads the choice saved at the last close and shows the parts for the current tab.
    void restore();
    void save() const;
    // Whether the user wants `part` on the Plan tab.
    bool wanted(const QWidget* part) const { return wanted_.value(part, true); }

private:
    void apply();
    void toggled(const QWidget* part, bool shown);

    QTabWidget* tabs_;
    int planTab_;
    QList<Part> parts_;
    QHash<const QWidget*, bool> wanted_;
    bool applying_ = false;
};

} // namespace sb::gui
