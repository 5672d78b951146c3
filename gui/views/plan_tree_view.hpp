// The plan tree: modules with their parameters and unit policies. Rows can be
// multi-selected; a policy edit on a selected row applies to all of them, and
// the context menu sets any policy on the whole selection in one undo step.
// The module names stay in place while the policy columns scroll sideways.
#pragma once

#include <QTreeView>

#include <vector>

namespace sb::gui {

class FrozenColumn;
class PlanTreeModel;
class PolicyDelegate;

class PlanTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit PlanTreeView(PlanTreeModel* model, QWidget* parent = nullptr);

    PlanTreeModel* planModel() const { return model_; }
    PolicyDelegate* policyDelegate() const { return delegate_; }
    // Module indices of the selected module rows (parameter rows are skipped).
    std::vector<int> selectedModules() const;
    // Expands to `module`, selects its row and scrolls to it.
    void selectModule(int module);
    // Root and block containers open, blocks closed: the shape of the model at a glance.
    void expandDefault();
    // The names kept in place over column 0 (a view that only draws).
    QTreeView* frozenNames() const;

    // Scrolls to `index`; to a module name only up and down, as the names stay in sight.
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

Q_SIGNALS:
    void makeBlocksUnitsRequested();

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void applyToSelection(int column, const QVariant& value);
    void askReshardK();

    PlanTreeModel* model_;
    PolicyDelegate* delegate_;
    FrozenColumn* frozen_ = nullptr;
};

} // namespace sb::gui
