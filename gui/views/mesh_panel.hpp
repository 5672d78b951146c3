// The device mesh: nodes x processes per node, the HSDP replicate degree, and
// the device each rank runs on with its capacity.
#pragma once

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace sb::gui {

class PlanDocument;

class MeshPanel : public QWidget {
    Q_OBJECT
public:
    explicit MeshPanel(PlanDocument* document, QWidget* parent = nullptr);

    QSpinBox* nodesBox() const { return nodes_; }
    QSpinBox* procsBox() const { return procs_; }
    QSpinBox* replicateBox() const { return replicate_; }
    QComboBox* deviceBox() const { return device_; }
    QDoubleSpinBox* capacityBox() const { return capacity_; }
    bool focusField(const QString& field);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refresh();
    void edited(int mergeKey);
    void deviceChosen(int index);

    PlanDocument* document_;
    QSpinBox* nodes_;
    QSpinBox* procs_;
    QSpinBox* replicate_;
    QComboBox* device_;
    QDoubleSpinBox* capacity_;
    QLabel* labels_[5];
    QLabel* info_;
};

} // namespace sb::gui
