#include "plan_fields.hpp"

#include "document/plan_document.hpp"
#include "text/problem_text.hpp"

#include <QLabel>

namespace sb::gui {

QString problemsAt(const PlanDocument& document, const JsonPath& path)
{
    QStringList lines;
    for (const Problem& p : document.problems())
        if (p.path == path) lines << problemText(p);
    return lines.join(u'\n');
}

void markInvalid(QWidget* widget, const QString& reason)
{
    widget->setProperty("invalid", !reason.isEmpty());
    widget->setToolTip(reason);
    widget->setStyleSheet(reason.isEmpty() ? QString() : QStringLiteral("color: #b71c1c"));
}

PlanFields::PlanFields(PlanDocument* document, FieldNotes* notes, QObject* parent)
    : QObject(parent), document_(document), notes_(notes)
{
}

NumberField* PlanFields::bind(NumberField* field, QLabel* caption, JsonPath path, Get get, Commit commit)
{
    bindings_.push_back({field, path, std::move(get)});
    connect(field, &NumberField::committed, this, [commit = std::move(commit), path](double v) { commit(v, path); });
    if (notes_) notes_->watch(field, caption);
    return field;
}

void PlanFields::refresh()
{
    const Plan& plan = document_->plan();
    for (const Binding& b : bindings_) {
        if (const KeptValue* kept = document_->keptAt(b.path)) {
            b.field->showInvalid(QString::fromStdString(kept->raw.dump()), problemsAt(*document_, b.path));
            continue;
        }
        b.field->setProblem(problemsAt(*document_, b.path));
        b.field->setValue(b.get(plan));
    }
    if (notes_) notes_->refresh();
}

NumberField* PlanFields::field(const QString& keys) const
{
    for (const Binding& b : bindings_) {
        QString rest;
        for (std::size_t i = 1; i < b.path.steps().size(); ++i)
            rest += (i > 1 ? QStringLiteral(".") : QString()) + QString::fromStdString(b.path.keyAt(i));
        if (rest == keys) return b.field;
    }
    return nullptr;
}

} // namespace sb::gui
