// core/protocol: every event struct survives toJson/fromJson, parseEventLine reads
// the envelope, refuses a newer major with a message naming the source,
// ignores unknown fields and skips lines that are not events; the step
// metric table matches the Step struct.
#include "protocol/core_exit.hpp"
#include "protocol/events.hpp"
#include "protocol/step_metrics.hpp"

#include <QtTest/QtTest>

#include <cmath>
#include <set>

using namespace sb;
using namespace sb::protocol;

class TestEventProtocol : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void helloRoundTrip()
    {
        Hello h;
        h.host = "node-1";
        h.pid = 4242;
        h.device = "cpu";
        h.torch = "1.13.1";
        h.coreVersion = "0.1.0";
        h.world = 8;
        h.localRank = 3;
        h.localWorld = 4;
        h.threads = 2;
        h.master = "node-0:29500";
        h.env = "slurm";
        const Hello back = Hello::fromJson(h.toJson());
        QCOMPARE(back.toJson(), h.toJson());
        QCOMPARE(back.localRank, 3);
        QCOMPARE(back.master, std::string("node-0:29500"));
        // A line without a pid or local rank (or with nonsense there) reads as unknown.
        json::Value bare = json::Value::object();
        bare.set("host", "node-2");
        bare.set("local_rank", "three");
        QCOMPARE(Hello::fromJson(bare).pid, -1LL);
        QCOMPARE(Hello::fromJson(bare).localRank, -1);
    }

    void planRoundTrip()
    {
        PlanEvent p;
        p.paramsTotal = 1234567;
        p.units = {{"layers.0", 1000, 250, std::nullopt}, {"head", 77, std::nullopt, std::nullopt}};
        p.world = 4;
        p.shardSize = 4;
        p.replicate = 1;
        p.sharded = true;
        const PlanEvent back = PlanEvent::fromJson(p.toJson());
        QCOMPARE(back.toJson(), p.toJson());
        QCOMPARE(back.units.size(), std::size_t(2));
        QVERIFY(!back.units[1].shardNumel);
        QCOMPARE(*back.units[0].shardNumel, 250LL);
    }

    void stepRoundTrip()
    {
        Step s;
        s.step = 7;
        s.steps = 100;
        // A distinct value per metric, so a member mapped twice shows.
        int i = 1;
        for (const StepMetric& m : stepMetrics()) {
            if (m.integer) s.*m.whole = 1000 * i;
            else s.*m.real = 0.5 * i;
            ++i;
        }
        const json::Value j = s.toJson();
        const Step back = Step::fromJson(j);
        QCOMPARE(back.toJson(), j);
        i = 1;
        for (const StepMetric& m : stepMetrics()) {
            QVERIFY2(j.find(m.name), m.name);
            QCOMPARE(m.value(back), m.integer ? 1000.0 * i : 0.5 * i);
            QCOMPARE(j.find(m.name)->isInteger(), m.integer);
            ++i;
        }
    }

    void metricTableCoversStep()
    {
        // Every metric once, every member once; "step" and "steps" are the row, not metrics.
        std::set<std::string> names;
        const Step probe;
        std::set<const void*> members;
        for (const StepMetric& m : stepMetrics()) {
            QVERIFY2(names.insert(m.name).second, m.name);
            QCOMPARE(m.integer, m.whole != nullptr);
            QCOMPARE(!m.integer, m.real != nullptr);
            const void* at = m.integer ? static_cast<const void*>(&(probe.*m.whole)) : &(probe.*m.real);
            QVERIFY2(members.insert(at).second, m.name);
            QCOMPARE(findStepMetric(m.name), &m);
        }
        QVERIFY(!names.count("step") && !names.count("steps"));
        QCOMPARE(findStepMetric("no_such_metric"), nullptr);
        // A default step took no validation loss: its two metrics are left out.
        QCOMPARE(Step().toJson().size(), stepMetrics().size() + 2 - 2);
    }

    // The validation loss is on the line only on the steps that took it.
    void evalLossOnlyWhereTaken()
    {
        Step s;
        s.step = 3;
        s.loss = 2.5;
        QVERIFY(!s.toJson().find("eval_loss") && !s.toJson().find("eval_perplexity"));
        QVERIFY(std::isnan(Step::fromJson(s.toJson()).evalLoss));
        s.evalLoss = 2.25;
        s.evalPerplexity = std::exp(2.25);
        const Step back = Step::fromJson(s.toJson());
        QCOMPARE(back.evalLoss, 2.25);
        QCOMPARE(back.evalPerplexity, std::exp(2.25));
    }

    void checkpointErrorDoneRoundTrip()
    {
        CheckpointEvent c;
        c.step = 50;
        c.path = "/ckpt/step-50";
        c.kind = "sharded";
        c.status = "complete";
        c.bytes = 1LL << 40;
        c.ms = 12.5;
        c.stallMs = 1.25;
        c.async = true;
        c.world = 16;
        c.checksum = "sha256:ab";
        QCOMPARE(CheckpointEvent::fromJson(c.toJson()).toJson(), c.toJson());
        CheckpointEvent bare;
        bare.kind = "full";
        bare.status = "failed";
        bare.message = "disk full";
        const json::Value bj = bare.toJson();
        QVERIFY(!bj.contains("bytes") && !bj.contains("async") && !bj.contains("checksum"));
        QCOMPARE(CheckpointEvent::fromJson(bj).toJson(), bj);

        const Error e{"out of memory", "training"};
        QCOMPARE(Error::fromJson(e.toJson()).where, std::string("training"));
        QVERIFY(!(Error{"x", ""}.toJson().contains("where")));

        const Done d{"ok", 100, 2.5, 1LL << 33};
        QCOMPARE(Done::fromJson(d.toJson()).toJson(), d.toJson());
        const json::Value failed = Done{"failed", {}, {}, {}}.toJson();
        QCOMPARE(failed.size(), std::size_t(1));
    }

    void systemRoundTrip()
    {
        System cuda;
        cuda.cpuUtil = 187.5;
        cuda.hostRss = 3LL << 30;
        cuda.gpuUtil = 97;
        cuda.gpuPowerW = 612.25;
        cuda.gpuTempC = 71;
        cuda.gpuSmClockMhz = 1980;
        const std::string line = formatLine({type::system, kVersion, 5, 1700000000.5, "run-1"}, cuda.toJson());
        const EventLine p = parseEventLine(line);
        QVERIFY(p.ok);
        QCOMPARE(p.envelope.type, std::string("system"));
        QCOMPARE(p.envelope.rank, 5);
        const System back = System::fromJson(p.body);
        QCOMPARE(back.cpuUtil, cuda.cpuUtil);
        QCOMPARE(back.hostRss, cuda.hostRss);
        QCOMPARE(back.gpuUtil, cuda.gpuUtil);
        QCOMPARE(back.gpuPowerW, cuda.gpuPowerW);
        QCOMPARE(back.gpuTempC, cuda.gpuTempC);
        QCOMPARE(back.gpuSmClockMhz, cuda.gpuSmClockMhz);
        // A CPU rank's sample: the GPU fields are left out, and read as absent.
        System cpu;
        cpu.cpuUtil = 12.5;
        cpu.hostRss = 64LL << 20;
        const json::Value o = cpu.toJson();
        QCOMPARE(o.size(), std::size_t(2));
        QVERIFY(!o.find("gpu_util"));
        const System cpuBack = System::fromJson(parseEventLine(formatLine({type::system, kVersion, 0, 1.0, "r"}, o)).body);
        QCOMPARE(cpuBack.hostRss, cpu.hostRss);
        QVERIFY(!cpuBack.gpuUtil && !cpuBack.gpuPowerW && !cpuBack.gpuTempC && !cpuBack.gpuSmClockMhz);
    }

    void lineRoundTrip()
    {
        const std::string line = formatLine({type::step, kVersion, 3, 1700000000.5, "run-1"}, Step{}.toJson());
        QVERIFY(line.rfind(kLinePrefix, 0) == 0);
        QCOMPARE(line.back(), '\n');
        const EventLine p = parseEventLine(line);
        QVERIFY(p.ok);
        QVERIFY(p.problem.empty());
        QCOMPARE(p.envelope.type, std::string("step"));
        QCOMPARE(p.envelope.v, kVersion);
        QCOMPARE(p.envelope.rank, 3);
        QCOMPARE(p.envelope.t, 1700000000.5);
        QCOMPARE(p.envelope.runId, std::string("run-1"));
        // Without the prefix too (the launcher strips it).
        QVERIFY(parseEventLine(line.substr(4)).ok);
    }

    void newerMajorRefused()
    {
        const std::string text = "@sb {\"type\":\"step\",\"v\":" + std::to_string(kVersion + 2) + ",\"rank\":0}";
        const EventLine p = parseEventLine(text, "rank-0.events");
        QVERIFY(!p.ok);
        const std::string expected = "event protocol version " + std::to_string(kVersion + 2) +
                                     " is newer than this reader's " + std::to_string(kVersion) +
                                     " (rank-0.events); update shardbench";
        QCOMPARE(p.problem, expected);
        QVERIFY(versionProblem(kVersion, "x").ok());
        // Older and absent versions are read.
        QVERIFY(parseEventLine("{\"type\":\"done\",\"v\":0}").ok);
        QVERIFY(parseEventLine("{\"type\":\"done\"}").ok);
    }

    void unknownFieldsIgnored()
    {
        const EventLine p = parseEventLine(
            "@sb {\"type\":\"done\",\"v\":1,\"rank\":2,\"status\":\"ok\",\"steps\":9,\"future\":{\"a\":[1,2]},\"z\":true}");
        QVERIFY(p.ok);
        const Done d = Done::fromJson(p.body);
        QCOMPARE(d.status, std::string("ok"));
        QCOMPARE(*d.steps, 9LL);
        QVERIFY(!d.finalLoss);
    }

    void malformedLinesSkipped()
    {
        for (const char* bad : {"", "@sb ", "@sb {", "@sb []", "@sb {\"v\":1}", "@sb {\"type\":3}", "@sb {\"type\":\"\"}",
                                "plain log text", "@sb {\"type\":\"step\",} trailing"}) {
            const EventLine p = parseEventLine(bad);
            QVERIFY2(!p.ok, bad);
            QVERIFY2(p.problem.empty(), bad);
        }
        // Wrong-typed fields read as defaults, never a crash.
        const Step s = Step::fromJson(parseEventLine("{\"type\":\"step\",\"step\":\"x\",\"loss\":[1]}").body);
        QCOMPARE(s.step, std::int64_t(0));
        QCOMPARE(s.loss, 0.0);
    }

    void exitCodes()
    {
        QCOMPARE(code(CoreExit::Ok), 0);
        QCOMPARE(code(CoreExit::Failed), 1);
        QCOMPARE(code(CoreExit::BadInput), 2);
        QCOMPARE(code(CoreExit::RendezvousFailed), 3);
        QVERIFY(isSetupFailure(2) && isSetupFailure(3) && isSetupFailure(126) && isSetupFailure(127));
        QVERIFY(!isSetupFailure(0) && !isSetupFailure(1) && !isSetupFailure(137));
    }
};

QTEST_GUILESS_MAIN(TestEventProtocol)
#include "tst_event_protocol.moc"
