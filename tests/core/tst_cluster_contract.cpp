// core/protocol's definition of a detached run's files (docs/protocol.md,
// "Detached runs: the cluster contract"): state.json survives
// runStateJson/readRunState field for field and a newer, malformed or
// non-object state is refused by name; every follow record the follower
// writes reads back as written, on both wires, and a malformed one is
// refused; log records and the signal reply read back, the latter among
// other lines.
#include "protocol/follow_records.hpp"
#include "protocol/run_dir_layout.hpp"
#include "protocol/run_state.hpp"
#include "protocol/signal_reply.hpp"

#include <QtTest/QtTest>

#include <limits>

using namespace sb;
using namespace sb::protocol;

namespace {

RunState fullState()
{
    RunState s;
    s.runId = "r-42";
    s.status = "restarting";
    s.reason = {"rank 1 exited with 1", "run.rank_exit", {"1", "1"}};
    s.failingRank = 1;
    s.failingHost = "node-b";
    s.attempt = 2;
    s.maxRestarts = 5;
    s.worldSize = 4;
    s.supervisor = StateSupervisor{4242, "head"};
    s.startedAt = 1700000000.5;
    s.endedAt = 1700000100.25;
    s.updatedAt = 1700000099.0;
    s.refreshS = kStateRefreshS;
    s.stepsDone = 120;
    s.failedCheckpoints = 1;
    s.finalLoss = 2.5;
    s.latestCheckpoint = StateCheckpoint{100, "/ckpt/r-42/step-000100"};
    s.losses = {3, {{"attempt-0/rank-1.log", 3}}, "no space left on device (ENOSPC)", "cannot replace state.json"};
    StateAttempt a;
    a.attempt = 1;
    a.startedAt = 1700000001.0;
    a.endedAt = 1700000050.0;
    a.status = "failed";
    a.reason = StateReason{"rank 1 exited with 1", "run.rank_exit", {"1", "1"}};
    a.failingRank = 1;
    a.resumeDir = "/ckpt/r-42/step-000100";
    a.masterPort = 29500;
    s.attempts = {a};
    s.ranks = {{0, "head", 100, true, ""}, {1, "node-b", 101, false, "exit 1"}};
    return s;
}

json::Value parsed(const std::string& text)
{
    json::ParseResult r = json::parse(text);
    if (!r) qFatal("not JSON: %s", text.c_str());
    return *r.value;
}

} // namespace

