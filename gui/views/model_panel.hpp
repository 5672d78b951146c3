// The model a plan trains: a preset (sizes editable) or an imported module
// tree. Every change is one undoable edit; units follow the model (see
// planWithModel).
#pragma once

#include "retranslated.hpp"

#include "plan/json_path.hpp"

#include <QWidget>

#include <array>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace sb::gui {

class FieldNotes;
class NumberField;
class PlanDocument;
class PlanFields;

class ModelPanel : public Retranslated<QWidget> {
    Q_OBJECT
public:
    enum Size { Vocab, Dim, Layers, Heads, KvHeads, Ffn, MaxSeq, SizeCount };

    explicit ModelPanel(PlanDocument* document, QWidget* parent = nullptr);

    QComboBox* presetBox() const { return preset_; }
    NumberField* sizeBox(Size s) const { return sizes_[s]; }
    // The Llama form's fields by plan key ("head_dim", "rope_theta", "norm_eps", "sliding_window"); null for others.
    NumberField* formField(const QString& key) const;
    // Puts the cursor on the widget of a plan field ("n_layers", "dim", ...).
    bool focusField(const QString& field);

Q_SIGNALS:
    void importRequested();

private:
    void retranslateUi() override;
    void refresh();
    void presetChosen(int index);
    void sizeEdited(int size, double value, const JsonPath& path);
    void otherEdited();
    void markOthers(); // the preset, dtype and tied-embeddings problems

    PlanDocument* document_;
    FieldNotes* notes_;
    PlanFields* fields_;
    QComboBox* preset_;
    std::array<NumberField*, SizeCount> sizes_{};
    std::array<QLabel*, SizeCount> sizeLabels_{};
    // head_dim, rope_theta, norm_eps, sliding_window: the Llama form's (model_panel.cpp's kForm).
    std::array<NumberField*, 4> form_{};
    std::array<QLabel*, 4> formLabels_{};
    QCheckBox* tied_;
    QComboBox* dtype_;
    QLabel* presetLabel_;
    QLabel* dtypeLabel_;
    QLabel* info_;
    QPushButton* import_;
};

} // namespace sb::gui
