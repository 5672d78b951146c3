// shardbench-cli: the headless twin of the workbench.
#include "annotate_commands.hpp"
#include "app_commands.hpp"
#include "attach_commands.hpp"
#include "command_table.hpp"
#include "run_command.hpp"
#include "store_commands.hpp"
#include "target_options.hpp"

#include <QCoreApplication>

#include <iostream>

namespace {

const char* kRunsSection = R"(Runs (recorded in the run store; --db FILE, default ~/.local/share/shardbench/runs.sqlite)
  run             launch a plan here (--local), over SSH (--hosts FILE, --host H) or via Slurm (--slurm)
                  and supervise it
                  (--detach: supervised on the cluster, survives this command; Ctrl-C then only detaches;
                  with --slurm: a batch job (sbatch) whose script supervises the run)
  attach          catch up with a detached run and follow it (--no-follow: catch up only)
  stop            stop a detached run (--kill: without the grace; Slurm: scancel of the whole job)
  runs            list the recorded runs (--refresh: catch up with detached runs first)
  show            a run's plan, status, reason and summary
  metrics         a run's per-rank step metrics (--csv), or system samples (--system)
  logs            a run's per-rank logs (--rank R, --grep TEXT)
  rename          give a run a name
  tag             add tags to a run (--remove: take them off; --clear)
  note            a note on a run (- reads it from standard input)
  delete          remove runs and their records from the store (asks; --yes); checkpoint files stay
  preflight       the workbench's pre-flight checks of a plan on a target (the options of run), without launching
  probe           test one SSH host (or --local): login, GPUs, shardbench-core and its version
  restore         a checkpoint as a new run at another world size (--world-size N; run's options)
)";

} // namespace

int main(int argc, char** argv)
{
    using namespace sb::cli;
    // The Qt-free commands (core/commands), with the commands that need Qt between
    // the plan and the checkpoint sections.
    CommandTable table = coreCommands();
    // preflight's TARGET and restore's RUN OPTIONS are run's target options.
    const std::string targeted = std::string("\n  TARGET: ") + kTargetUsage;
    table.insert(1, {kRunsSection,
                     {{"run", cmdRun, kRunUsage},
                      {"attach", cmdAttach, kAttachUsage},
                      {"stop", cmdStop, kStopUsage},
                      {"runs", cmdRuns, kRunsUsage},
                      {"show", cmdShow, kShowUsage},
                      {"metrics", cmdMetrics, kMetricsUsage},
                      {"logs", cmdLogs, kLogsUsage},
                      {"rename", cmdRename, kRenameUsage},
                      {"tag", cmdTag, kTagUsage},
                      {"note", cmdNote, kNoteUsage},
                      {"delete", cmdDelete, kDeleteUsage},
                      {"preflight", cmdPreflight, kPreflightUsage + targeted},
                      {"probe", cmdProbe, kProbeUsage},
                      {"restore", cmdRestore, kRestoreUsage + targeted}}});
    // Qt Core only (SQL driver, processes, event loop); never a display.
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("shardbench"));
    return table.dispatch(argc, argv, std::cout, std::cerr);
}
