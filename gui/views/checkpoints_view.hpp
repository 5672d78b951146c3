// The Checkpoints area: pick a run, see its checkpoints (step, time, size,
// world size, status), verify one or export it as a single .safetensors file
// (with progress and cancel), or restore it as a new run.
#pragma once

#include "retranslated.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace sb::gui {

class CheckpointsModel;

class CheckpointsView : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit CheckpointsView(CheckpointsModel* model, QWidget* parent = nullptr);

    QComboBox* runBox() const { return runs_; }
    QTableView* table() const { return table_; }
    QPushButton* verifyButton() const { return verify_; }
    QPushButton* exportButton() const { return export_; }
    QPushButton* exportHfButton() const { return exportHf_; }
    QPushButton* restoreButton() const { return restore_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QLabel* messageLabel() const { return message_; }

    // Runs to choose from: (id, label), newest first.
    void setRuns(const QList<QPair<qint64, QString>>& runs);
    void showRun(qint64 runId);
    qint64 currentRun() const;
    // The selected checkpoint's row in the model, or -1.
    int selectedRow() const;
    void selectRow(int modelRow);

    void setBusy(bool busy);
    void setProgress(double fraction);
    void setMessage(const QString& text, bool error = false);

Q_SIGNALS:
    // After a change of language: texts set from outside must be set again.
    void retranslated();
    void runChosen(qint64 runId);
    void verifyRequested(int row);
    void exportRequested(int row);
    void exportHfRequested(int row);
    void restoreRequested(int row);
    void cancelRequested();

private:
    void retranslateUi() override;
    void updateButtons();

    CheckpointsModel* model_;
    QSortFilterProxyModel* proxy_;
    QComboBox* runs_;
    QLabel* runLabel_;
    QTableView* table_;
    QPushButton* verify_;
    QPushButton* export_;
    QPushButton* exportHf_;
    QPushButton* restore_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* message_;
    bool busy_ = false;
};

} // namespace sb::gui