class TestClusterContract : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stateRoundTrip()
    {
        const RunState s = fullState();
        const Result<RunState> back = readRunState(parsed(runStateJson(s).dump()), "state.json", "update");
        QVERIFY2(back.ok(), back.error().c_str());
        const RunState& b = back.value();
        QCOMPARE(b.version, kStateVersion);
        QCOMPARE(b.runId, s.runId);
        QCOMPARE(b.status, s.status);
        QCOMPARE(b.reason.text, s.reason.text);
        QCOMPARE(b.reason.code, s.reason.code);
        QVERIFY(b.reason.args == s.reason.args);
        QCOMPARE(b.failingRank, 1);
        QCOMPARE(b.failingHost, s.failingHost);
        QCOMPARE(b.attempt, 2);
        QCOMPARE(b.maxRestarts, 5);
        QCOMPARE(b.worldSize, 4);
        QVERIFY(b.supervisor && b.supervisor->pid == 4242 && b.supervisor->host == "head");
        QCOMPARE(*b.startedAt, *s.startedAt);
        QCOMPARE(*b.endedAt, *s.endedAt);
        QCOMPARE(*b.updatedAt, *s.updatedAt);
        QCOMPARE(b.refreshS, kStateRefreshS);
        QCOMPARE(b.stepsDone, 120LL);
        QCOMPARE(b.failedCheckpoints, 1LL);
        QCOMPARE(*b.finalLoss, 2.5);
        QVERIFY(b.latestCheckpoint && b.latestCheckpoint->step == 100 && b.latestCheckpoint->path == s.latestCheckpoint->path);
        QCOMPARE(b.losses.lines, 3LL);
        QVERIFY(b.losses.byFile == s.losses.byFile);
        QCOMPARE(b.losses.writeError, s.losses.writeError);
        QCOMPARE(b.losses.stateWriteError, s.losses.stateWriteError);
        QCOMPARE(b.attempts.size(), std::size_t(1));
        const StateAttempt& a = b.attempts[0];
        QVERIFY(a.attempt == 1 && *a.startedAt == 1700000001.0 && *a.endedAt == 1700000050.0 && a.status == "failed");
        QVERIFY(a.reason && a.reason->code == "run.rank_exit" && a.failingRank == 1 && a.masterPort == 29500);
        QCOMPARE(a.resumeDir, s.attempts[0].resumeDir);
        QCOMPARE(b.ranks.size(), std::size_t(2));
        QVERIFY(b.ranks[1].rank == 1 && b.ranks[1].host == "node-b" && b.ranks[1].pid == 101 && !b.ranks[1].running &&
                b.ranks[1].exit == "exit 1");
        QVERIFY(b.ranks[0].running && b.ranks[0].exit.empty());
    }

    void stateWithoutOptionalFields()
    {
        // A Slurm job in the queue: a status and a reason, nothing else.
        RunState queued;
        queued.status = "starting";
        const json::Value j = runStateJson(queued);
        for (const char* absent : {"supervisor", "started_at", "ended_at", "updated_at", "refresh_s", "final_loss",
                                   "latest_checkpoint", "lines_lost", "state_write_error", "reason_code"})
            QVERIFY2(!j.contains(absent), absent);
        const Result<RunState> back = readRunState(j, "state.json", "update");
        QVERIFY(back.ok());
        QVERIFY(!back.value().supervisor && !back.value().startedAt && !back.value().finalLoss);
        // The first supervisors wrote no "version": it reads as 1. Unknown fields are ignored.
        const Result<RunState> old = readRunState(parsed(R"({"status":"running","attempt":1,"later_field":[1,2]})"), "s", "u");
        QVERIFY(old.ok() && old.value().status == "running" && old.value().attempt == 1);
        // A field of another type reads as absent, never as garbage.
        const Result<RunState> odd = readRunState(parsed(R"({"status":7,"attempt":"two","supervisor":[]})"), "s", "u");
        QVERIFY(odd.ok() && odd.value().status.empty() && odd.value().attempt == 0 && !odd.value().supervisor);
        // Numbers past a field's range saturate (a cast would be undefined).
        const Result<RunState> huge = readRunState(parsed(R"({"attempt":1e300,"steps_done":-1e300,"ranks":[{"rank":-1e40,"pid":1e40}]})"), "s", "u");
        QVERIFY(huge.ok());
        QCOMPARE(huge.value().attempt, std::numeric_limits<int>::max());
        QCOMPARE(huge.value().stepsDone, std::numeric_limits<long long>::min());
        QCOMPARE(huge.value().ranks.at(0).rank, std::numeric_limits<int>::min());
        QCOMPARE(huge.value().ranks.at(0).pid, std::numeric_limits<long long>::max());
    }

    void stateRefusedByName()
    {
        const std::string newer = R"({"version":)" + std::to_string(kStateVersion + 1) + R"(,"status":"running"})";
        Result<RunState> r = readRunState(parsed(newer), "/runs/r1/state.json", "update shardbench on this machine");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error()),
                 QStringLiteral("/runs/r1/state.json is version %1; this build reads version %2: update shardbench on this machine")
                     .arg(kStateVersion + 1)
                     .arg(kStateVersion));
        r = readRunState(parsed(R"({"version":"1"})"), "state.json", "u");
        QVERIFY(!r.ok() && r.error() == "state.json: its \"version\" is not a whole number from 1");
        r = readRunState(parsed(R"({"version":0})"), "state.json", "u");
        QVERIFY(!r.ok());
        r = readRunState(parsed("[1]"), "state.json", "u");
        QVERIFY(!r.ok() && r.error() == "state.json is not a JSON object");
    }

    void followRecordsReadBackAsWritten()
    {
        using Kind = FollowRecord::Kind;
        const std::string line = "{\"type\":\"step\",\"step\":3} \xff tail"; // invalid UTF-8 inside
        for (int wire : {1, 2})
            for (bool live : {false, true}) {
                std::string out;
                appendLineRecord(out, wire, "attempt-0/rank-1.events", 120, 150, line, live);
                QVERIFY(out.back() == '\n');
                out.pop_back();
                QCOMPARE(out[0] == '{', wire == 1);
                const std::optional<FollowRecord> r = parseFollowRecord(out);
                QVERIFY2(r, out.c_str());
                QVERIFY(r->kind == Kind::Line && r->file == "attempt-0/rank-1.events" && r->offset == 120 && r->next == 150);
                QCOMPARE(r->live, live);
                QCOMPARE(r->data, sanitizeUtf8(line));
            }
        std::string out;
        appendStateRecord(out, true, 1.5, runStateJson(fullState()).dump());
        appendBeatRecord(out, 1700000000.5, true, 12.5);
        appendRefusedRecord(out, "attempt-0/rank-9.log", "a symbolic link");
        appendErrorRecord(out, "the run directory is gone");
        appendEndRecord(out, false);
        std::vector<std::string> lines;
        for (std::size_t at = 0, end; (end = out.find('\n', at)) != std::string::npos; at = end + 1) lines.push_back(out.substr(at, end - at));
        QCOMPARE(lines.size(), std::size_t(5));
        auto state = parseFollowRecord(lines[0]);
        QVERIFY(state && state->kind == Kind::State && state->alive == true && state->age == 1.5);
        QVERIFY(readRunState(state->state, "s", "u").value().runId == "r-42");
        auto beat = parseFollowRecord(lines[1]);
        QVERIFY(beat && beat->kind == Kind::Beat && beat->t == 1700000000.5 && beat->age == 12.5);
        auto refused = parseFollowRecord(lines[2]);
        QVERIFY(refused && refused->kind == Kind::Refused && refused->file == "attempt-0/rank-9.log" && refused->text == "a symbolic link");
        auto error = parseFollowRecord(lines[3]);
        QVERIFY(error && error->kind == Kind::Error && error->text == "the run directory is gone");
        auto end = parseFollowRecord(lines[4]);
        QVERIFY(end && end->kind == Kind::End && end->alive == false && end->age < 0);
    }

    void malformedFollowRecordsRefused()
    {
        const std::optional<FollowRecord> far = parseFollowRecord(R"({"k":"l","f":"a","o":1e300,"n":1e301,"d":"x"})");
        QVERIFY(!far); // both saturate to the same offset: not a line
        for (const char* bad : {"L attempt-0/rank-1.events 150 120 backwards", "L f 10 x line", "X f 1 2 line", "L  1 2 x",
                                R"({"k":"l","f":"a","o":5,"n":5,"d":"empty range"})", R"({"k":"l","f":"a","o":1,"n":5})",
                                R"({"k":"state","state":"not an object"})", R"({"k":"nonsense"})", R"([1,2])", "{not json"})
            QVERIFY2(!parseFollowRecord(bad), bad);
        // Wire 2's line read in place: the views point into the record.
        const std::string record = "E attempt-3/rank-7.events 10 25 {\"type\":\"done\"}";
        const std::optional<TextLineRecord> t = parseTextLineRecord(record);
        QVERIFY(t && t->live && t->file == "attempt-3/rank-7.events" && t->offset == 10 && t->next == 25);
        QVERIFY(t->data.data() >= record.data() && t->data == "{\"type\":\"done\"}");
    }

    void logRecordsAndLayout()
    {
        const std::optional<LogLine> l = parseLogRecord(logRecord(12.25, 'e', "Traceback \xfe"));
        QVERIFY(l && l->t == 12.25 && l->stream == 'e' && l->line == "Traceback \xEF\xBF\xBD");
        const std::optional<LogLine> own = parseLogRecord(logRecord(1, 0, "started"));
        QVERIFY(own && own->stream == 0 && own->line == "started");
        QVERIFY(!parseLogRecord(R"({"t":1,"s":"o"})"));
        QVERIFY(!parseLogRecord("plain text"));
        int attempt = -1, rank = -1;
        bool events = false;
        QVERIFY(parseRankFile(rankEventsFile(2, 17), &attempt, &rank, &events) && attempt == 2 && rank == 17 && events);
        QVERIFY(parseRankFile(rankLogFile(0, 3), &attempt, &rank, &events) && !events);
        for (const char* bad : {"attempt-01/rank-1.log", "attempt-0/rank-1.txt", "../attempt-0/rank-1.log", kStateFile})
            QVERIFY2(!parseRankFile(bad, &attempt, &rank, &events), bad);
    }

    void signalReplyAmongOtherLines()
    {
        SignalReply r;
        r.alive = true;
        r.pids = {4242, 4343};
        r.signalled = {4242};
        r.startTime = 987654;
        r.runDirExists = false;
        const std::string output = "warning: something on stderr\n" + signalReplyJson(r) + "\n{broken\n";
        const std::optional<SignalReply> back = findSignalReply(output);
        QVERIFY(back && back->alive && back->pids == r.pids && back->signalled == r.signalled && back->startTime == 987654 &&
                !back->runDirExists);
        QVERIFY(!findSignalReply("no reply here\n"));
        const std::optional<SignalReply> bare = findSignalReply(R"({"alive":false,"pids":[],"signalled":[]})");
        QVERIFY(bare && !bare->alive && bare->startTime == -1 && bare->runDirExists);
    }
};

QTEST_APPLESS_MAIN(TestClusterContract)
#include "tst_cluster_contract.moc"
