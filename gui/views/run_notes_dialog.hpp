// A person's words on a run, as W&B keeps them: its name, its tags (comma
// separated: "lr-sweep, fp32") and free notes.
#pragma once

#include <QDialog>
#include <QStringList>

class QLineEdit;
class QPlainTextEdit;

namespace sb::gui {

class RunNotesDialog : public QDialog {
    Q_OBJECT
public:
    RunNotesDialog(const QString& title, const QString& name, const QStringList& tags, const QString& notes,
                   QWidget* parent = nullptr);

    QString name() const;
    QStringList tags() const;
    QString notes() const;
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* tagsEdit() const { return tags_; }
    QPlainTextEdit* notesEdit() const { return notes_; }

private:
    QLineEdit* name_;
    QLineEdit* tags_;
    QPlainTextEdit* notes_;
};


} // namespace sb::gui
