#include "column_chooser.hpp"

#include <QHeaderView>
#include <QMenu>

namespace sb::gui {

ColumnChooser::ColumnChooser(QHeaderView* header, const app::Setting<QString>& hidden, std::function<QString(int)> key)
    : QObject(header), header_(header), hidden_(hidden), key_(std::move(key))
{
    header_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        QMenu* menu = buildMenu(header_);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(header_->mapToGlobal(at));
    });
    apply();
}

void ColumnChooser::apply()
{
    const QStringList hidden = hidden_.value().split(u',', Qt::SkipEmptyParts);
    for (int c = 0; c < header_->count(); ++c) header_->setSectionHidden(c, !key_(c).isEmpty() && hidden.contains(key_(c)));
}

void ColumnChooser::setColumnShown(int column, bool shown)
{
    const QString key = key_(column);
    if (key.isEmpty()) return;
    QStringList hidden = hidden_.value().split(u',', Qt::SkipEmptyParts);
    hidden.removeAll(key);
    if (!shown) hidden << key;
    hidden_.setValue(hidden.join(u','));
    header_->setSectionHidden(column, !shown);
    Q_EMIT columnsChanged();
}

QMenu* ColumnChooser::buildMenu(QWidget* parent)
{
    auto* menu = new QMenu(parent);
    const QAbstractItemModel* model = header_->model();
    for (int c = 0; c < header_->count(); ++c) {
        if (key_(c).isEmpty()) continue;
        QAction* a = menu->addAction(model->headerData(c, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!header_->isSectionHidden(c));
        a->setData(c);
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
    }
    return menu;
}

} // namespace sb::gui
