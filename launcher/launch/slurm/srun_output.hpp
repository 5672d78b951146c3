// What srun writes, taken apart. With --label every line of a task starts
// with its task id ("3: text", the id padded with spaces to the width of the
// largest one); srun's own messages start with "srun: ". Tested against
// transcripts of real srun runs (tests/launcher/data/srun/).
#pragma once

#include "../backend.hpp"
#include "events/line_splitter.hpp"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <functional>
#include <map>

namespace sb::launch {

// "3: text" -> task 3, "text". False for a line without a label.
bool splitTaskLabel(QByteArrayView line, int* task, QByteArrayView* text);

// "0-2,5", "[0-1]" or "7" -> the task ids; empty when malformed.
QList<int> parseTaskList(QStringView list);

struct SrunMessage {
    enum Kind {
        Chatter,    // what --verbose adds that tells nothing new: dropped
        Queued,     // "job N queued and waiting for resources"
        Allocated,  // "job N has been allocated resources"
        JobNodes,   // "jobid N: nodes(K):`LIST', cpu counts: ..."
        StepLaunch, // "launching StepId=N.S on host H, K tasks: [a-b]"
        TaskExit,   // "H: tasks a-b: Exited with exit code C" (or Completed, Killed, ...)
        Other       // anything else, kept as a log line
    };
    Kind kind = Other;
    qint64 jobId = -1;         // Queued, Allocated, JobNodes, StepLaunch
    QString step;              // StepLaunch: "12.0"
    QString nodes;             // JobNodes: as Slurm writes it ("gpu[01-04]")
    QString host;              // StepLaunch, TaskExit
    QList<int> tasks;          // StepLaunch, TaskExit
    RankExit::Kind exitKind = RankExit::Exited; // TaskExit
    int code = 0;              // TaskExit: exit status or signal number
    QString text;              // the line without "srun: "
    bool fromSrun = false;     // the line started with "srun: "
};

// One line of srun's stderr that is not a task's.
SrunMessage parseSrunLine(QByteArrayView line);

// srun forwards a task's output in messages of at most 1024 bytes and labels
// each one, so a longer line arrives cut into 1024-byte labelled pieces. A
// full piece never holds the end of its line (the newline of a line of
// exactly 1024 bytes comes as the next, empty piece), so the joiner appends
// the task's next piece to it. Lines are capped like LineSplitter's.
class TaskLineJoiner {
public:
    static constexpr qsizetype kPieceBytes = 1024; // Slurm's MAX_MSG_LEN
    using Sink = std::function<void(int task, QByteArray line, bool truncated)>;

    void feed(int task, QByteArrayView text, const Sink& sink);
    void finish(const Sink& sink); // at the end of srun's output

private:
    std::map<int, protocol::LineSplitter> tasks_;
};

// srun's stdout and stderr taken apart: each task's lines (labels removed,
// pieces joined, stdout and stderr kept apart) and srun's own messages. A
// line without a label that is not srun's comes out as an Other message.
class SrunOutputReader {
public:
    struct Sinks {
        std::function<void(int task, OutputStream stream, QByteArray line, bool truncated)> taskLine;
        std::function<void(const SrunMessage& message)> message;
    };
    explicit SrunOutputReader(Sinks sinks) : sinks_(std::move(sinks)) {}

    void feed(OutputStream stream, QByteArrayView data);
    void finish(); // at the end of srun's output

private:
    void onLine(OutputStream stream, QByteArrayView line);

    Sinks sinks_;
    protocol::LineSplitter out_, err_;
    TaskLineJoiner outTasks_, errTasks_;
};

} // namespace sb::launch
