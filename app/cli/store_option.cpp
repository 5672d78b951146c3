#include "store_option.hpp"

#include "store/store_location.hpp"

namespace sb::cli {

QString storePathOption(const Args& a)
{
    const std::optional<std::string> db = a.value("--db");
    return db ? QString::fromStdString(*db) : store::defaultDatabasePath();
}

int usageError(std::ostream& err, const char* cmd, const std::string& msg, const char* usage)
{
    err << "shardbench-cli " << cmd << ": " << msg << "\nusage: " << usage << "\n";
    return 2;
}

} // namespace sb::cli
