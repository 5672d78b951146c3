// Where the run store lives when the user does not say: the environment
// variable SHARDBENCH_DB, else runs.sqlite in the per-user application data
// folder (on Linux ~/.local/share/shardbench/). The CLI and the workbench use
// this one function so they always share the same file.
#pragma once

#include <QString>

namespace sb::store {

QString defaultDatabasePath();

} // namespace sb::store
