// The pre-flight's results in the command line's English: the catalogue's
// templates (app/run/preflight_codes.hpp) filled with the results' arguments.
#pragma once

#include "run/preflight.hpp"

#include <ostream>

namespace sb::cli {

QString preflightWords(const app::PreflightMessage& message);
QString preflightDetailWords(const app::PreflightDetail& detail);
// One "[ok  ] check: summary" line per check, its details indented below.
void printPreflight(const app::Preflight& preflight, std::ostream& out);

} // namespace sb::cli
