// The threads of the workbench's long background work (reading the history,
// loading runs to compare, verifying and exporting checkpoints). Not Qt's
// global pool: the raster paint engine splits large fills over that pool and
// waits for them, so work parked there would stall the window's painting.
#pragma once

class QThreadPool;

namespace sb::app {

QThreadPool* workPool();

} // namespace sb::app
