#include "run_notes_dialog.hpp"

#include "named_widget.hpp"

#include "store/run_tags.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>

namespace sb::gui {

RunNotesDialog::RunNotesDialog(const QString& title, const QString& name, const QStringList& tags, const QString& notes,
                               QWidget* parent)
    : QDialog(parent), name_(named<QLineEdit>("runName", name)),
      tags_(named<QLineEdit>("runTags", tags.join(QStringLiteral(", ")))), notes_(named<QPlainTextEdit>("runNotes", notes))
{
    setObjectName(QStringLiteral("runNotesDialog"));
    setWindowTitle(title);
    tags_->setPlaceholderText(tr("lr-sweep, fp32, baseline"));
    name_->setMaxLength(200);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Tags"), tags_);
    form->addRow(tr("Notes"), notes_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(460, 320);
}

QString RunNotesDialog::name() const { return name_->text().simplified(); }
QStringList RunNotesDialog::tags() const { return store::parseTags(tags_->text()); }
QString RunNotesDialog::notes() const { return notes_->toPlainText().trimmed(); }

} // namespace sb::gui
