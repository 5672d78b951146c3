// Reading the core's stdout: event lines parsed, malformed ones counted and
// skipped, plain text kept; byte streams cut into lines whatever the chunking.
// The Python reporting module (resources/python/shardbench_report.py) writes
// lines that the core's reader, the launcher's and the fast step reader take
// field for field.
#include "events/core_event.hpp"
#include "events/event_line.hpp"
#include "events/line_splitter.hpp"
#include "events/step_line.hpp"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <cmath>

using namespace sb::protocol;

namespace {

QByteArray readData(const char* name)
{
    QFile f(QStringLiteral(SB_LAUNCHER_TEST_DATA "/events/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class LauncherProtocol : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void classifiesEveryLine()
    {
        const QByteArrayList lines = readData("mixed_stdout.txt").split('\n');
        QStringList expected;
        for (const QByteArray& l : readData("mixed_stdout.expected").split('\n'))
            if (!l.isEmpty() && !l.startsWith('#')) expected << QString::fromUtf8(l);
        QCOMPARE(lines.size() - 1, expected.size()); // the file ends with a newline
        for (int i = 0; i < expected.size(); ++i) {
            const ParsedLine p = parseOutputLine(lines[i]);
            const QString want = expected[i];
            const QString got = p.kind == ParsedLine::Event ? QStringLiteral("E ") + p.event.type
                                : p.kind == ParsedLine::Malformed ? QStringLiteral("M")
                                                                  : QStringLiteral("T");
            QVERIFY2(got == want, qPrintable(QStringLiteral("line %1: got %2, want %3 (%4)").arg(i + 1).arg(got, want, p.error)));
            if (p.kind == ParsedLine::Malformed) QVERIFY(!p.error.isEmpty());
        }
    }

    // The "v" field is checked: a newer major is refused with a message that
    // says to update; an older or absent one is read.
    void refusesANewerMajorVersion()
    {
        const QByteArray line = R"({"type":"step","v":)" + QByteArray::number(kProtocolVersion + 1) + R"(,"rank":0,"step":1})";
        const ParsedLine newer = parseEventBody(line);
        QCOMPARE(newer.kind, ParsedLine::Malformed);
        QVERIFY2(newer.error.contains(QStringLiteral("is newer than this reader's")), qPrintable(newer.error));
        QVERIFY(newer.error.contains(QStringLiteral("update shardbench")));
        QCOMPARE(newer.newerVersion, kProtocolVersion + 1);
        QCOMPARE(parseEventBody(R"({"type":"step","v":1e300,"rank":0,"step":1})").kind, ParsedLine::Malformed);
        // Why a line is not an event, in the core's reader's words (where in the line).
        QCOMPARE(parseOutputLine("@sb {\"type\":\"step\",").error.left(30), QStringLiteral("invalid JSON at line 1, column"));
        QCOMPARE(parseOutputLine("@sb [1]").error, QStringLiteral("event is not a JSON object"));
        QCOMPARE(parseOutputLine("@sb {\"type\":\"step\",\"rank\":-1}").error, QStringLiteral("event without a valid \"rank\""));
        QCOMPARE(parseEventBody(R"({"type":"step","rank":0,"step":1})").kind, ParsedLine::Event);
        QCOMPARE(parseEventBody(R"({"type":"step","v":1,"rank":0,"step":1})").kind, ParsedLine::Event);
    }

    void readsEveryStepField()
    {
        const ParsedLine p = parseOutputLine(readData("mixed_stdout.txt").split('\n')[3]);
        QCOMPARE(p.kind, ParsedLine::Event);
        const auto s = stepFromEvent(p.event);
        QVERIFY(s.has_value());
        QCOMPARE(s->rank, 1);
        QCOMPARE(s->step, 3);
        QCOMPARE(s->steps, 20);
        QCOMPARE(s->t, 1795000000.25);
        QCOMPARE(s->loss, 6.71);
        QCOMPARE(s->lr, 0.0003);
        QCOMPARE(s->gradNorm, 1.5);
        QCOMPARE(s->tokens, 64);
        QCOMPARE(s->tokensPerS, 12000.5);
        QCOMPARE(s->stepMs, 5.25);
        QCOMPARE(s->forwardMs, 1.5);
        QCOMPARE(s->backwardMs, 2.5);
        QCOMPARE(s->optimizerMs, 0.75);
        QCOMPARE(s->commExposedMs, 0.5);
        QCOMPARE(s->memCurrent, 1000);
        QCOMPARE(s->memPeak, 2000);
        QCOMPARE(s->memReserved, 3000);
        QCOMPARE(s->deviceMemUsed, 0);
        QCOMPARE(p.event.runId, QStringLiteral("r1"));
        QCOMPARE(p.event.version, 1);
    }

    // The one-pass step reader of the ingest path reads what the general
    // reader reads, field for field, and declines whatever it does not take.
    void flatStepReaderMatchesTheGeneralOne()
    {
        auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
        int taken = 0, declined = 0;
        for (const QByteArray& l : readData("flat_steps.txt").split('\n')) {
            if (l.size() < 2 || l.startsWith('#')) continue;
            const QByteArray body = l.mid(2);
            const std::optional<StepMetrics> flat = parseFlatStep(body);
            if (l[0] == 'D') {
                QVERIFY2(!flat, body.constData());
                ++declined;
                continue;
            }
            QVERIFY2(flat, body.constData());
            const ParsedLine p = parseEventBody(body);
            QCOMPARE(p.kind, ParsedLine::Event);
            const std::optional<StepMetrics> general = stepFromEvent(p.event);
            QVERIFY(general);
            QCOMPARE(flat->rank, general->rank);
            QCOMPARE(flat->step, general->step);
            QCOMPARE(flat->steps, general->steps);
            QCOMPARE(flat->tokens, general->tokens);
            QCOMPARE(flat->memCurrent, general->memCurrent);
            QCOMPARE(flat->memPeak, general->memPeak);
            QCOMPARE(flat->memReserved, general->memReserved);
            QCOMPARE(flat->deviceMemUsed, general->deviceMemUsed);
            for (auto [a, b] : {std::pair{flat->t, general->t}, {flat->loss, general->loss}, {flat->lr, general->lr},
                                {flat->gradNorm, general->gradNorm}, {flat->tokensPerS, general->tokensPerS},
                                {flat->stepMs, general->stepMs}, {flat->forwardMs, general->forwardMs},
                                {flat->backwardMs, general->backwardMs}, {flat->optimizerMs, general->optimizerMs},
                                {flat->commExposedMs, general->commExposedMs}})
                QVERIFY2(same(a, b), qPrintable(QStringLiteral("%1 vs %2 in %3").arg(a).arg(b).arg(QString::fromUtf8(body))));
            ++taken;
        }
        QCOMPARE(taken, 4);
        QCOMPARE(declined, 19);
    }

    void absentFieldsReadAsUnknown()
    {
        const ParsedLine p = parseOutputLine(readData("mixed_stdout.txt").split('\n')[4]);
        const auto s = stepFromEvent(p.event);
        QVERIFY(s.has_value());
        QCOMPARE(s->loss, 6.5);
        QVERIFY(std::isnan(s->lr));
        QVERIFY(std::isnan(s->stepMs));
        QCOMPARE(s->tokens, -1);
        QCOMPARE(s->memPeak, -1);
    }

    void readsCheckpointDoneAndErrorEvents()
    {
        const QByteArrayList lines = readData("mixed_stdout.txt").split('\n');
        const auto ck = checkpointFromEvent(parseOutputLine(lines[13]).event);
        QVERIFY(ck.has_value());
        QCOMPARE(ck->step, 10);
        QCOMPARE(ck->path, "/ck/step-000010");
        QCOMPARE(ck->bytes, 123456);
        QVERIFY(isComplete(*ck));
        QCOMPARE(errorText(parseOutputLine(lines[15]).event), QStringLiteral("a peer vanished (in allreduce)"));
        const auto done = eventAs<Done>(parseOutputLine(lines[16]).event);
        QVERIFY(done.has_value());
        QCOMPARE(done->finalLoss, 4.25);
        QCOMPARE(done->status, "ok");
        const auto hello = eventAs<Hello>(parseOutputLine(lines[0]).event);
        QVERIFY(hello.has_value());
        QCOMPARE(hello->host, "node-a");
        QCOMPARE(hello->pid, 4242);
    }

    // What the core writes (core/protocol) is what the launcher reads: one
    // set of keys, read by the core's own typed readers.
    void readsWhatTheCoreWrites()
    {
        const auto line = [](const char* type, const sb::json::Value& fields) {
            const std::string text = formatLine({type, kVersion, 3, 12.5, "r1"}, fields);
            return parseOutputLine(QByteArrayView(text.data(), static_cast<qsizetype>(text.size()) - 1)).event;
        };
        Hello h;
        h.host = "node-7";
        h.pid = 31337;
        h.device = "cpu";
        h.torch = "2.4.0";
        h.coreVersion = "0.9";
        h.world = 16;
        h.localRank = 5;
        h.localWorld = 8;
        h.threads = 4;
        const CoreEvent helloLine = line(type::hello, h.toJson());
        QCOMPARE(helloLine.rank, 3);
        const auto hello = eventAs<Hello>(helloLine);
        QVERIFY(hello.has_value());
        QCOMPARE(hello->host, "node-7");
        QCOMPARE(hello->pid, 31337);
        QCOMPARE(hello->torch, "2.4.0");
        QCOMPARE(hello->coreVersion, "0.9");
        QCOMPARE(hello->world, 16);
        QCOMPARE(hello->localRank, 5);
        QCOMPARE(hello->localWorld, 8);
        QCOMPARE(hello->threads, 4);

        CheckpointEvent c;
        c.step = 40;
        c.path = "/ck/step-000040";
        c.kind = "sharded";
        c.status = "complete";
        c.bytes = 987654321;
        c.ms = 12.25;
        c.checksum = "crc32c:0badf00d";
        const auto ck = checkpointFromEvent(line(type::checkpoint, c.toJson()));
        QVERIFY(ck.has_value());
        QCOMPARE(ck->step, 40);
        QCOMPARE(ck->path, "/ck/step-000040");
        QCOMPARE(ck->bytes, 987654321);
        QCOMPARE(ck->ms, 12.25);
        QCOMPARE(ck->kind, "sharded");
        QVERIFY(isComplete(*ck));
        QCOMPARE(ck->checksum, "crc32c:0badf00d");
        QVERIFY(!checkpointFromEvent(line(type::checkpoint, CheckpointEvent{}.toJson()))); // no path: nothing to restore

        const auto done = eventAs<Done>(line(type::done, Done{"ok", 250, 3.5, 1 << 20}.toJson()));
        QVERIFY(done.has_value());
        QCOMPARE(done->status, "ok");
        QCOMPARE(done->steps, 250);
        QCOMPARE(done->finalLoss, 3.5);
        QCOMPARE(done->peakBytes, 1 << 20);
        QCOMPARE(errorText(line(type::error, Error{"lost rank 2", "allreduce"}.toJson())), QStringLiteral("lost rank 2 (in allreduce)"));

        // Absent optional fields read as unknown, not as zero.
        const auto bare = eventAs<Done>(line(type::done, Done{"failed", {}, {}, {}}.toJson()));
        QVERIFY(bare.has_value());
        QVERIFY(!bare->finalLoss);
        QVERIFY(!bare->peakBytes);
        sb::json::Value noPid = sb::json::Value::object();
        noPid.set("host", "node-8");
        const auto anonymous = eventAs<Hello>(line(type::hello, noPid));
        QVERIFY(anonymous.has_value());
        QCOMPARE(anonymous->pid, -1);
        QCOMPARE(anonymous->localRank, -1);
    }

    void thePythonReporterWritesTheProtocol()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        QVERIFY2(!python.isEmpty(), "python3 is not on the PATH (scripts/install-deps.sh installs it)");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), QStringLiteral(SB_REPORT_MODULE_DIR));
        env.insert(QStringLiteral("RANK"), QStringLiteral("1"));
        env.insert(QStringLiteral("WORLD_SIZE"), QStringLiteral("2"));
        env.insert(QStringLiteral("TORCHELASTIC_RUN_ID"), QStringLiteral("r-py"));
        p.setProcessEnvironment(env);
        p.start(python, {QStringLiteral("-c"), QStringLiteral(
            "from shardbench_report import Reporter\n"
            "r = Reporter()\n"
            "r.hello()\n"
            "r.plan(units=[('layers.0', 100), ('', 24)], params_total=124)\n"
            "r.step_begin(); r.phase('forward', 1.5); r.phase('backward', 2.5)\n"
            "r.step(3, 10, 2.5, lr=1e-3, grad_norm=float('nan'), tokens=512, eval_loss=2.0)\n"
            "r.checkpoint(3, '/ckpt/step-000003', bytes_=4096, ms=12.5)\n"
            "r.error('CUDA out of memory', 'step 4')\n"
            "r.done(status='failed', steps=3, final_loss=2.5)\n")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QByteArrayList lines = p.readAllStandardOutput().trimmed().split('\n');
        // From hello() on, a thread samples the process: its first line at once, wherever it falls among the others.
        QByteArrayList samples;
        for (qsizetype i = lines.size() - 1; i >= 0; --i)
            if (lines[i].contains("\"type\":\"system\"")) samples.prepend(lines.takeAt(i));
        QCOMPARE(samples.size(), 1);
        const System sample = System::fromJson(parseEventLine(samples[0].toStdString(), "python").body);
        QVERIFY2(sample.cpuUtil && *sample.cpuUtil >= 0 && sample.hostRss && *sample.hostRss > (1LL << 20) && !sample.gpuUtil,
                 samples[0].constData());
        QCOMPARE(parseOutputLine(samples[0]).event.rank, 1);
        QCOMPARE(lines.size(), 6);
        QStringList types;
        for (const QByteArray& line : lines) {
            // The core's reader: the envelope as the core writes it.
            const EventLine core = parseEventLine(line.toStdString(), "python");
            QVERIFY2(core.ok && core.problem.empty(), line.constData());
            QCOMPARE(core.envelope.v, kVersion);
            QCOMPARE(core.envelope.rank, 1);
            QCOMPARE(core.envelope.runId, std::string("r-py"));
            // The launcher's reader.
            const ParsedLine parsed = parseOutputLine(line);
            QCOMPARE(parsed.kind, ParsedLine::Event);
            types << parsed.event.type;
        }
        QCOMPARE(types, QStringList({QStringLiteral("hello"), QStringLiteral("plan"), QStringLiteral("step"), QStringLiteral("checkpoint"),
                                     QStringLiteral("error"), QStringLiteral("done")}));
        const Hello hello = Hello::fromJson(parseEventLine(lines[0].toStdString()).body);
        QVERIFY(hello.pid > 0 && hello.world == 2 && hello.device == "cpu" && hello.coreVersion == "pytorch");
        const PlanEvent plan = PlanEvent::fromJson(parseEventLine(lines[1].toStdString()).body);
        QVERIFY(plan.paramsTotal == 124 && plan.units.size() == 2 && plan.units[0].module == "layers.0" && plan.units[0].params == 100);
        QCOMPARE(plan.shardSize, 2);

        const std::optional<StepMetrics> step = stepFromEvent(parseOutputLine(lines[2]).event);
        QVERIFY(step);
        QCOMPARE(step->rank, 1);
        QCOMPARE(step->step, 3);
        QCOMPARE(step->steps, 10);
        QCOMPARE(step->loss, 2.5);
        QCOMPARE(step->lr, 1e-3);
        QVERIFY(std::isnan(step->gradNorm)); // not finite: left out of the line
        QCOMPARE(step->tokens, qint64(512));
        QVERIFY(step->tokensPerS > 0 && step->stepMs > 0);
        QCOMPARE(step->forwardMs, 1.5);
        QCOMPARE(step->backwardMs, 2.5);
        QVERIFY(step->memCurrent > 0 && step->memPeak >= step->memCurrent && step->deviceMemUsed > 0);
        QCOMPARE(step->evalLoss, 2.0);
        QVERIFY(std::abs(step->evalPerplexity - std::exp(2.0)) < 1e-9);
        // The detached runs' fast path takes the line as the general reader does.
        const QByteArray body = lines[2].mid(4);
        QVERIFY(body.startsWith("{\"type\":\"step\","));
        const std::optional<StepMetrics> flat = parseFlatStep(body);
        QVERIFY(flat && flat->loss == step->loss && flat->tokens == step->tokens && flat->memPeak == step->memPeak);

        const std::optional<CheckpointEvent> ck = checkpointFromEvent(parseOutputLine(lines[3]).event);
        QVERIFY(ck && ck->step == 3 && ck->path == "/ckpt/step-000003" && ck->bytes == 4096 && isComplete(*ck));
        QCOMPARE(ck->kind, "sharded");
        QCOMPARE(errorText(parseOutputLine(lines[4]).event), QStringLiteral("CUDA out of memory (in step 4)"));
        const std::optional<Done> done = eventAs<Done>(parseOutputLine(lines[5]).event);
        QVERIFY(done && done->status == "failed" && done->steps == 3 && done->finalLoss == 2.5 && done->peakBytes > 0);
    }

    void splitsLinesWhateverTheChunks()
    {
        const QByteArray stream = readData("mixed_stdout.txt") + "last line without newline";
        QByteArrayList whole;
        {
            LineSplitter s;
            s.feed(stream, [&](QByteArray l, bool) { whole << l; });
            s.finish([&](QByteArray l, bool) { whole << l; });
        }
        QCOMPARE(whole.size(), 19);
        QCOMPARE(whole.back(), QByteArray("last line without newline"));
        for (int chunk : {1, 2, 3, 7, 64, 1000}) {
            QByteArrayList got;
            LineSplitter s;
            for (qsizetype i = 0; i < stream.size(); i += chunk)
                s.feed(QByteArrayView(stream).sliced(i, std::min<qsizetype>(chunk, stream.size() - i)),
                       [&](QByteArray l, bool) { got << l; });
            s.finish([&](QByteArray l, bool) { got << l; });
            QCOMPARE(got, whole);
        }
    }

    void cutsRunawayLines()
    {
        LineSplitter s(16);
        QByteArrayList lines;
        QList<bool> cut;
        auto sink = [&](QByteArray l, bool t) {
            lines << l;
            cut << t;
        };
        s.feed("short\r\n", sink);
        s.feed("0123456789abcdefXYZ-the-rest", sink);
        s.feed("-still-the-rest\nnext\n", sink);
        QCOMPARE(lines, (QByteArrayList{"short", "0123456789abcdef", "next"}));
        QCOMPARE(cut, (QList<bool>{false, true, false}));
    }
};

QTEST_GUILESS_MAIN(LauncherProtocol)
#include "tst_launcher_protocol.moc"
