#include "command_table.hpp"

#include "checkpoint_commands.hpp"
#include "command_exit.hpp"
#include "plan_commands.hpp"
#include "sb_version.hpp"

#include <algorithm>
#include <clocale>

namespace sb::cli {

namespace {

const char* kPlanSection = R"(Plans and memory
  plan            write a plan from a preset or an imported module tree
  validate        check a plan and list every problem
  estimate        per-rank memory of a plan (--json, --csv, --timeline, --max-batch)
  export-script   write the plan as a PyTorch FSDP2 training script
  presets         list the model presets
)";

const char* kCheckpointSection = R"(Checkpoints (sharded, as shardbench-core writes them)
  checkpoint inspect DIR               step, world size, tensors, sizes
  checkpoint verify DIR                every file's SHA-256 and every shard's CRC-32C
  checkpoint export DIR -o FILE        the unsharded model as one .safetensors file
                  DIR: a step-N folder, a run's folder (its newest), or a root of one run (--run ID picks one of several)
)";

} // namespace

void CommandTable::add(CommandSection section)
{
    sections_.push_back(std::move(section));
}

void CommandTable::insert(std::size_t at, CommandSection section)
{
    sections_.insert(sections_.begin() + static_cast<std::ptrdiff_t>(std::min(at, sections_.size())),
                     std::move(section));
}

void CommandTable::setFullBuildOnly(std::vector<std::string> names)
{
    fullBuildOnly_ = std::move(names);
}

const Command* CommandTable::find(const std::string& name) const
{
    for (const auto& section : sections_)
        for (const auto& command : section.commands)
            if (command.name == name) return &command;
    return nullptr;
}

bool CommandTable::fullBuildOnly(const std::string& name) const
{
    return !find(name) && std::find(fullBuildOnly_.begin(), fullBuildOnly_.end(), name) != fullBuildOnly_.end();
}

std::string CommandTable::usage() const
{
    std::string text = "usage: shardbench-cli COMMAND [ARGS]\n";
    for (const auto& section : sections_) text += "\n" + section.usage;
    if (!fullBuildOnly_.empty()) {
        text += "\nThis is the Qt-free build; the full build (Qt, SHARDBENCH_GUI=ON) adds\n ";
        for (std::size_t i = 0; i < fullBuildOnly_.size(); ++i) text += (i ? ", " : " ") + fullBuildOnly_[i];
        text += "\n";
    }
    text += "\n'shardbench-cli COMMAND --help' prints a command's options; --version the version.\n";
    return text;
}

int CommandTable::dispatch(int argc, char** argv, std::ostream& out, std::ostream& err) const
{
    if (argc < 2) {
        err << usage();
        return kExitBadInput;
    }
    // Numbers in plans and CSV stay in the C locale, whatever the user's is.
    std::setlocale(LC_NUMERIC, "C");
    const std::string cmd = argv[1];
    if (const Command* command = find(cmd)) {
        const std::vector<std::string> args(argv + 2, argv + argc);
        if (asksForHelp(args)) {
            out << "usage: " << command->usage << "\n";
            return kExitOk;
        }
        return command->run(args, out, err);
    }
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        out << usage();
        return kExitOk;
    }
    if (cmd == "--version" || cmd == "version") {
        out << "shardbench-cli " << kReleaseVersion << "\n";
        return kExitOk;
    }
    if (fullBuildOnly(cmd)) {
        err << "shardbench-cli: \"" << cmd << "\" needs the full build (Qt, configured with SHARDBENCH_GUI=ON); "
            << "this shardbench-cli is the Qt-free build (plan, validate, estimate, export-script, presets, checkpoint)\n";
        return kExitBadInput;
    }
    err << "shardbench-cli: unknown command \"" << cmd << "\"\n" << usage();
    return kExitBadInput;
}

bool asksForHelp(const std::vector<std::string>& args)
{
    return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

CommandTable coreCommands()
{
    CommandTable table;
    table.add({kPlanSection,
               {{"plan", cmdPlan, kPlanUsage},
                {"validate", cmdValidate, kValidateUsage},
                {"estimate", cmdEstimate, kEstimateUsage},
                {"export-script", cmdExportScript, kExportScriptUsage},
                {"presets", cmdPresets, kPresetsUsage}}});
    table.add({kCheckpointSection, {{"checkpoint", cmdCheckpoint, kCheckpointUsage}}});
    return table;
}

const std::vector<std::string>& fullBuildCommands()
{
    static const std::vector<std::string> names = {"run",    "attach", "stop", "runs",   "show",      "metrics", "logs",
                                                   "rename", "tag",    "note", "delete", "preflight", "probe",   "restore"};
    return names;
}

} // namespace sb::cli
