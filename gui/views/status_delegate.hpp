// Paints a state as a coloured dot before its text (run statuses, checkpoint
// statuses, connection checks, pre-flight results). The colour comes from the
// model through `colorRole`; an invalid colour paints no dot.
#pragma once

#include <QStyledItemDelegate>

namespace sb::gui {

class StatusDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit StatusDelegate(int colorRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int colorRole_;
};

} // namespace sb::gui
