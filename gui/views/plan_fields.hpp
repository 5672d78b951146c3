// The Setup panels' fields, bound to paths of the plan. Each field shows the
// plan's value, or the value kept from the opened file as written, and is
// marked with the problems found at its path; a committed value is handed to
// the panel, which makes it an undoable edit that settles the path.
#pragma once

#include "number_field.hpp"

#include "plan/plan.hpp"

#include <QObject>

#include <functional>
#include <vector>

class QLabel;

namespace sb::gui {

class PlanDocument;

// What the document says about `path`: its problems' sentences, one per line
// (a value kept from the file has its reader's problem there too).
QString problemsAt(const PlanDocument& document, const JsonPath& path);
// Marks a field that is not a NumberField (a combo box, a check box).
void markInvalid(QWidget* widget, const QString& reason);

class PlanFields : public QObject {
    Q_OBJECT
public:
    using Get = std::function<double(const Plan&)>;
    using Commit = std::function<void(double value, const JsonPath& path)>;

    PlanFields(PlanDocument* document, FieldNotes* notes, QObject* parent);

    // Binds `field` (captioned by `caption`) to `path`.
    NumberField* bind(NumberField* field, QLabel* caption, JsonPath path, Get get, Commit commit);
    // Shows the document's values, kept values and problems in every field.
    void refresh();
    // The field bound to the keys after the section ("optimizer.lr"), or nullptr.
    NumberField* field(const QString& keys) const;

private:
    struct Binding {
        NumberField* field;
        JsonPath path;
        Get get;
    };
    PlanDocument* document_;
    FieldNotes* notes_;
    std::vector<Binding> bindings_;
};

} // namespace sb::gui
