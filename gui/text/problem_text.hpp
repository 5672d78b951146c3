// A problem as a person reads it, in the current language: the template of
// its code (problem_templates.cpp), translated, filled with its arguments.
// With no translation loaded (English) this is word for word the sentence
// the CLI prints, since both fill the same template.
#pragma once

#include "launch/run_config_problems.hpp"
#include "plan/problem.hpp"

#include <QString>
#include <QStringList>

namespace sb::gui {

QString problemText(const Problem& p);
QString severityText(Severity s);

// The English template the GUI translates for a code; empty when it has none.
QString problemSourceTemplate(ProblemCode code);
// An argument as the current language writes it ("the root" translated).
QString problemArgText(const ProblemArg& arg);
// Replaces %1..%9 in one pass (an argument that contains "%2" stays as is).
QString fillTemplate(const QString& text, const QStringList& args);

// A run-settings problem (RunConfig::validate) in the current language.
QString runConfigProblemText(const launch::RunConfigProblem& p);

} // namespace sb::gui
