// A tree view's first column kept in place while its other columns scroll
// sideways, as a spreadsheet freezes its first column: a second tree view
// over the left edge shows only column 0 of the same model, with the same
// selection model, expansion and vertical scroll: a click on a name selects
// its row as a click on the view would, Ctrl and Shift included, opening a
// branch opens it in the view, and its context menu is the view's. The plan
// tree uses it so the module names of the rows being edited stay in sight
// beside their policies. The view should not scroll sideways to its column 0
// (PlanTreeView::scrollTo keeps its horizontal position for it).
#pragma once

#include <QObject>

class QTreeView;

namespace sb::gui {

class FrozenColumn : public QObject {
    Q_OBJECT
public:
    // Owned by `view`; `view` must have its model and selection model set.
    explicit FrozenColumn(QTreeView* view);

    QTreeView* names() const { return names_; }
    // Opens and closes rows as the view has them (after expandAll() or
    // collapseAll(), which signal nothing per row).
    void mirrorExpansion();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow();        // selection model, delegate, indentation, hidden columns
    void place();         // geometry over the view's column 0

    QTreeView* view_;
    QTreeView* names_;
};

} // namespace sb::gui
