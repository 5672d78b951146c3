// shardbench-cli: the headless twin of the workbench.
#include "plan_commands.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace {

const char* kUsage = R"(usage: shardbench-cli COMMAND [ARGS]

Plans and memory
  plan            write a plan from a preset or an imported module tree
  validate        check a plan and list every problem
  estimate        per-rank memory of a plan (--json, --csv, --timeline, --max-batch)
  export-script   write the plan as a PyTorch FSDP2 training script
  presets         list the model presets

Run 'shardbench-cli COMMAND --help' style errors show each command's options.
)";

} // namespace

int main(int argc, char** argv)
{
    using namespace sb::cli;
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string cmd = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (cmd == "plan") return cmdPlan(args, std::cout, std::cerr);
    if (cmd == "validate") return cmdValidate(args, std::cout, std::cerr);
    if (cmd == "estimate") return cmdEstimate(args, std::cout, std::cerr);
    if (cmd == "export-script") return cmdExportScript(args, std::cout, std::cerr);
    if (cmd == "presets") return cmdPresets(args, std::cout, std::cerr);
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        std::cout << kUsage;
        return 0;
    }
    std::cerr << "shardbench-cli: unknown command \"" << cmd << "\"\n" << kUsage;
    return 2;
}
