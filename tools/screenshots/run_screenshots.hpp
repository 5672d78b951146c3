// Screenshots of the Cluster, Run, Runs and Checkpoints areas with real data:
// runs of shardbench-core (next to the workbench) launched from the Run area
// into a temporary run store, one cancelled, one restored from a checkpoint
// at another world size, then compared; this machine's connection test.
#pragma once

namespace sb::gui {

class MainWindow;
class Shooter;

void runRunScreenshots(MainWindow& window, Shooter& shots);

} // namespace sb::gui
