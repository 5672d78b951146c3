#include "empty_state.hpp"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QEvent>
#include <QLabel>

namespace sb::gui {

EmptyState::EmptyState(QAbstractItemView* view, std::function<QString()> text)
    : QObject(view), view_(view), label_(new QLabel(view->viewport())), text_(std::move(text))
{
    label_->setObjectName(view->objectName() + QStringLiteral("Empty"));
    label_->setAlignment(Qt::AlignCenter);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setStyleSheet(QStringLiteral("color: palette(mid); padding: 12px"));
    view->viewport()->installEventFilter(this);
    view->installEventFilter(this);
    QAbstractItemModel* model = view->model();
    connect(model, &QAbstractItemModel::modelReset, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::rowsInserted, this, &EmptyState::refresh);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &EmptyState::refresh);
    refresh();
}

void EmptyState::refresh()
{
    const bool empty = view_->model()->rowCount() == 0;
    label_->setVisible(empty);
    if (!empty) return;
    label_->setText(text_());
    label_->setGeometry(view_->viewport()->rect());
}

bool EmptyState::eventFilter(QObject* watched, QEvent* event)
{
    if ((watched == view_->viewport() && event->type() == QEvent::Resize) ||
        (watched == view_ && event->type() == QEvent::LanguageChange))
        refresh();
    return QObject::eventFilter(watched, event);
}

} // namespace sb::gui
