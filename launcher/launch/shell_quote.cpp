#include "shell_quote.hpp"

#include "supervisor/remote_rank.hpp"

namespace sb::launch {

QByteArray shellQuote(const QByteArray& arg)
{
    return QByteArray::fromStdString(supervise::shellQuote(std::string_view(arg.constData(), static_cast<std::size_t>(arg.size()))));
}

Result<QByteArray> shellCommand(const QByteArrayList& argv)
{
    QByteArray out;
    for (const QByteArray& a : argv) {
        if (a.contains('\0')) return Status::error("an argument contains a NUL byte, which no command line can carry");
        if (!out.isEmpty()) out.append(' ');
        out.append(shellQuote(a));
    }
    return out;
}

bool isValidEnvName(const QByteArray& name)
{
    return supervise::isValidEnvName(std::string_view(name.constData(), static_cast<std::size_t>(name.size())));
}

} // namespace sb::launch
