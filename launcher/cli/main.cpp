// shardbench-cli: the headless twin of the workbench.
#include "app_commands.hpp"
#include "attach_commands.hpp"
#include "checkpoint_commands.hpp"
#include "plan_commands.hpp"
#include "run_command.hpp"
#include "store_commands.hpp"

#include <QCoreApplication>

#include <clocale>
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

Runs (recorded in the run store; --db FILE, default ~/.local/share/shardbench/runs.sqlite)
  run             launch a plan here (--local), over SSH (--hosts FILE, --host H) or via Slurm (--slurm)
                  and supervise it
                  (--detach: supervised on the cluster, survives this command; Ctrl-C then only detaches;
                  with --slurm: a batch job (sbatch) whose script supervises the run)
  attach          catch up with a detached run and follow it (--no-follow: catch up only)
  stop            stop a detached run (--kill: without the grace; Slurm: scancel of the whole job)
  runs            list the recorded runs (--refresh: catch up with detached runs first)
  show            a run's plan, status, reason and summary
  metrics         a run's per-rank step metrics (--csv)
  logs            a run's per-rank logs (--rank R)
  preflight       the workbench's pre-flight checks of a plan on a target (the options of run), without launching
  probe           test one SSH host (or --local): login, GPUs, shardbench-core and its version
  restore         a checkpoint as a new run at another world size (--world-size N; run's options)

Checkpoints (sharded, as shardbench-core writes them)
  checkpoint inspect DIR               step, world size, tensors, sizes
  checkpoint verify DIR                every file's SHA-256 and every shard's CRC-32C
  checkpoint export DIR -o FILE        the unsharded model as one .safetensors file
                  DIR: a step-N folder, a run's folder (its newest), or a root of one run (--run ID picks one of several)

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
    // Qt Core only (SQL driver, processes, event loop); never a display.
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("shardbench"));
    // Qt adopts the user's locale; numbers in plans and CSV stay in the C locale.
    std::setlocale(LC_NUMERIC, "C");
    const std::string cmd = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (cmd == "plan") return cmdPlan(args, std::cout, std::cerr);
    if (cmd == "validate") return cmdValidate(args, std::cout, std::cerr);
    if (cmd == "estimate") return cmdEstimate(args, std::cout, std::cerr);
    if (cmd == "export-script") return cmdExportScript(args, std::cout, std::cerr);
    if (cmd == "presets") return cmdPresets(args, std::cout, std::cerr);
    if (cmd == "run") return cmdRun(args, std::cout, std::cerr);
    if (cmd == "runs") return cmdRuns(args, std::cout, std::cerr);
    if (cmd == "attach") return cmdAttach(args, std::cout, std::cerr);
    if (cmd == "stop") return cmdStop(args, std::cout, std::cerr);
    if (cmd == "show") return cmdShow(args, std::cout, std::cerr);
    if (cmd == "metrics") return cmdMetrics(args, std::cout, std::cerr);
    if (cmd == "logs") return cmdLogs(args, std::cout, std::cerr);
    if (cmd == "checkpoint") return cmdCheckpoint(args, std::cout, std::cerr);
    if (cmd == "preflight") return cmdPreflight(args, std::cout, std::cerr);
    if (cmd == "probe") return cmdProbe(args, std::cout, std::cerr);
    if (cmd == "restore") return cmdRestore(args, std::cout, std::cerr);
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        std::cout << kUsage;
        return 0;
    }
    std::cerr << "shardbench-cli: unknown command \"" << cmd << "\"\n" << kUsage;
    return 2;
}
