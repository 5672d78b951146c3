// On demand: one rank's log of a detached run, fetched into the store. While
// following, a client receives rank 0's log live and no other rank's; the
// workbench's per-rank pane and `shardbench-cli logs RUN --rank R` call this
// for the others. It is a catch-up (`follow --once`) of that rank's log files
// (every attempt) from the store's offsets, over one connection: calling it
// again fetches only what was written since, and nothing is stored twice.
#pragma once

#include "attach_session.hpp"

#include <memory>

namespace sb::launch {

// A session ready to start() (openAttachSession, detached_control.hpp):
// connect finished(error) (and, for lines as they arrive,
// ingestor().logLine), then call start(). Or why not: the run is unknown,
// not detached, or has no rank `rank`.
Result<std::unique_ptr<AttachSession>> openRankLogFetch(const QString& dbPath, store::RunStore& store, qint64 runId, int rank,
                                                        HostKeyPolicy* policy, QObject* parent = nullptr);

} // namespace sb::launch
