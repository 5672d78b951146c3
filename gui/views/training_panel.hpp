// What one optimizer step processes per rank: micro-batch, sequence length
// and gradient accumulation.
#pragma once

#include <QWidget>

class QLabel;
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
    QLabel* labels_[3];
    QLabel* info_;
};

} // namespace sb::gui
