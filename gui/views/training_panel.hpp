// What one optimizer step processes per rank (micro-batch, sequence length,
// gradient accumulation), how many steps a run trains, and where and how
// often it saves checkpoints.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::gui {

class PlanDocument;

class TrainingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainingPanel(PlanDocument* document, QWidget* parent = nullptr);

    QSpinBox* microBatchBox() const { return microBatch_; }
    QSpinBox* seqLenBox() const { return seqLen_; }
    QSpinBox* gradAccumBox() const { return gradAccum_; }
    QSpinBox* stepsBox() const { return steps_; }
    QLineEdit* checkpointDirEdit() const { return checkpointDir_; }
    QSpinBox* checkpointIntervalBox() const { return checkpointInterval_; }
    bool focusField(const QString& field);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refresh();
    void edited(int mergeKey);

    PlanDocument* document_;
    QSpinBox* microBatch_;
    QSpinBox* seqLen_;
    QSpinBox* gradAccum_;
    QSpinBox* steps_;
    QLineEdit* checkpointDir_;
    QSpinBox* checkpointInterval_;
    QLabel* labels_[6];
    QLabel* info_;
};

} // namespace sb::gui
