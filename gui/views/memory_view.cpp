#include "memory_view.hpp"

#include "named_widget.hpp"

#include "rank_chart.hpp"
#include "timeline_chart.hpp"

#include "document/plan_edits.hpp"
#include "text/format.hpp"
#include "text/labels.hpp"
#include "models/memory_model.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sb::gui {

MemoryView::MemoryView(MemoryModel* model, QWidget* parent)
    : Retranslated<QWidget>(parent), model_(model), verdict_(named<QLabel>("memoryVerdict")), details_(new QLabel),
      batch_(named<QLabel>("largestBatch")), useBatch_(named<QPushButton>("useLargestBatch")),
      charts_(named<QTabWidget>("memoryCharts")), rankChart_(new RankChart), timelineChart_(new TimelineChart)
{
    setObjectName(QStringLiteral("memoryView"));
    verdict_->setWordWrap(true);
    verdict_->setMargin(8);
    verdict_->setAutoFillBackground(true);
    QFont big = verdict_->font();
    big.setPointSizeF(big.pointSizeF() * 1.1);
    big.setBold(true);
    verdict_->setFont(big);
    details_->setWordWrap(true);
    batch_->setWordWrap(true);
    // A longer verdict takes another line, never more width (the splitter beside keeps its place).
    for (QLabel* text : {verdict_, details_, batch_}) {
        text->setMinimumWidth(120);
        text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }

    auto* batchRow = new QHBoxLayout;
    batchRow->addWidget(batch_, 1);
    batchRow->addWidget(useBatch_);
    charts_->setDocumentMode(true);
    charts_->addTab(rankChart_, QString());
    charts_->addTab(timelineChart_, QString());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(verdict_);
    layout->addWidget(details_);
    layout->addLayout(batchRow);
    layout->addWidget(charts_, 1);

    connect(model_, &MemoryModel::estimateChanged, this, &MemoryView::showEstimate);
    connect(model_, &MemoryModel::largestMicroBatchChanged, this, &MemoryView::showLargestBatch);
    connect(useBatch_, &QPushButton::clicked, this, &MemoryView::useLargestBatch);
    retranslateUi();
    showEstimate();
}

QString MemoryView::verdictText() const { return verdict_->text(); }

QString MemoryView::largestBatchText() const { return batch_->text(); }

void MemoryView::retranslateUi()
{
    charts_->setTabText(0, tr("Per rank"));
    charts_->setTabText(1, tr("Through one step"));
    useBatch_->setText(tr("Use it"));
    useBatch_->setToolTip(tr("Set the micro-batch to the largest that fits (undoable)"));
    showEstimate();
}

void MemoryView::showEstimate()
{
    const PlanDocument* doc = model_->document();
    QPalette pal = verdict_->palette();
    if (!model_->hasEstimate()) {
        verdict_->setText(tr("The plan has errors: fix the problems listed below to see its memory."));
        details_->clear();
        pal.setColor(QPalette::Window, QColor(0xff, 0xf3, 0xcd));
        pal.setColor(QPalette::WindowText, QColor(0x66, 0x4d, 0x03));
        rankChart_->clear();
        timelineChart_->clear();
    } else {
        const Estimate& e = model_->estimate();
        const Plan& plan = doc->plan();
        const QString device = QString::fromStdString(plan.mesh.deviceName);
        const QString peak = formatBytes(e.peakBytes());
        const QString cap = formatGiB(toGiB(e.capacityBytes));
        const QString where = e.timeline.empty()
                                  ? QString()
                                  : TimelineChart::pointLabel(e.timeline[static_cast<std::size_t>(e.ranks[static_cast<std::size_t>(e.worstRank)].peakPoint)]);
        if (e.fits()) {
            verdict_->setText(tr("Fits: peak %1 on rank %2 (at %3), %4 to spare of %5 (%6).")
                                  .arg(peak, QString::number(e.worstRank), where,
                                       formatGiB(toGiB(e.capacityBytes - e.peakBytes())), cap, device));
            pal.setColor(QPalette::Window, QColor(0xe3, 0xf4, 0xe1));
            pal.setColor(QPalette::WindowText, QColor(0x1e, 0x5b, 0x20));
        } else {
            verdict_->setText(tr("Does not fit: rank %1 needs %2 at %3, %4 more than the %5 of a %6.")
                                  .arg(QString::number(e.worstRank), peak, where,
                                       formatGiB(toGiB(e.peakBytes() - e.capacityBytes)), cap, device));
            pal.setColor(QPalette::Window, overCapacityColor());
            pal.setColor(QPalette::WindowText, Qt::white);
        }
        details_->setText(tr("%1 parameters in %n shard unit(s) · world %2, shard group %3, replicate %4 · micro-batch %5 × sequence %6, accumulation %7",
                             nullptr, e.units)
                              .arg(formatCount(e.paramsTotal), formatCount(e.worldSize), formatCount(e.shardSize),
                                   QString::number(plan.mesh.replicate), QString::number(plan.training.microBatch),
                                   QString::number(plan.training.seqLen), QString::number(plan.training.gradAccum)));
        rankChart_->setEstimate(e, model_->groups());
        timelineChart_->setEstimate(e);
    }
    verdict_->setPalette(pal);
    shownRevision_ = model_->revision();
    showLargestBatch();
    Q_EMIT updated();
}

void MemoryView::showLargestBatch()
{
    const int b = model_->largestMicroBatch();
    const int current = model_->document()->plan().training.microBatch;
    if (b < 0) batch_->setText(model_->hasEstimate() ? tr("Largest micro-batch that fits: computing…") : QString());
    else if (b == 0) batch_->setText(tr("Largest micro-batch that fits: none, even a micro-batch of 1 is over capacity."));
    else batch_->setText(tr("Largest micro-batch that fits: %1 (now %2).").arg(b).arg(current));
    useBatch_->setEnabled(b > 0 && b != current);
}

void MemoryView::useLargestBatch()
{
    const int b = model_->largestMicroBatch();
    if (b <= 0) return;
    TrainingConfig t = model_->document()->plan().training;
    t.microBatch = b;
    editTraining(*model_->document(), t);
}

} // namespace sb::gui
