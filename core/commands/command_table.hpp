// The commands of shardbench-cli as a table, and the one dispatcher both builds
// use: the Qt-free core build (core/commands/main.cpp) registers coreCommands()
// only; the full build (app/cli/main.cpp) registers its Qt commands on top.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

using CommandFn = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct Command {
    std::string name;
    CommandFn run;
    // What `shardbench-cli NAME --help` prints after "usage: ".
    std::string usage;
};

// A group of commands and the usage text that describes them (heading and one
// line per command, as printed).
struct CommandSection {
    std::string usage;
    std::vector<Command> commands;
};

class CommandTable {
public:
    // Sections print in the order added, `at` inserts before section `at`.
    void add(CommandSection section);
    void insert(std::size_t at, CommandSection section);
    // The Qt-free build names the full build's commands, so that asking for
    // one says it needs the full build rather than "unknown command".
    void setFullBuildOnly(std::vector<std::string> names);

    const Command* find(const std::string& name) const;
    bool fullBuildOnly(const std::string& name) const;
    std::string usage() const;

    // argv[1] picks the command, the rest are its arguments. Exit 2 with the
    // usage for no command or an unknown one. Exit 0 for help (`--help`, `-h`
    // or `help` as the command; `--help` or `-h` among a command's arguments:
    // that command's usage, on `out`) and for `--version`.
    int dispatch(int argc, char** argv, std::ostream& out, std::ostream& err) const;

private:
    std::vector<CommandSection> sections_;
    std::vector<std::string> fullBuildOnly_;
};

// The Qt-free commands: plan, validate, estimate, export-script, presets
// (section 0) and checkpoint inspect|verify|export (section 1).
CommandTable coreCommands();

// Whether a command's arguments ask for its help: "--help" or "-h" as an
// argument of its own ("--grep=--help" gives the text as a value).
bool asksForHelp(const std::vector<std::string>& args);

// The commands of the full build only, which the Qt-free build names when asked.
const std::vector<std::string>& fullBuildCommands();

} // namespace sb::cli
