// What srun writes, taken apart without a cluster: transcripts of real srun
// runs (data/srun/NAME.stdout and .stderr, recorded with the options the
// Slurm backend uses) against what the reader must make of them
// (NAME.expected); lines srun never wrote that way are kept as log lines;
// the srun command line and its environment; the Slurm options' checks.
#include "launch/prepared_launch.hpp"
#include "launch/slurm/slurm_options.hpp"
#include "launch/slurm/srun_command.hpp"
#include "launch/slurm/srun_output.hpp"
#include "events/event_line.hpp"

#include <QFile>
#include <QTest>

#include <csignal>

using namespace sb::launch;

namespace {

QByteArray readData(const QString& name)
{
    QFile f(QStringLiteral(SB_LAUNCHER_TEST_DATA "/srun/") + name);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll();
}

QString tasksText(const QList<int>& tasks)
{
    QStringList s;
    for (int t : tasks) s << QString::number(t);
    return s.join(QLatin1Char(','));
}

QString render(const SrunMessage& m)
{
    switch (m.kind) {
    case SrunMessage::Chatter: return {};
    case SrunMessage::Queued: return QStringLiteral("queued job %1").arg(m.jobId);
    case SrunMessage::Allocated: return QStringLiteral("allocated job %1").arg(m.jobId);
    case SrunMessage::JobNodes: return QStringLiteral("job %1 nodes %2").arg(m.jobId).arg(m.nodes);
    case SrunMessage::StepLaunch:
        return QStringLiteral("launch step %1 (job %2) host %3 tasks %4").arg(m.step).arg(m.jobId).arg(m.host, tasksText(m.tasks));
    case SrunMessage::TaskExit:
        return QStringLiteral("exit host %1 tasks %2 %3 %4")
            .arg(m.host, tasksText(m.tasks), m.exitKind == RankExit::Signaled ? QStringLiteral("signal") : QStringLiteral("code"))
            .arg(m.code);
    case SrunMessage::Other: return QStringLiteral("log ") + (m.fromSrun ? QStringLiteral("srun: ") : QString()) + m.text;
    }
    return {};
}

// Everything the reader makes of srun's stdout, then of its stderr.
QStringList readTranscript(const QByteArray& out, const QByteArray& err, QList<QByteArray>* eventLines = nullptr)
{
    QStringList lines;
    SrunOutputReader reader({[&](int task, OutputStream stream, QByteArray line, bool truncated) {
                                 if (eventLines && line.startsWith(sb::protocol::kEventPrefix)) *eventLines << line;
                                 QString text = QString::fromUtf8(line);
                                 if (text.size() > 100) text = text.left(40) + QStringLiteral("... (%1 bytes)").arg(line.size());
                                 lines << QStringLiteral("task %1 %2%3: %4")
                                              .arg(task)
                                              .arg(stream == OutputStream::Stdout ? QLatin1Char('o') : QLatin1Char('e'))
                                              .arg(truncated ? QStringLiteral(" cut") : QString(), text);
                             },
                             [&](const SrunMessage& m) {
                                 if (const QString r = render(m); !r.isEmpty()) lines << r;
                             }});
    // In pieces, as a pipe delivers them.
    for (qsizetype i = 0; i < out.size(); i += 700) reader.feed(OutputStream::Stdout, QByteArrayView(out).sliced(i, std::min<qsizetype>(700, out.size() - i)));
    reader.finish();
    SrunOutputReader errReader({[&](int task, OutputStream, QByteArray line, bool) {
                                    lines << QStringLiteral("task %1 e: %2").arg(task).arg(QString::fromUtf8(line));
                                },
                                [&](const SrunMessage& m) {
                                    if (const QString r = render(m); !r.isEmpty()) lines << r;
                                }});
    errReader.feed(OutputStream::Stderr, err);
    errReader.finish();
    return lines;
}

PreparedLaunch tinyLaunch(bool cuda)
{
    PreparedLaunch l;
    l.uid = QStringLiteral("20250101-000000-abcdef");
    SlurmTarget slurm;
    slurm.corePath = QStringLiteral("/shared/bin/shardbench-core");
    slurm.options.partition = QStringLiteral("gpu");
    slurm.options.account = QStringLiteral("proj-1");
    slurm.options.timeLimit = QStringLiteral("01:30:00");
    slurm.options.extraArgs = {QStringLiteral("--constraint=a100"), QStringLiteral("--exclusive")};
    l.config.target = slurm;
    l.config.name = QStringLiteral("my run\tone");
    l.config.maxRestarts = 2;
    l.config.extraEnv.insert(QStringLiteral("SB_THREADS"), QStringLiteral("4"));
    l.nodes = 2;
    l.procsPerNode = 4;
    l.worldSize = 8;
    l.cuda = cuda;
    return l;
}

} // namespace

