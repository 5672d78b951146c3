// The checkpoints of a run: those its rank 0 reported to the store, joined
// with what is on disk in the run's own folder DIR/<run uid> (the core keeps
// only the newest few; a folder may also be there without a report), plus
// format-1 step folders directly in DIR whose index names this run. A
// checkpoint belongs to the run its index.json names: one naming another run
// is never listed as this run's, nor restorable from it. Sizes, world sizes
// and times come from each checkpoint's own index.json when present. A PyTorch
// run's DCP checkpoints (kind "dcp": a step folder holding .metadata, no
// index.json) are listed the same way; they restore through the run's script.
#pragma once

#include "store/run_reader.hpp"

#include <QList>
#include <QString>

namespace sb::app {

struct CheckpointEntry {
    enum Status { Complete, Failed, Missing, Verified, Corrupt };
    int step = 0;
    QString path;
    QString kind;          // sharded | full | dcp
    double time = 0;       // unix seconds
    qint64 bytes = -1;
    int worldSize = 0;
    Status status = Complete;
    QString message;       // why it failed or is corrupt
    bool reported = false; // the core reported it (else only found on disk)
    QString runUid;        // the run its index.json names (sharded, once read)
    bool readOnly = false; // an index without its checksum: inspect, verify, export only
    bool restorable() const
    {
        return (kind == QLatin1String("sharded") || kind == QLatin1String("dcp")) && !readOnly && (status == Complete || status == Verified);
    }
};

// `run` must carry its plan (RunReader::run) for the checkpoint folder; a
// relative folder is taken from the current directory, as the CLI ran it.
QList<CheckpointEntry> listRunCheckpoints(store::RunReader& reader, const store::RunRow& run);
// The entry as the files say now (index.json, sizes); keeps path, kind and reported.
// With `runUid`, an index naming another run makes the entry Corrupt.
void refreshFromDisk(CheckpointEntry& entry, const QString& runUid = {});

} // namespace sb::app
