#include "file_banner.hpp"

#include "document/plan_document.hpp"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

namespace sb::gui {

FileBanner::FileBanner(PlanDocument* document, QWidget* parent)
    : QFrame(parent), document_(document), label_(new QLabel), show_(new QPushButton)
{
    setObjectName(QStringLiteral("fileBanner"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#fileBanner { background: #fff4e5; border: 1px solid #e0a040; }"));
    label_->setWordWrap(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(label_, 1);
    layout->addWidget(show_);
    connect(show_, &QPushButton::clicked, this, &FileBanner::showFirst);
    connect(document_, &PlanDocument::problemsChanged, this, &FileBanner::refresh);
    refresh();
}

QString FileBanner::text() const { return label_->text(); }

void FileBanner::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) refresh();
    QFrame::changeEvent(event);
}

void FileBanner::refresh()
{
    const int n = static_cast<int>(document_->keptValues().size());
    setVisible(n > 0);
    if (n == 0) return;
    const QString file = QFileInfo(document_->filePath()).fileName();
    label_->setText(n == 1 ? tr("1 problem in %1: the value the plan cannot use is kept as written and marked in red. "
                                "Saving keeps it until you fix it.")
                                 .arg(file)
                           : tr("%1 problems in %2: the values the plan cannot use are kept as written and marked in red. "
                                "Saving keeps them until you fix them.")
                                 .arg(QLocale().toString(n), file));
    show_->setText(tr("Show the first"));
}

} // namespace sb::gui
