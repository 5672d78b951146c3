// The pre-flight's results in the workbench's language: the codes of the
// pre-flight catalogue (app/run/preflight_codes.hpp) worded from the
// translatable templates below. The texts keep the translation context
// (sb::gui::Preflight) they had when the checks lived in the workbench.
#pragma once

#include "run/preflight.hpp"

#include <QString>
#include <QStringList>

#include <vector>

namespace sb::gui {

QString preflightText(const app::PreflightMessage& message);
QString preflightDetailText(const app::PreflightDetail& detail);
QString preflightCheckName(const app::Preflight::Item& item);
QString preflightSummaryText(const app::Preflight::Item& item); // "" while pending
QStringList preflightDetailLines(const app::Preflight::Item& item);

// The catalogue's templates as the workbench words them, marked for
// translation: a hand-kept list, row for row, that tests/gui/tst_gui_problems.cpp
// holds to the catalogue's codes and placeholders. The wording is the
// workbench's own (sentences, not the command line's terse English).
struct PreflightTextTemplate {
    const char* code;
    const char* text;
};
const std::vector<PreflightTextTemplate>& preflightTextTemplates();

} // namespace sb::gui
