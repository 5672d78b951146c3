#include "header_fit.hpp"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QTimer>

namespace sb::gui {

HeaderFit::HeaderFit(QHeaderView* header) : QObject(header), header_(header)
{
    header->installEventFilter(this);
    if (QAbstractItemModel* model = header->model()) {
        connect(model, &QAbstractItemModel::headerDataChanged, this, &HeaderFit::fit);
        connect(model, &QAbstractItemModel::modelReset, this, &HeaderFit::fit);
    }
    fit();
}

void HeaderFit::fit()
{
    for (int i = 0; i < header_->count(); ++i) {
        if (header_->isSectionHidden(i) || header_->sectionResizeMode(i) != QHeaderView::Interactive) continue;
        const int needed = header_->sectionSizeHint(i);
        if (header_->sectionSize(i) < needed) header_->resizeSection(i, needed);
    }
}

bool HeaderFit::eventFilter(QObject* watched, QEvent* event)
{
    // The titles change with the language after this event: fit on the next turn.
    if (watched == header_ && (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange))
        QTimer::singleShot(0, this, &HeaderFit::fit);
    return QObject::eventFilter(watched, event);
}

QList<int> clippedSections(const QHeaderView* header)
{
    QList<int> out;
    for (int i = 0; i < header->count(); ++i)
        if (!header->isSectionHidden(i) && header->sectionSize(i) < header->sectionSizeHint(i) &&
            !(header->stretchLastSection() && header->visualIndex(i) == header->count() - 1))
            out << i;
    return out;
}

} // namespace sb::gui
