// Editors for the policy cells of the plan tree (a combo box for reshard and
// dtypes, a line edit for prefetch lists) and check boxes that, like every
// edit here, apply to all selected rows when the edited row is one of them.
#pragma once

#include <QStyledItemDelegate>

class QAbstractItemView;

namespace sb::gui {

class PolicyDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit PolicyDelegate(QAbstractItemView* view);

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
    bool editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                     const QModelIndex& index) override;

    // The cells an edit of `index` applies to: the same column of every
    // selected row when `index` is selected, else `index` alone.
    QModelIndexList targets(const QModelIndex& index) const;

private:
    QAbstractItemView* view_;
};

} // namespace sb::gui
