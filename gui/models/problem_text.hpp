// A problem as a person reads it, in the current language. The core's
// English sentence is the source of truth: each known code has a pattern that
// takes the sentence apart and a translatable template that puts it back
// together. With no translation (English), or a sentence the pattern does not
// match, the core's own words are shown, exactly as the CLI prints them.
#pragma once

#include "plan/problem.hpp"

#include <QString>
#include <QStringList>

namespace sb::gui {

QString problemText(const Problem& p);
QString severityText(Severity s);

// For tests: the template for a problem and the values taken out of its
// sentence; false when no pattern matches.
bool problemTemplate(const Problem& p, QString* sourceTemplate, QStringList* args);
// Replaces %1..%9 in one pass (an argument that contains "%2" stays as is).
QString fillTemplate(const QString& text, const QStringList& args);

} // namespace sb::gui
