#include "store_option.hpp"

#include "store/store_location.hpp"

namespace sb::cli {

QString storePathOption(const Args& a)
{
    const std::optional<std::string> db = a.value("--db");
    return db ? QString::fromStdString(*db) : store::defaultDatabasePath();
}

} // namespace sb::cli
