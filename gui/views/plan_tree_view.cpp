#include "plan_tree_view.hpp"

#include "frozen_column.hpp"
#include "header_fit.hpp"
#include "policy_delegate.hpp"

#include "document/plan_document.hpp"
#include "models/plan_tree_model.hpp"
#include "plan/plan_limits.hpp"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QInputDialog>
#include <QMenu>
#include <QScrollBar>

namespace sb::gui {

PlanTreeView::PlanTreeView(PlanTreeModel* model, QWidget* parent)
    : QTreeView(parent), model_(model), delegate_(new PolicyDelegate(this))
{
    setObjectName(QStringLiteral("planTree"));
    setModel(model_);
    setItemDelegate(delegate_);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                    QAbstractItemView::SelectedClicked);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setAllColumnsShowFocus(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->setDefaultSectionSize(96);
    setColumnWidth(PlanTreeModel::NameColumn, 220);
    setColumnWidth(PlanTreeModel::TypeColumn, 130);
    setColumnWidth(PlanTreeModel::ParamsColumn, 120);
    setColumnWidth(PlanTreeModel::ShapeColumn, 110);
    setColumnWidth(PlanTreeModel::UnitColumn, 56);
    setColumnWidth(PlanTreeModel::OffloadColumn, 66);
    setColumnWidth(PlanTreeModel::CheckpointColumn, 86);
    setColumnWidth(PlanTreeModel::ForwardPrefetchColumn, 130);
    setColumnWidth(PlanTreeModel::BackwardPrefetchColumn, 130);
    new HeaderFit(header());
    connect(model_, &QAbstractItemModel::modelReset, this, &PlanTreeView::expandDefault);
    expandDefault();
    frozen_ = new FrozenColumn(this);
}

QTreeView* PlanTreeView::frozenNames() const
{
    return frozen_->names();
}

void PlanTreeView::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    const int sideways = horizontalScrollBar()->value();
    QTreeView::scrollTo(index, hint);
    if (index.column() == PlanTreeModel::NameColumn) horizontalScrollBar()->setValue(sideways);
}

std::vector<int> PlanTreeView::selectedModules() const
{
    std::vector<int> out;
    for (const QModelIndex& i : selectionModel()->selectedRows(0))
        if (const int m = model_->moduleOf(i); m >= 0) out.push_back(m);
    return out;
}

void PlanTreeView::selectModule(int module)
{
    const QModelIndex index = model_->indexOfModule(module);
    if (!index.isValid()) return;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) expand(p);
    setCurrentIndex(index);
    selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    scrollTo(index, QAbstractItemView::PositionAtCenter);
}

void PlanTreeView::expandDefault()
{
    const QModelIndex root = model_->index(0, 0);
    expand(root);
    const PlanDocument* doc = model_->document();
    for (int b : doc->tree().blocks()) {
        const int container = doc->tree().module(b).parent;
        expand(model_->indexOfModule(container));
    }
    if (frozen_) frozen_->mirrorExpansion();
}

void PlanTreeView::applyToSelection(int column, const QVariant& value)
{
    QModelIndexList cells;
    for (const QModelIndex& row : selectionModel()->selectedRows(0)) cells << row.siblingAtColumn(column);
    model_->setCells(cells, value);
}

void PlanTreeView::askReshardK()
{
    const int shard = model_->document()->plan().mesh.shardSize();
    bool ok = false;
    const int k = QInputDialog::getInt(this, tr("Reshard after forward"),
                                       tr("Keep a 1/k copy after forward; k must divide the shard group of %1 ranks.").arg(shard),
                                       2, 1, plan_limits::kMaxReshardGroup, 1, &ok);
    if (ok) applyToSelection(PlanTreeModel::ReshardColumn, QString::number(k));
}

void PlanTreeView::contextMenuEvent(QContextMenuEvent* event)
{
    const bool any = !selectedModules().empty();
    QMenu menu(this);
    menu.addAction(tr("Make units"), this, [this] { applyToSelection(PlanTreeModel::UnitColumn, true); })->setEnabled(any);
    menu.addAction(tr("Remove units"), this, [this] { applyToSelection(PlanTreeModel::UnitColumn, false); })->setEnabled(any);
    menu.addAction(tr("Make every block a unit"), this, &PlanTreeView::makeBlocksUnitsRequested);
    menu.addSeparator();

    QMenu* reshard = menu.addMenu(tr("Reshard after forward"));
    reshard->addAction(tr("default"), this, [this] { applyToSelection(PlanTreeModel::ReshardColumn, QStringLiteral("default")); });
    reshard->addAction(QStringLiteral("True"), this, [this] { applyToSelection(PlanTreeModel::ReshardColumn, QStringLiteral("true")); });
    reshard->addAction(QStringLiteral("False"), this, [this] { applyToSelection(PlanTreeModel::ReshardColumn, QStringLiteral("false")); });
    reshard->addAction(tr("Integer k…"), this, &PlanTreeView::askReshardK);
    const std::pair<const char*, int> dtypeMenus[] = {
        {QT_TR_NOOP("Parameter dtype"), PlanTreeModel::ParamDtypeColumn},
        {QT_TR_NOOP("Reduce dtype"), PlanTreeModel::ReduceDtypeColumn},
        {QT_TR_NOOP("Output dtype"), PlanTreeModel::OutputDtypeColumn},
    };
    std::vector<QMenu*> policyMenus{reshard};
    for (const auto& [title, column] : dtypeMenus) {
        QMenu* sub = menu.addMenu(tr(title));
        policyMenus.push_back(sub);
        const int c = column;
        sub->addAction(tr("default"), this, [this, c] { applyToSelection(c, QString()); });
        for (const char* t : {"fp32", "bf16", "fp16", "fp64"}) {
            const QString name = QString::fromLatin1(t);
            sub->addAction(name, this, [this, c, name] { applyToSelection(c, name); });
        }
    }
    QMenu* offload = menu.addMenu(tr("CPU offload"));
    offload->addAction(tr("On"), this, [this] { applyToSelection(PlanTreeModel::OffloadColumn, true); });
    offload->addAction(tr("Off"), this, [this] { applyToSelection(PlanTreeModel::OffloadColumn, false); });
    QMenu* ac = menu.addMenu(tr("Activation checkpointing"));
    ac->addAction(tr("On"), this, [this] { applyToSelection(PlanTreeModel::CheckpointColumn, true); });
    ac->addAction(tr("Off"), this, [this] { applyToSelection(PlanTreeModel::CheckpointColumn, false); });
    policyMenus.push_back(offload);
    policyMenus.push_back(ac);
    for (QMenu* sub : policyMenus) sub->setEnabled(any);
    menu.addSeparator();
    menu.addAction(tr("Expand all"), this, [this] {
        expandAll();
        frozen_->mirrorExpansion();
    });
    menu.addAction(tr("Collapse all"), this, [this] {
        collapseAll();
        expandDefault();
    });
    menu.exec(event->globalPos());
}

} // namespace sb::gui
