// A detached run's spec.json as shardbench-supervise reads it: a spec survives
// its round trip; each malformed field is refused with a message naming it;
// a rank that cannot be started says why (no such program, no such folder);
// the core's progress lines on stderr are never a failed rank's detail.
#include "plan/rank_failure.hpp"
#include "protocol/events.hpp"
#include "supervisor/rank_process.hpp"
#include "supervisor/run_spec.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <sys/wait.h>
#include <unistd.h>

using namespace sb::supervise;

namespace {

RunSpec sample()
{
    RunSpec s;
    s.runId = "r-42";
    s.name = "llama-8l";
    s.worldSize = 2;
    s.maxRestarts = 3;
    s.program = "shardbench-core";
    s.args = {"--plan", "plan.json"};
    s.hosts = {{"head", {}}, {"node-2", {"ssh", "-p", "2222", "node-2"}}};
    s.ranks = {{0, 0, {{"RANK", "0"}}}, {1, 1, {{"RANK", "1"}, {"LOCAL_RANK", "0"}}}};
    return s;
}

// The sample spec with `key` replaced by the JSON `value`.
std::string withField(const char* key, const char* value)
{
    sb::json::Value root = *sb::json::parse(runSpecToJson(sample())).value;
    root.set(key, *sb::json::parse(value).value);
    return root.dump();
}

} // namespace

class TestRunSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        const sb::Result<RunSpec> back = parseRunSpec(runSpecToJson(sample()));
        QVERIFY2(back.ok(), back.error().c_str());
        QCOMPARE(runSpecToJson(back.value()), runSpecToJson(sample()));
        QCOMPARE(back.value().hosts[1].ssh.size(), std::size_t(4));
        QCOMPARE(back.value().ranks[1].env[1].second, std::string("0"));
        QVERIFY(back.value().resumeArgument); // absent: shardbench-core's --resume per attempt
        RunSpec script = sample();
        script.resumeArgument = false;        // a PyTorch script resumes from its own folder
        const sb::Result<RunSpec> scriptBack = parseRunSpec(runSpecToJson(script));
        QVERIFY2(scriptBack.ok(), scriptBack.error().c_str());
        QVERIFY(!scriptBack.value().resumeArgument);
    }

    void malformedSpecsAreRefusedByField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        QTest::newRow("not json") << QStringLiteral("{\"run_id\":") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QStringLiteral("[]") << QStringLiteral("the spec must be a JSON object");
        const auto row = [](const char* name, const char* key, const char* value, const char* why) {
            QTest::newRow(name) << QString::fromStdString(withField(key, value)) << QString::fromUtf8(why);
        };
        row("newer version", "version", "9", "spec version 9 is not 1 or 2");
        row("run id path", "run_id", "\"../x\"", "\"run_id\" must be a plain name");
        row("run id number", "run_id", "7", "\"run_id\" must be a string");
        row("world text", "world_size", "\"2\"", "\"world_size\" must be an integer from 1 to");
        row("restarts huge", "max_restarts", "100000", "\"max_restarts\" must be an integer from 0 to 1000");
        row("program empty", "program", "\"\"", "\"program\" is empty");
        row("args numbers", "args", "[1, 2]", "args must be an array of strings");
        row("slurm text", "slurm", "\"yes\"", "\"slurm\" must be true or false");
        row("resume argument text", "resume_argument", "0", "\"resume_argument\" must be true or false");
        row("slurm in v1", "slurm", "true", "spec version 1 cannot describe a Slurm run");
        row("no hosts", "hosts", "[]", "\"hosts\" must be a non-empty array");
        row("host not object", "hosts", "[3]", "hosts[0] must be an object");
        row("ssh to self", "hosts", R"([{"name":"h","ssh":["ssh","h"]}])", "hosts[0] is the supervisor's own host");
        row("ranks short", "ranks", R"([{"host":0}])", "\"ranks\" must list world_size ranks");
        row("rank host out of range", "ranks", R"([{"host":0},{"host":5}])", "\"host\" must be an integer from 0 to 1");
        row("env not pairs", "ranks", R"([{"host":0},{"host":1,"env":[["A"]]}])", "ranks[1].env must be an array of [name, value] pairs");
        row("env bad name", "ranks", R"([{"host":0},{"host":1,"env":[["A=B","1"]]}])", "ranks[1].env: bad variable name \"A=B\"");
    }
    void malformedSpecsAreRefusedByField()
    {
        QFETCH(QString, text);
        QFETCH(QString, why);
        const sb::Result<RunSpec> parsed = parseRunSpec(text.toStdString());
        QVERIFY(!parsed.ok());
        QVERIFY2(QString::fromStdString(parsed.error()).contains(why), parsed.error().c_str());
    }

    void aRankThatCannotStartSaysWhy()
    {
        SpawnRequest missing;
        missing.argv = {"shardbench-no-such-program-here"};
        const sb::Result<Spawned> none = spawnRank(missing);
        QVERIFY(!none.ok());
        QVERIFY2(QString::fromStdString(none.error()).startsWith(QStringLiteral("cannot run shardbench-no-such-program-here: ")), none.error().c_str());

        QTemporaryDir dir;
        SpawnRequest nowhere;
        nowhere.argv = {"true"};
        nowhere.workdir = dir.filePath(QStringLiteral("gone")).toStdString();
        const sb::Result<Spawned> lost = spawnRank(nowhere);
        QVERIFY(!lost.ok());
        QVERIFY2(QString::fromStdString(lost.error()).contains(QStringLiteral(" in ") + dir.filePath(QStringLiteral("gone"))), lost.error().c_str());

        SpawnRequest fine;
        fine.argv = {"true"};
        const sb::Result<Spawned> started = spawnRank(fine);
        QVERIFY2(started.ok(), started.error().c_str());
        QVERIFY(started.value().pid > 0);
        int status = -1;
        QCOMPARE(::waitpid(started.value().pid, &status, 0), started.value().pid);
        QCOMPARE(describeWaitStatus(status), std::string("exited with code 0"));
        ::close(started.value().outFd);
        ::close(started.value().errFd);
    }

    // The core's own progress lines never become a failed rank's detail;
    // its errors and whatever else the process printed do.
    void progressLinesAreNotFailureDetails()
    {
        QVERIFY(sb::protocol::isRankProgressLine("[rank 3] step 10/251  loss 5.21834  lr 0.0003"));
        QVERIFY(sb::protocol::isRankProgressLine("[rank 0] started on node-1 (pid 42): cpu"));
        QVERIFY(sb::protocol::isRankProgressLine("[rank 12] done: ok, 20 steps"));
        QVERIFY(!sb::protocol::isRankProgressLine("[rank 3] error: a peer vanished"));
        QVERIFY(!sb::protocol::isRankProgressLine("terminate called after throwing an instance of 'c10::Error'"));
        QVERIFY(!sb::protocol::isRankProgressLine("[rank ] step 1"));
        QVERIFY(!sb::protocol::isRankProgressLine("[rank 3x] step 1"));
        QVERIFY(!sb::protocol::isRankProgressLine("[rank 3]"));
        QVERIFY(!sb::protocol::isRankProgressLine(""));
        QCOMPARE(sb::protocol::rankErrorLogLine(3, "a peer vanished"), std::string("[rank 3] error: a peer vanished"));
        QVERIFY(sb::protocol::isRankProgressLine(sb::protocol::rankLogLine(3, "step 10/20")));
        const auto killed = sb::rankFailure(1, "node-2", {sb::RankEnding::Signaled, 9, "SIGKILL", {}, false}, "");
        QVERIFY(killed.has_value());
        QCOMPARE(killed->message(), std::string("rank 1 on node-2 was killed by signal 9 (SIGKILL)"));
    }
};

QTEST_GUILESS_MAIN(TestRunSpec)
#include "tst_run_spec.moc"
