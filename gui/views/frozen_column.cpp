#include "frozen_column.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeView>

#include <functional>

namespace sb::gui {

FrozenColumn::FrozenColumn(QTreeView* view) : QObject(view), view_(view), names_(new QTreeView(view))
{
    names_->setObjectName(view->objectName() + QStringLiteral("Names"));
    names_->setFocusPolicy(Qt::NoFocus);
    names_->setFrameShape(QFrame::NoFrame);
    names_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    names_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    names_->setVerticalScrollMode(view->verticalScrollMode());
    names_->setUniformRowHeights(view->uniformRowHeights());
    names_->setAlternatingRowColors(view->alternatingRowColors());
    names_->setSelectionMode(view->selectionMode());
    names_->setSelectionBehavior(view->selectionBehavior());
    names_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    names_->setContextMenuPolicy(Qt::NoContextMenu); // the view's own menu: the event goes on to it, the parent
    names_->header()->setSectionResizeMode(QHeaderView::Fixed);
    names_->header()->setStretchLastSection(true);
    names_->setModel(view->model());
    follow();

    // One vertical position, one expansion state, one width for the names.
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, names_->verticalScrollBar(), &QScrollBar::setValue);
    connect(names_->verticalScrollBar(), &QScrollBar::valueChanged, view->verticalScrollBar(), &QScrollBar::setValue);
    connect(view, &QTreeView::expanded, names_, &QTreeView::expand);
    connect(view, &QTreeView::collapsed, names_, &QTreeView::collapse);
    connect(names_, &QTreeView::expanded, view, &QTreeView::expand);
    connect(names_, &QTreeView::collapsed, view, &QTreeView::collapse);
    // The keyboard goes on in the view from the row clicked here.
    connect(names_, &QTreeView::pressed, view, [view] { view->setFocus(Qt::MouseFocusReason); });
    connect(view->header(), &QHeaderView::sectionResized, this, &FrozenColumn::place);
    connect(view->header(), &QHeaderView::geometriesChanged, this, &FrozenColumn::place);
    connect(view->model(), &QAbstractItemModel::modelReset, this, [this] {
        follow();
        mirrorExpansion();
    });
    connect(view->model(), &QAbstractItemModel::layoutChanged, this, &FrozenColumn::mirrorExpansion);
    view->installEventFilter(this);
    view->viewport()->installEventFilter(this);
    mirrorExpansion();
    place();
    names_->raise();
    names_->show();
}

void FrozenColumn::follow()
{
    names_->setSelectionModel(view_->selectionModel());
    names_->setItemDelegate(view_->itemDelegate());
    names_->setIndentation(view_->indentation());
    names_->setRootIsDecorated(view_->rootIsDecorated());
    for (int c = 1; c < view_->model()->columnCount(); ++c) names_->setColumnHidden(c, true);
}

void FrozenColumn::mirrorExpansion()
{
    // Every index the view has open, opened here too (the model may have been rebuilt).
    const std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
        const QAbstractItemModel* m = view_->model();
        for (int r = 0; r < m->rowCount(parent); ++r) {
            const QModelIndex i = m->index(r, 0, parent);
            if (!m->hasChildren(i)) continue;
            names_->setExpanded(i, view_->isExpanded(i));
            if (view_->isExpanded(i)) walk(i);
        }
    };
    walk(QModelIndex());
    names_->verticalScrollBar()->setValue(view_->verticalScrollBar()->value());
}

void FrozenColumn::place()
{
    const int frame = view_->frameWidth();
    const int width = view_->columnWidth(0);
    const QHeaderView* header = view_->header();
    names_->header()->setVisible(!header->isHidden());
    names_->header()->setFixedHeight(header->isHidden() ? 0 : header->height());
    names_->setGeometry(frame, frame, width, view_->viewport()->height() + (header->isHidden() ? 0 : header->height()));
    names_->setColumnWidth(0, width);
}

bool FrozenColumn::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest ||
        (watched == view_ && event->type() == QEvent::Show))
        place();
    return QObject::eventFilter(watched, event);
}

} // namespace sb::gui
