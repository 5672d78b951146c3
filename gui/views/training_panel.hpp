// Every training setting of the plan: what one optimizer step processes per
// rank (micro-batch, sequence length, accumulation) and how many steps run;
// AdamW with its schedule, warmup, clipping and seed; where the tokens come
// from; and where, how often and how many checkpoints are kept.
#pragma once

#include "retranslated.hpp"

#include "file_probe.hpp"
#include "plan/json_path.hpp"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sb::gui {

class FieldNotes;
class NumberField;
class PlanDocument;
class PlanFields;

class TrainingPanel : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit TrainingPanel(PlanDocument* document, QWidget* parent = nullptr);

    NumberField* microBatchBox() const { return numberField(QStringLiteral("micro_batch")); }
    NumberField* seqLenBox() const { return numberField(QStringLiteral("seq_len")); }
    NumberField* gradAccumBox() const { return numberField(QStringLiteral("grad_accum")); }
    NumberField* stepsBox() const { return numberField(QStringLiteral("steps")); }
    NumberField* checkpointIntervalBox() const { return numberField(QStringLiteral("checkpoint.interval")); }
    NumberField* numberField(const QString& keys) const; // "optimizer.lr"
    QLineEdit* checkpointDirEdit() const { return checkpointDir_; }
    QComboBox* scheduleBox() const { return schedule_; }
    QComboBox* dataKindBox() const { return dataKind_; }
    QLineEdit* dataPathEdit() const { return dataPath_; }
    QLineEdit* evalPathEdit() const { return evalPath_; }
    // A headerless token file's width (training.data.dtype): auto, uint16, uint32.
    QComboBox* dataDtypeBox() const { return dataDtype_; }
    QLabel* dataInfo() const { return dataInfo_; }
    QCheckBox* asyncBox() const { return async_; }
    FileProbe* dataFileProbe() const { return probe_; }
    FieldNotes* notes() const { return notes_; }
    bool focusField(const QString& field);
    // Uses `path` as the data file: relative to the plan's folder when inside it.
    void setDataFile(const QString& path);

private:
    void build();
    void retranslateUi() override;
    void refresh();
    void editTrainingField(double value, const JsonPath& path);
    void otherEdited(const JsonPath& path);
    QString dataFilePath() const;
    void describeDataFile();
    void showDataFile(const FileFacts* facts);
    void chooseDataFile();

    PlanDocument* document_;
    FieldNotes* notes_;
    PlanFields* fields_;
    QFormLayout* form_ = nullptr;
    QComboBox* schedule_;
    QComboBox* dataKind_;
    QLineEdit* dataPath_;
    QComboBox* dataDtype_;
    QPushButton* browse_;
    QLabel* dataInfo_;
    QLineEdit* evalPath_;
    QLineEdit* checkpointDir_;
    QCheckBox* async_;
    QLabel* info_;
    FileProbe* probe_;
    std::vector<QLabel*> captions_;
    std::vector<QLabel*> sections_;
};

} // namespace sb::gui
