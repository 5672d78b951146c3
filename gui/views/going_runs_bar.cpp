#include "going_runs_bar.hpp"

#include "named_widget.hpp"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace sb::gui {

GoingRunsBar::GoingRunsBar(QWidget* parent)
    : Retranslated<QFrame>(parent), text_(new QLabel), attach_(named<QPushButton>("attachGoingRun")),
      showRuns_(named<QPushButton>("showGoingRuns"))
{
    setObjectName(QStringLiteral("goingRunsBar"));
    setFrameShape(QFrame::StyledPanel);
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(text_, 1);
    layout->addWidget(attach_);
    layout->addWidget(showRuns_);
    connect(attach_, &QPushButton::clicked, this, [this] {
        if (!runs_.isEmpty()) Q_EMIT attachRequested(runs_.first().id);
    });
    connect(showRuns_, &QPushButton::clicked, this, &GoingRunsBar::showRunsRequested);
    setRuns({});
}

void GoingRunsBar::setRuns(const QList<store::RunRow>& runs)
{
    runs_ = runs;
    setVisible(!runs_.isEmpty());
    retranslateUi();
}

void GoingRunsBar::retranslateUi()
{
    showRuns_->setText(tr("Show in Runs"));
    if (runs_.isEmpty()) {
        text_->clear();
        attach_->setText(tr("Attach"));
        return;
    }
    const store::RunRow& newest = runs_.first();
    attach_->setText(tr("Attach to run %1").arg(newest.id));
    if (runs_.size() == 1) {
        const QString where = newest.hosts.isEmpty() ? tr("this machine") : newest.hosts.join(QStringLiteral(", "));
        text_->setText(newest.name.isEmpty()
                           ? tr("Run %1, detached on %2, was still going when last heard from.").arg(newest.id).arg(where)
                           : tr("Run %1 (%2), detached on %3, was still going when last heard from.").arg(newest.id).arg(newest.name, where));
        return;
    }
    QStringList ids;
    for (const store::RunRow& r : runs_) ids << QString::number(r.id);
    text_->setText(tr("%n detached run(s) were still going when last heard from: %1.", nullptr, static_cast<int>(runs_.size())).arg(ids.join(QStringLiteral(", "))));
}

QList<store::RunRow> goingDetachedRuns(const QString& path)
{
    QList<store::RunRow> going;
    if (!QFileInfo::exists(path)) return going;
    const Result<std::unique_ptr<store::RunReader>> reader = store::RunReader::open(path);
    if (!reader) return going;
    for (const store::RunRow& r : reader.value()->listRuns())
        if (r.isDetached() && r.mayStillRun()) going << r;
    return going;
}

} // namespace sb::gui
