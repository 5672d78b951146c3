#include "training_panel.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "models/format.hpp"

#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace sb::gui {

namespace {

QSpinBox* countBox(const char* name, int max)
{
    auto* box = new QSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(1, max);
    box->setKeyboardTracking(false);
    box->setGroupSeparatorShown(true);
    return box;
}

} // namespace

TrainingPanel::TrainingPanel(PlanDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), microBatch_(countBox("micro_batch", 1 << 20)),
      seqLen_(countBox("seq_len", 1 << 22)), gradAccum_(countBox("grad_accum", 1 << 20)), info_(new QLabel)
{
    setObjectName(QStringLiteral("trainingPanel"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    QWidget* fields[3] = {microBatch_, seqLen_, gradAccum_};
    for (int i = 0; i < 3; ++i) {
        labels_[i] = new QLabel;
        form->addRow(labels_[i], fields[i]);
    }
    info_->setWordWrap(true);
    form->addRow(info_);
    connect(microBatch_, &QSpinBox::valueChanged, this, [this] { edited(MergeMicroBatch); });
    connect(seqLen_, &QSpinBox::valueChanged, this, [this] { edited(MergeSeqLen); });
    connect(gradAccum_, &QSpinBox::valueChanged, this, [this] { edited(MergeGradAccum); });
    connect(document_, &PlanDocument::trainingChanged, this, &TrainingPanel::refresh);
    connect(document_, &PlanDocument::meshChanged, this, &TrainingPanel::refresh);
    retranslateUi();
}

void TrainingPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void TrainingPanel::retranslateUi()
{
    labels_[0]->setText(tr("Micro-batch"));
    labels_[1]->setText(tr("Sequence length"));
    labels_[2]->setText(tr("Accumulation steps"));
    gradAccum_->setToolTip(tr("Micro-batches per optimizer step (gradient accumulation without sync)"));
    refresh();
}

void TrainingPanel::refresh()
{
    const Plan& plan = document_->plan();
    const TrainingConfig& t = plan.training;
    const QSignalBlocker b1(microBatch_), b2(seqLen_), b3(gradAccum_);
    microBatch_->setValue(t.microBatch);
    seqLen_->setValue(t.seqLen);
    gradAccum_->setValue(t.gradAccum);
    const std::int64_t tokens = static_cast<std::int64_t>(t.microBatch) * t.seqLen * t.gradAccum * plan.mesh.worldSize();
    info_->setText(tr("%1 tokens per optimizer step across all ranks").arg(formatCount(tokens)));
}

void TrainingPanel::edited(int mergeKey)
{
    TrainingConfig t = document_->plan().training;
    t.microBatch = microBatch_->value();
    t.seqLen = seqLen_->value();
    t.gradAccum = gradAccum_->value();
    if (!editTraining(*document_, t, mergeKey)) refresh();
}

bool TrainingPanel::focusField(const QString& field)
{
    QSpinBox* box = field == u"seq_len" ? seqLen_ : field == u"grad_accum" ? gradAccum_ : microBatch_;
    box->setFocus(Qt::OtherFocusReason);
    box->selectAll();
    return true;
}

} // namespace sb::gui
