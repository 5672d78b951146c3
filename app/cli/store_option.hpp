// What the commands on the run store share: where the store is (--db FILE,
// or the default), and how a misused command says so (exit 2).
#pragma once

#include "args.hpp"

#include <QString>

#include <ostream>
#include <string>

namespace sb::cli {

// --db FILE when given, else store::defaultDatabasePath().
QString storePathOption(const Args& a);
// "shardbench-cli CMD: MSG" and the usage line on `err`; returns 2.
int usageError(std::ostream& err, const char* cmd, const std::string& msg, const char* usage);

} // namespace sb::cli
