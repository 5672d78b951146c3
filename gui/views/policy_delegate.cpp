#include "policy_delegate.hpp"

#include "models/plan_tree_model.hpp"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMouseEvent>

namespace sb::gui {

namespace {

bool isDtypeColumn(int c)
{
    return c == PlanTreeModel::ParamDtypeColumn || c == PlanTreeModel::ReduceDtypeColumn ||
           c == PlanTreeModel::OutputDtypeColumn;
}

bool isPrefetchColumn(int c)
{
    return c == PlanTreeModel::ForwardPrefetchColumn || c == PlanTreeModel::BackwardPrefetchColumn;
}

} // namespace

PolicyDelegate::PolicyDelegate(QAbstractItemView* view) : QStyledItemDelegate(view), view_(view) {}

QModelIndexList PolicyDelegate::targets(const QModelIndex& index) const
{
    QItemSelectionModel* sel = view_->selectionModel();
    if (!sel || !sel->isRowSelected(index.row(), index.parent())) return {index};
    QModelIndexList out;
    for (const QModelIndex& row : sel->selectedRows(0)) out << row.siblingAtColumn(index.column());
    return out;
}

QWidget* PolicyDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const int c = index.column();
    if (c == PlanTreeModel::ReshardColumn) {
        auto* box = new QComboBox(parent);
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        box->addItem(tr("default"), QStringLiteral("default"));
        box->addItem(QStringLiteral("True"), QStringLiteral("true"));
        box->addItem(QStringLiteral("False"), QStringLiteral("false"));
        for (int k : {2, 4, 8}) box->addItem(QString::number(k), QString::number(k));
        box->setToolTip(tr("default, True, False, or an integer k that divides the shard group"));
        return box;
    }
    if (isDtypeColumn(c)) {
        auto* box = new QComboBox(parent);
        box->addItem(tr("default"), QString());
        for (const char* t : {"fp32", "bf16", "fp16", "fp64"}) box->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
        return box;
    }
    if (isPrefetchColumn(c)) {
        auto* edit = new QLineEdit(parent);
        edit->setPlaceholderText(tr("layers.1, layers.2"));
        return edit;
    }
    return QStyledItemDelegate::createEditor(parent, option, index);
}

void PolicyDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const
{
    const QVariant value = index.data(Qt::EditRole);
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
        const int i = box->findData(value.toString());
        if (i >= 0) box->setCurrentIndex(i);
        else box->setEditText(value.toString());
        return;
    }
    if (auto* edit = qobject_cast<QLineEdit*>(editor); edit && isPrefetchColumn(index.column())) {
        edit->setText(value.toStringList().join(QStringLiteral(", ")));
        return;
    }
    QStyledItemDelegate::setEditorData(editor, index);
}

void PolicyDelegate::setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const
{
    auto* tree = qobject_cast<PlanTreeModel*>(model);
    if (!tree) return QStyledItemDelegate::setModelData(editor, model, index);
    QVariant value;
    if (auto* box = qobject_cast<QComboBox*>(editor)) {
        // A typed entry that matches an item means that item ("default" in German too).
        const int i = box->findText(box->currentText());
        value = i >= 0 && box->itemData(i).isValid() ? box->itemData(i) : QVariant(box->currentText().trimmed());
    } else if (auto* edit = qobject_cast<QLineEdit*>(editor)) {
        value = edit->text();
    } else {
        return QStyledItemDelegate::setModelData(editor, model, index);
    }
    tree->setCells(targets(index), value);
}

bool PolicyDelegate::editorEvent(QEvent* event, QAbstractItemModel* model, const QStyleOptionViewItem& option,
                                 const QModelIndex& index)
{
    auto* tree = qobject_cast<PlanTreeModel*>(model);
    const Qt::ItemFlags flags = model->flags(index);
    const QVariant state = index.data(Qt::CheckStateRole);
    if (!tree || !(flags & Qt::ItemIsUserCheckable) || !(flags & Qt::ItemIsEnabled) || !state.isValid())
        return QStyledItemDelegate::editorEvent(event, model, option, index);
    switch (event->type()) {
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick: {
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        const QWidget* w = opt.widget;
        const QRect check = (w ? w->style() : QApplication::style())->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt, w);
        const auto* me = static_cast<QMouseEvent*>(event);
        if (me->button() != Qt::LeftButton || !check.contains(me->position().toPoint())) return false;
        if (event->type() == QEvent::MouseButtonDblClick) return true; // the release already toggled
        break;
    }
    case QEvent::KeyPress: {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key != Qt::Key_Space && key != Qt::Key_Select) return false;
        break;
    }
    default: return false;
    }
    const bool on = state.toInt() != Qt::Checked;
    tree->setCells(targets(index), on);
    return true;
}

} // namespace sb::gui
