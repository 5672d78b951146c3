#include "status_delegate.hpp"

#include <QApplication>
#include <QPainter>

namespace sb::gui {

StatusDelegate::StatusDelegate(int colorRole, QObject* parent) : QStyledItemDelegate(parent), colorRole_(colorRole) {}

void StatusDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QColor color = index.data(colorRole_).value<QColor>();
    if (!color.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int d = opt.fontMetrics.height() / 2 + 2;
    const QRect cell = opt.rect;
    opt.rect.setLeft(cell.left() + d + 8);
    // The background and text as usual, the dot in the space left of it.
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, opt.widget);
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    const int top = opt.displayAlignment & Qt::AlignTop ? cell.top() + 4 : cell.center().y() - d / 2;
    painter->drawEllipse(QRect(cell.left() + 4, top, d, d));
    painter->restore();
}

QSize StatusDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(s.width() + option.fontMetrics.height() / 2 + 10);
    return s;
}

} // namespace sb::gui