class LauncherSrunOutput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void transcripts_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* n : {"completed", "exit_code", "signaled", "cancelled", "queued", "bad_partition", "long_lines", "handmade"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }

    void transcripts()
    {
        QFETCH(QString, name);
        const QStringList got = readTranscript(readData(name + QStringLiteral(".stdout")), readData(name + QStringLiteral(".stderr")));
        const QStringList want = QString::fromUtf8(readData(name + QStringLiteral(".expected"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (got != want) qWarning("got:\n%s", qPrintable(got.join(QLatin1Char('\n'))));
        QCOMPARE(got, want);
    }

    void joinsLongLinesBackIntoEvents()
    {
        // srun cut each task's 2.5 kB event line into 1024-byte pieces.
        QList<QByteArray> events;
        readTranscript(readData(QStringLiteral("long_lines.stdout")), {}, &events);
        QCOMPARE(events.size(), 2);
        for (const QByteArray& e : events) {
            const sb::protocol::ParsedLine p = sb::protocol::parseOutputLine(e);
            QVERIFY2(p.kind == sb::protocol::ParsedLine::Event, e.left(80).constData());
            QVERIFY(p.event.body.find("text"));
            QCOMPARE(p.event.body.find("text")->asString().size(), std::size_t(2500));
        }
    }

    void labels()
    {
        int task = -1;
        QByteArrayView text;
        QVERIFY(splitTaskLabel("3: hello", &task, &text));
        QCOMPARE(task, 3);
        QCOMPARE(text, QByteArrayView("hello"));
        QVERIFY(splitTaskLabel(" 7: ", &task, &text)); // padded, an empty line
        QCOMPARE(task, 7);
        QVERIFY(text.isEmpty());
        QVERIFY(splitTaskLabel("12: a: b", &task, &text));
        QCOMPARE(text, QByteArrayView("a: b"));
        for (const char* bad : {"srun: error: x", "12:30 tea", ": x", "x1: y", "", "99999999999999: x"})
            QVERIFY2(!splitTaskLabel(bad, &task, &text), bad);
    }

    void taskLists()
    {
        QCOMPARE(parseTaskList(u"0-2,5"), (QList<int>{0, 1, 2, 5}));
        QCOMPARE(parseTaskList(u"[0-1]"), (QList<int>{0, 1}));
        QCOMPARE(parseTaskList(u"7"), QList<int>{7});
        for (const char16_t* bad : {u"", u"2-1", u"a", u"1,,2", u"-3", u"0-99999999"})
            QVERIFY(parseTaskList(QStringView(bad)).isEmpty());
    }

    void signalNamesAreSruns()
    {
        const SrunMessage m = parseSrunLine("srun: error: node7: task 3: Aborted (core dumped)");
        QCOMPARE(m.kind, SrunMessage::TaskExit);
        QCOMPARE(m.exitKind, RankExit::Signaled);
        QCOMPARE(m.code, SIGABRT);
        QCOMPARE(parseSrunLine("srun: error: n: task 0: Killed").code, SIGKILL);
        QCOMPARE(parseSrunLine("srun: launch/slurm: _task_finish: n: tasks 0-1: Interrupt").code, SIGINT);
    }

    void commandLine()
    {
        AttemptSpec a;
        a.attempt = 1;
        a.resumeDir = QStringLiteral("/ckpt/step-000100");
        const QStringList args = srunArguments(tinyLaunch(true), a, QStringLiteral("/w/.shardbench/runs/X/plan.json"), QStringLiteral("/w"));
        const QStringList want = {
            QStringLiteral("--verbose"), QStringLiteral("--job-name=my run_one"), QStringLiteral("--nodes=2"),
            QStringLiteral("--ntasks=8"), QStringLiteral("--ntasks-per-node=4"), QStringLiteral("--distribution=block"),
            QStringLiteral("--kill-on-bad-exit=1"), QStringLiteral("--label"), QStringLiteral("--chdir=/w"),
            QStringLiteral("--gpus-per-node=4"), QStringLiteral("--partition=gpu"), QStringLiteral("--account=proj-1"),
            QStringLiteral("--time=01:30:00"), QStringLiteral("--constraint=a100"), QStringLiteral("--exclusive"),
            QStringLiteral("/shared/bin/shardbench-core"), QStringLiteral("--plan"), QStringLiteral("/w/.shardbench/runs/X/plan.json"),
            QStringLiteral("--run-id"), QStringLiteral("20250101-000000-abcdef"), QStringLiteral("--resume"),
            QStringLiteral("/ckpt/step-000100")};
        QCOMPARE(args, want);
        QVERIFY(!srunArguments(tinyLaunch(false), {}, QStringLiteral("p"), QStringLiteral("/w")).join(QLatin1Char(' ')).contains(QLatin1String("gpus")));
        QCOMPARE(slurmJobName(QString()), QStringLiteral("shardbench"));
    }

    void environment()
    {
        QProcessEnvironment base;
        base.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin"));
        base.insert(QStringLiteral("SLURM_CONF"), QStringLiteral("/etc/slurm/slurm.conf"));
        base.insert(QStringLiteral("RANK"), QStringLiteral("5"));         // a torchrun around the launcher
        base.insert(QStringLiteral("MASTER_PORT"), QStringLiteral("1"));
        base.insert(QStringLiteral("SLURM_UNBUFFEREDIO"), QStringLiteral("1"));
        AttemptSpec a;
        a.attempt = 1;
        QProcessEnvironment env = srunEnvironment(tinyLaunch(false), a, base);
        QCOMPARE(env.value(QStringLiteral("PATH")), QStringLiteral("/usr/bin"));
        QCOMPARE(env.value(QStringLiteral("SLURM_CONF")), QStringLiteral("/etc/slurm/slurm.conf"));
        for (const char* gone : {"RANK", "MASTER_PORT", "MASTER_ADDR", "SLURM_UNBUFFEREDIO"})
            QVERIFY2(!env.contains(QLatin1String(gone)), gone);
        QCOMPARE(env.value(QStringLiteral("TORCHELASTIC_RESTART_COUNT")), QStringLiteral("1"));
        QCOMPARE(env.value(QStringLiteral("TORCHELASTIC_MAX_RESTARTS")), QStringLiteral("2"));
        QCOMPARE(env.value(QStringLiteral("SB_THREADS")), QStringLiteral("4"));
        a.masterAddr = QStringLiteral("node-3");
        a.masterPort = 29500;
        env = srunEnvironment(tinyLaunch(false), a, base);
        QCOMPARE(env.value(QStringLiteral("MASTER_ADDR")), QStringLiteral("node-3"));
        QCOMPARE(env.value(QStringLiteral("MASTER_PORT")), QStringLiteral("29500"));
    }

    void options_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("ok");
        const QList<std::tuple<const char*, const char*, bool>> cases = {
            {"partition", "gpu", true}, {"partition", "gpu,debug", true}, {"partition", "a b", false},
            {"partition", "-x", false}, {"partition", "p;rm", false}, {"account", "proj_1.x", true},
            {"account", "$(id)", false}, {"time", "30", true}, {"time", "30:00", true}, {"time", "01:30:00", true},
            {"time", "2-12", true}, {"time", "2-12:30:00", true}, {"time", "UNLIMITED", true}, {"time", "1:2:3:4", false},
            {"time", "1h", false}, {"arg", "--constraint=a100", true}, {"arg", "--exclusive", true}, {"arg", "--gpus=8", true},
            {"arg", "--mem=0", true}, {"arg", "-C a100", false}, {"arg", "a100", false}, {"arg", "--", false},
            {"arg", "--label", false}, {"arg", "--lab", false}, {"arg", "--ntasks=3", false}, {"arg", "--nodes=1", false},
            {"arg", "--output=x", false}, {"arg", "--export=NONE", false}, {"arg", "--partition=x", false},
            {"arg", "--chdir=/", false}, {"arg", "--unbuffered", false}, {"arg", "--gpus-per-node=1", false},
        };
        for (const auto& [field, value, ok] : cases)
            QTest::addRow("%s %s", field, value) << QString::fromLatin1(field) << QString::fromLatin1(value) << ok;
    }

    void options()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(bool, ok);
        SlurmOptions o;
        if (field == QLatin1String("partition")) o.partition = value;
        else if (field == QLatin1String("account")) o.account = value;
        else if (field == QLatin1String("time")) o.timeLimit = value;
        else o.extraArgs << value;
        const QStringList errors = runConfigMessages(o.problems());
        if (!errors.isEmpty()) qInfo("%s", qPrintable(errors.join(QLatin1Char('\n'))));
        QCOMPARE(errors.isEmpty(), ok);
    }
};

QTEST_GUILESS_MAIN(LauncherSrunOutput)
#include "tst_launcher_srun_output.moc"
