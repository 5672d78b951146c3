#include "remote_rank.hpp"

namespace sb::supervise {

// $1 pid file, $2 grace seconds, $3 working folder; then the command.
// fd 3 keeps the channel's stdin for the watchdog: an asynchronous list of a
// non-interactive shell gets /dev/null as stdin unless redirected.
const char* const kRankWrapperScript =
    "pidfile=$1 grace=$2 workdir=$3\n"
    "shift 3\n"
    "if [ -n \"$workdir\" ]; then cd -- \"$workdir\" || { echo \"shardbench: cannot enter the working folder $workdir\" >&2; exit 126; }; fi\n"
    "command -v setsid >/dev/null 2>&1 || { echo 'shardbench: setsid (util-linux) is missing on this host' >&2; exit 126; }\n"
    "exec 3<&0\n"
    "setsid \"$@\" </dev/null 3<&- &\n"
    "c=$!\n"
    "echo \"$c\" >\"$pidfile\" 2>/dev/null\n"
    "printf '@sbw pid %s\\n' \"$c\" >&2\n"
    "( while read -r _; do :; done <&3\n"
    "  kill -TERM -\"$c\" 2>/dev/null\n"
    "  sleep \"$grace\"\n"
    "  kill -KILL -\"$c\" 2>/dev/null ) &\n"
    "w=$!\n"
    "exec 3<&-\n"
    "wait \"$c\"\n"
    "s=$?\n"
    "kill \"$w\" 2>/dev/null\n"
    "rm -f -- \"$pidfile\"\n"
    "exit \"$s\"\n";

std::string shellQuote(std::string_view arg)
{
    std::string out;
    out.reserve(arg.size() + 2);
    out += '\'';
    for (char c : arg) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    out += '\'';
    return out;
}

bool isValidEnvName(std::string_view name)
{
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

Result<std::string> remoteRankCommand(const std::string& pidFile, int graceSeconds, const std::string& workdir, const EnvList& env,
                                      const std::string& program, const std::vector<std::string>& args)
{
    std::vector<std::string> argv = {"/bin/sh", "-c", kRankWrapperScript, "sb-rank", pidFile, std::to_string(graceSeconds),
                                     workdir, "env"};
    for (const auto& [name, value] : env) {
        if (!isValidEnvName(name)) return Status::error("invalid environment variable name \"" + name + "\"");
        argv.push_back(name + "=" + value);
    }
    argv.push_back(program);
    argv.insert(argv.end(), args.begin(), args.end());
    std::string out = "exec";
    for (const std::string& a : argv) {
        if (a.find('\0') != std::string::npos)
            return Status::error("an argument contains a NUL byte, which no command line can carry");
        out += ' ';
        out += shellQuote(a);
    }
    return out;
}

} // namespace sb::supervise
