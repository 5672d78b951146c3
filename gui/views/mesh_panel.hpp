// The device mesh: nodes x processes per node, the HSDP replicate degree, and
// the device each rank runs on with its capacity.
#pragma once

#include "retranslated.hpp"

#include <QWidget>

class QComboBox;
class QLabel;

namespace sb::gui {

class FieldNotes;
class NumberField;
class PlanDocument;
class PlanFields;

class MeshPanel : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit MeshPanel(PlanDocument* document, QWidget* parent = nullptr);

    NumberField* nodesBox() const { return nodes_; }
    NumberField* procsBox() const { return procs_; }
    NumberField* replicateBox() const { return replicate_; }
    QComboBox* deviceBox() const { return device_; }
    NumberField* capacityBox() const { return capacity_; }
    bool focusField(const QString& field);

private:
    void retranslateUi() override;
    void refresh();
    void deviceChosen(int index);

    PlanDocument* document_;
    FieldNotes* notes_;
    PlanFields* fields_;
    NumberField* nodes_;
    NumberField* procs_;
    NumberField* replicate_;
    QComboBox* device_;
    NumberField* capacity_;
    QLabel* labels_[5];
    QLabel* info_;
};

} // namespace sb::gui
