// What the supervisor makes of its ranks' output: each line into the run
// directory (events, logs, its own log), lines it cannot write counted as
// lost, and the events it acts on (errors, checkpoints, rank 0's steps).
#include "supervisor.hpp"

#include "supervisor_rank.hpp"
#include "remote_rank.hpp"
#include "slurm_steps.hpp"
#include "util/atomic_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace sb::supervise {

namespace {

constexpr std::size_t kMaxLine = 1 << 20; // a longer line is cut there

} // namespace

void Supervisor::log(const std::string& message)
{
    if (!record(supervisorLog_, protocol::logRecord(unixNow(), 0, message))) std::cerr << "shardbench-supervise: " << message << "\n";
}

bool Supervisor::record(AppendFile& file, std::string_view line)
{
    if (!file.isOpen()) return false; // said when it could not be opened
    const std::string name = file.path().substr(std::min(file.path().size(), dir_.size() + 1));
    if (file.append(line)) {
        if (const long long gap = losses_.written(name); gap > 0)
            log(name + " is written again; " + std::to_string(gap) + (gap == 1 ? " line" : " lines") + " could not be written to it");
        return true;
    }
    const int err = errno;
    if (losses_.lost(name, err)) {
        const std::string why = "cannot write " + name + ": " + errnoWords(err) + "; its lines are counted as lost until it can be written";
        if (&file == &supervisorLog_) std::cerr << "shardbench-supervise: " << why << "\n";
        else log(why);
        stateDue_ = true;
    }
    return false;
}

void Supervisor::onLine(Rank& r, char stream, std::string_view line)
{
    if (stream == 'o' && line.substr(0, 4) == protocol::kLinePrefix) {
        const std::string_view body = line.substr(4);
        const protocol::EventLine parsed = protocol::parseEventLine(body, "rank " + std::to_string(r.rank));
        if (parsed.ok || !parsed.problem.empty()) {
            // Kept as written: the launcher's reader decides about a newer version too.
            record(r.events, protocol::sanitizeUtf8(body));
            if (parsed.ok) onRankEvent(r, parsed);
            else record(r.log, protocol::logRecord(unixNow(), 'm', parsed.problem));
            return;
        }
        record(r.log, protocol::logRecord(unixNow(), 'm', line)); // a malformed event line
        return;
    }
    if (stream == 'e' && spec_.slurm && r.slurmStep.empty() && line.substr(0, sizeof kSlurmStepPrefix - 1) == kSlurmStepPrefix) {
        r.slurmStep = std::string(line.substr(sizeof kSlurmStepPrefix - 1));
        return;
    }
    if (stream == 'e' && r.remote && !r.confirmed && line.substr(0, sizeof kWrapperPidPrefix - 1) == kWrapperPidPrefix) {
        r.confirmed = true;
        r.remotePid = std::atoll(std::string(line.substr(sizeof kWrapperPidPrefix - 1)).c_str());
        writeState();
        return;
    }
    if (stream == 'e') {
        std::string_view t = line;
        while (!t.empty() && (t.back() == ' ' || t.back() == '\r' || t.back() == '\t')) t.remove_suffix(1);
        if (!t.empty() && !protocol::isRankProgressLine(t)) r.lastStderr = std::string(t.substr(0, 300));
    }
    record(r.log, protocol::logRecord(unixNow(), stream, line));
}

void Supervisor::onRankEvent(Rank& r, const protocol::EventLine& e)
{
    const std::string& type = e.envelope.type;
    if (type == protocol::type::error) {
        const protocol::Error err = protocol::Error::fromJson(e.body);
        r.lastError = err.message;
        if (!err.where.empty()) r.lastError += " (" + err.where + ")";
        return;
    }
    if (type == protocol::type::checkpoint) {
        const protocol::CheckpointEvent c = protocol::CheckpointEvent::fromJson(e.body);
        if (c.status != "complete") {
            // The run trains on, but it will not end plainly "completed".
            const int step = static_cast<int>(c.step);
            if (failedCheckpoints_.insert({attempts_.back().index, step}).second && firstCheckpointFailure_.empty())
                firstCheckpointFailure_ = "step " + std::to_string(step) + ": " + (c.message && !c.message->empty() ? *c.message : c.status);
        } else if (r.rank == 0 && c.kind != "full") {
            // Rank 0 reports a sharded checkpoint once every rank's part is durable.
            const int step = static_cast<int>(c.step);
            if (step >= latestCheckpointStep_ && !c.path.empty()) {
                latestCheckpointStep_ = step;
                latestCheckpoint_ = c.path;
            }
            for (auto& other : ranks_) {
                other->events.sync();
                other->log.sync();
            }
            writeState();
        }
        return;
    }
    if (r.rank == 0 && type == protocol::type::step) {
        const protocol::Step st = protocol::Step::fromJson(e.body);
        stepsDone_ = std::max(stepsDone_, static_cast<int>(st.step));
        const json::Value* loss = e.body.find("loss");
        if (loss && loss->isNumber()) {
            lastLoss_ = st.loss;
            haveLoss_ = true;
        }
    }
}

void Supervisor::readFrom(Rank& r, int fd, char stream)
{
    std::string& buf = stream == 'o' ? r.outBuf : r.errBuf;
    char chunk[65536];
    for (;;) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return; // EAGAIN
        if (n == 0) {
            if (!buf.empty()) onLine(r, stream, buf);
            buf.clear();
            ::close(fd);
            (stream == 'o' ? r.outFd : r.errFd) = -1;
            return;
        }
        buf.append(chunk, static_cast<std::size_t>(n));
        std::size_t start = 0;
        for (std::size_t nl; (nl = buf.find('\n', start)) != std::string::npos; start = nl + 1)
            onLine(r, stream, std::string_view(buf).substr(start, nl - start));
        buf.erase(0, start);
        while (buf.size() >= kMaxLine) {
            onLine(r, stream, std::string_view(buf).substr(0, kMaxLine));
            buf.erase(0, kMaxLine);
        }
    }
}

} // namespace sb::supervise
