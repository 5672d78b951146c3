// Which columns of a table show: the header's context menu lists every
// column with a check box; the choice is kept in a typed setting (the keys
// of the hidden columns, comma-separated) and applied again at start.
#pragma once

#include "settings/setting.hpp"

#include <QObject>

#include <functional>

class QHeaderView;
class QMenu;

namespace sb::gui {

class ColumnChooser : public QObject {
    Q_OBJECT
public:
    // `key` names a column in the setting; columns without a key are always shown.
    ColumnChooser(QHeaderView* header, const app::Setting<QString>& hidden, std::function<QString(int)> key);

    void setColumnShown(int column, bool shown); // and remembers it
    // The menu the header shows on a right click (for tests: it is built anew each time).
    QMenu* buildMenu(QWidget* parent);

Q_SIGNALS:
    void columnsChanged();

private:
    void apply();
    QHeaderView* header_;
    const app::Setting<QString>& hidden_;
    std::function<QString(int)> key_;
};

} // namespace sb::gui
