// What the commands on the run store share: where the store is (--db FILE,
// or the default).
#pragma once

#include "args.hpp"

#include <QString>


namespace sb::cli {

// --db FILE when given, else store::defaultDatabasePath().
QString storePathOption(const Args& a);

} // namespace sb::cli
