#include "training_panel.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "text/format.hpp"

#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
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
      seqLen_(countBox("seq_len", 1 << 22)), gradAccum_(countBox("grad_accum", 1 << 20)),
      steps_(countBox("steps", 1 << 30)), checkpointDir_(new QLineEdit), checkpointInterval_(countBox("checkpoint_interval", 1 << 30)),
      info_(new QLabel)
{
    setObjectName(QStringLiteral("trainingPanel"));
    checkpointDir_->setObjectName(QStringLiteral("checkpoint_dir"));
    checkpointInterval_->setMinimum(0);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    QWidget* fields[6] = {microBatch_, seqLen_, gradAccum_, steps_, checkpointDir_, checkpointInterval_};
    for (int i = 0; i < 6; ++i) {
        labels_[i] = new QLabel;
        form->addRow(labels_[i], fields[i]);
        if (i == 2) form->addRow(info_);
    }
    info_->setWordWrap(true);
    connect(microBatch_, &QSpinBox::valueChanged, this, [this] { edited(MergeMicroBatch); });
    connect(seqLen_, &QSpinBox::valueChanged, this, [this] { edited(MergeSeqLen); });
    connect(gradAccum_, &QSpinBox::valueChanged, this, [this] { edited(MergeGradAccum); });
    connect(steps_, &QSpinBox::valueChanged, this, [this] { edited(MergeSteps); });
    connect(checkpointInterval_, &QSpinBox::valueChanged, this, [this] { edited(MergeCheckpointInterval); });
    connect(checkpointDir_, &QLineEdit::editingFinished, this, [this] { edited(NoMerge); });
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
    labels_[3]->setText(tr("Steps"));
    labels_[4]->setText(tr("Checkpoint folder"));
    labels_[5]->setText(tr("Checkpoint every"));
    checkpointDir_->setPlaceholderText(tr("no checkpoints"));
    checkpointDir_->setToolTip(tr("Where runs save sharded checkpoints (step-NNNNNN folders); relative to the plan file"));
    checkpointInterval_->setSpecialValueText(tr("only at the end"));
    checkpointInterval_->setSuffix(tr(" steps"));
    refresh();
}

void TrainingPanel::refresh()
{
    const Plan& plan = document_->plan();
    const TrainingConfig& t = plan.training;
    const QSignalBlocker b1(microBatch_), b2(seqLen_), b3(gradAccum_), b4(steps_), b5(checkpointDir_), b6(checkpointInterval_);
    microBatch_->setValue(t.microBatch);
    seqLen_->setValue(t.seqLen);
    gradAccum_->setValue(t.gradAccum);
    steps_->setValue(t.steps);
    const QString dir = QString::fromStdString(t.checkpoint.dir);
    if (checkpointDir_->text() != dir) checkpointDir_->setText(dir);
    checkpointInterval_->setValue(t.checkpoint.interval);
    const std::int64_t tokens = static_cast<std::int64_t>(t.microBatch) * t.seqLen * t.gradAccum * plan.mesh.worldSize();
    info_->setText(tr("%1 tokens per optimizer step across all ranks").arg(formatCount(tokens)));
}

void TrainingPanel::edited(int mergeKey)
{
    TrainingConfig t = document_->plan().training;
    t.microBatch = microBatch_->value();
    t.seqLen = seqLen_->value();
    t.gradAccum = gradAccum_->value();
    t.steps = steps_->value();
    t.checkpoint.dir = checkpointDir_->text().trimmed().toStdString();
    t.checkpoint.interval = checkpointInterval_->value();
    if (!editTraining(*document_, t, mergeKey)) refresh();
}

bool TrainingPanel::focusField(const QString& field)
{
    if (field.startsWith(u"checkpoint.dir")) {
        checkpointDir_->setFocus(Qt::OtherFocusReason);
        checkpointDir_->selectAll();
        return true;
    }
    QSpinBox* box = field == u"seq_len"               ? seqLen_
                    : field == u"grad_accum"          ? gradAccum_
                    : field == u"steps"               ? steps_
                    : field.startsWith(u"checkpoint") ? checkpointInterval_
                                                      : microBatch_;
    box->setFocus(Qt::OtherFocusReason);
    box->selectAll();
    return true;
}

} // namespace sb::gui
