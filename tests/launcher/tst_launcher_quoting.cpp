// Strict quoting of remote commands, checked by real shells (dash and bash
// run exactly what an SSH server would run, docs/launcher.md "Commands and
// quoting"), and the checks on host names and hostfiles that keep user text
// away from any shell. Arguments full of ;, $(...), backquotes, quotes, spaces
// and newlines round-trip through both shells; no marker file ever appears.
// A real SSH run with such paths and names: tst_launcher_ssh
// (userTextNeverExecutes).
#include "launch/host_list.hpp"
#include "launch/shell_quote.hpp"
#include "launch/slurm/sbatch_script.hpp"
#include "launch/slurm/slurm_options.hpp"
#include "launch/slurm/srun_command.hpp"
#include "launch/ssh/remote_command.hpp"
#include "launcher_test_support.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <csignal>
#include <unistd.h>

using namespace sb::launch;
using sb::Result;
using sb::qtMessage;

namespace {

// Everything a shell could misread, one string each.
QByteArrayList nastyStrings(const QString& markerDir)
{
    const QByteArray m = markerDir.toUtf8();
    return {
        "plain",
        "two words",
        "",
        "single'quote",
        "''",
        "'\\''",
        "double\"quote",
        "back`touch " + m + "/m1`tick",
        "$(touch " + m + "/m2)",
        "${HOME} $HOME $0 $@ $* $# $$ $?",
        "a;touch " + m + "/m3;b",
        "a && touch " + m + "/m4 || true",
        "line1\ntouch " + m + "/m5\nline3",
        "tab\there",
        "glob * ? [a-z] ~ ~root",
        "redir > " + m + "/m6 < /etc/passwd 2>&1 |cat",
        "backslash \\ \\n \\' end\\",
        "-n",
        "--option=value",
        "!history !! ^x",
        "unicode \xc3\xa9\xe2\x82\xac \xf0\x9f\x94\xa5",
        "#comment",
        "{brace,expansion}",
        "\x01\x02\x7f control",
    };
}

QByteArrayList splitNul(const QByteArray& out)
{
    QByteArrayList parts = out.split('\0');
    if (!parts.isEmpty() && parts.back().isEmpty()) parts.removeLast();
    return parts;
}

QByteArray runShell(const QString& shell, const QByteArray& command, int* exitCode = nullptr, QByteArray* err = nullptr)
{
    QProcess p;
    // stdin stays open, as an SSH channel's does: its end-of-file means "stop".
    p.start(shell, {QStringLiteral("-c"), QString::fromUtf8(command)});
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished();
    }
    if (exitCode) *exitCode = p.exitCode();
    if (err) *err = p.readAllStandardError();
    return p.readAllStandardOutput();
}

// A sleeping process that leads its own process group, as a rank does under
// the wrapper: what a kill command is to stop. False if it did not get there.
bool startGroupLeader(QProcess& p)
{
    p.start(QStringLiteral("/usr/bin/setsid"), {QStringLiteral("/bin/sleep"), QStringLiteral("300")});
    return p.waitForStarted() && QTest::qWaitFor([&] { return ::getpgid(static_cast<pid_t>(p.processId())) == p.processId(); }, 5000);
}

// The exit code of the rank wrapper built for `c`, run by /bin/sh (-1: none was built).
int wrapperExitCode(const RemoteRankCommand& c)
{
    const auto command = buildRankCommand(c);
    if (!command) return -1;
    int code = -1;
    runShell(QStringLiteral("/bin/sh"), command.value(), &code);
    return code;
}

// The arguments sbatch reads from one "#SBATCH ..." line: Slurm 22.05's
// _get_argument (src/sbatch/opt.c), applied until the line is used up. It
// splits at white space, takes '...' and "..." as quotes and \ as an escape,
// and stops at an unquoted #. "" in `error` for an unmatched quote (sbatch: fatal).
QStringList sbatchArguments(const QByteArray& line, QString* error)
{
    QStringList out;
    qsizetype p = 0;
    for (;;) {
        while (p < line.size() && std::isspace(static_cast<unsigned char>(line[p]))) ++p;
        if (p >= line.size()) return out;
        QByteArray arg;
        bool escape = false, quoted = false, comment = false;
        char q = 0;
        while (p < line.size() && (quoted || !std::isspace(static_cast<unsigned char>(line[p]))) && line[p] != '\n') {
            const char c = line[p];
            if (escape) {
                escape = false;
            } else if (c == '\\') {
                escape = true;
                ++p;
                continue;
            } else if (quoted) {
                if (c == q) {
                    quoted = false;
                    ++p;
                    continue;
                }
            } else if (c == '"' || c == '\'') {
                quoted = true;
                q = c;
                ++p;
                continue;
            } else if (c == '#') {
                comment = true;
                break;
            }
            arg += c;
            ++p;
        }
        if (quoted) {
            *error = QStringLiteral("unmatched quote in: ") + QString::fromUtf8(line);
            return out;
        }
        if (!arg.isEmpty()) out << QString::fromUtf8(arg);
        if (comment) return out;
    }
}

// A detached Slurm launch with the given values: two ranks on one node.
PreparedLaunch slurmLaunch(const QString& name, const QString& planSummary, const QStringList& extraArgs)
{
    SlurmTarget t;
    t.corePath = QStringLiteral("shardbench-core");
    t.options.partition = QStringLiteral("gpu,debug");
    t.options.account = QStringLiteral("acct_1.x");
    t.options.timeLimit = QStringLiteral("1-00:30:00");
    t.options.extraArgs = extraArgs;
    PreparedLaunch l;
    l.config.target = t;
    l.config.name = name;
    l.config.maxRestarts = 2;
    l.uid = QStringLiteral("20260101-000000-abcdef");
    l.planSummary = planSummary;
    l.nodes = 1;
    l.procsPerNode = 2;
    l.worldSize = 2;
    return l;
}

} // namespace

class LauncherQuoting : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void quotesSimpleCases()
    {
        QCOMPARE(shellQuote("abc"), QByteArray("'abc'"));
        QCOMPARE(shellQuote(""), QByteArray("''"));
        QCOMPARE(shellQuote("it's"), QByteArray("'it'\\''s'"));
        QCOMPARE(shellQuote("$(x) `y` \"z\""), QByteArray("'$(x) `y` \"z\"'"));
        const Result<QByteArray> cmd = shellCommand({"a b", "c"});
        QVERIFY(cmd.ok());
        QCOMPARE(cmd.value(), QByteArray("'a b' 'c'"));
    }

    void refusesNulBytes()
    {
        const Result<QByteArray> cmd = shellCommand({"ok", QByteArray("a\0b", 3)});
        QVERIFY(!cmd.ok());
        QVERIFY(qtMessage(cmd).contains(QLatin1String("NUL")));
        const Result<QByteArray> env = buildRankCommand({QStringLiteral("p.pid"), 1, {}, {{"BAD NAME", "x"}}, QStringLiteral("/bin/true"), {}});
        QVERIFY(!env.ok());
        QVERIFY(qtMessage(env).contains(QLatin1String("BAD NAME")));
    }

    void roundTripsThroughRealShells_data()
    {
        QTest::addColumn<QString>("shell");
        for (const char* sh : {"/bin/sh", "/bin/dash", "/bin/bash"})
            if (QFile::exists(QLatin1String(sh))) QTest::newRow(sh) << QString::fromLatin1(sh);
    }

    void roundTripsThroughRealShells()
    {
        QFETCH(QString, shell);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArrayList args = nastyStrings(tmp.path());
        const Result<QByteArray> cmd = shellCommand(QByteArrayList{"printf", "%s\\0"} + args);
        QVERIFY2(cmd.ok(), qPrintable(qtMessage(cmd)));
        const QByteArrayList got = splitNul(runShell(shell, cmd.value()));
        QCOMPARE(got, args);
        QVERIFY2(QDir(tmp.path()).isEmpty(), "a quoted argument was executed");
    }

    void rankCommandRunsTheWrapperLiterally()
    {
        // The command an SSH server hands to the user's shell, run by bash:
        // working folder, pid file and every argument and variable arrive untouched.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QByteArrayList nasty = nastyStrings(tmp.path() + QStringLiteral("/markers"));
        QDir().mkpath(tmp.path() + QStringLiteral("/markers"));
        const QString workdir = tmp.path() + QStringLiteral("/work dir;$(touch x)'\n");
        QVERIFY(QDir().mkpath(workdir));
        RemoteRankCommand c;
        c.pidFile = tmp.path() + QStringLiteral("/rank 0;`x`.pid");
        c.graceSeconds = 1;
        c.workdir = workdir;
        c.environment = {{"RANK", "0"}, {"SB_RUN_NAME", nasty[8] + nasty[12]}};
        c.program = QStringLiteral("/bin/sh");
        c.arguments = QByteArrayList{"-c", "printf '%s\\0' \"$@\"; printf '%s\\0' \"$RANK\" \"$SB_RUN_NAME\" \"$PWD\"", "sb"} + nasty;
        const Result<QByteArray> built = buildRankCommand(c);
        QVERIFY2(built.ok(), qPrintable(qtMessage(built)));
        const QByteArray cmd = built.value();
        int code = -1;
        QByteArray stderrText;
        const QByteArrayList got = splitNul(runShell(QStringLiteral("/bin/bash"), cmd, &code, &stderrText));
        QCOMPARE(code, 0);
        QCOMPARE(got.mid(0, nasty.size()), nasty);
        QCOMPARE(got.value(nasty.size()), QByteArray("0"));
        QCOMPARE(got.value(nasty.size() + 1), nasty[8] + nasty[12]);
        QCOMPARE(QDir(QString::fromUtf8(got.value(nasty.size() + 2))).canonicalPath(), QDir(workdir).canonicalPath());
        QVERIFY2(stderrText.startsWith(kWrapperPidPrefix), stderrText.constData());
        QVERIFY2(!QFile::exists(c.pidFile), "the wrapper removes its pid file");
        QVERIFY2(QDir(tmp.path() + QStringLiteral("/markers")).isEmpty(), "a quoted argument was executed");
        QVERIFY(!QFile::exists(workdir + QStringLiteral("x")));
    }

    void wrapperPassesExitCodesAndSignals()
    {
        QTemporaryDir tmp;
        RemoteRankCommand c;
        c.pidFile = tmp.filePath(QStringLiteral("p.pid"));
        c.program = QStringLiteral("/bin/sh");
        c.arguments = {"-c", "exit 3"};
        QCOMPARE(wrapperExitCode(c), 3);
        c.arguments = {"-c", "kill -9 $$"};
        QCOMPARE(wrapperExitCode(c), 128 + 9);
    }

    void closingStdinStopsTheWholeGroup()
    {
        // The watchdog: end-of-file on the wrapper's stdin (a closed SSH
        // channel) terminates the rank's process group, children included.
        QTemporaryDir tmp;
        RemoteRankCommand c;
        c.pidFile = tmp.filePath(QStringLiteral("p.pid"));
        c.graceSeconds = 1;
        c.program = QStringLiteral("/bin/sh");
        const QByteArray tag = "sb-watchdog-test-" + QByteArray::number(::getpid());
        c.arguments = {"-c", "trap '' TERM; sleep 300 & sleep 301; wait", tag};
        QProcess p;
        p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromUtf8(buildRankCommand(c).value())});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(c.pidFile), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!sb::test::processesMentioning(tag).isEmpty(), 5000);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 128 + 9); // TERM is ignored: SIGKILL after the grace
        const auto left = sb::test::waitUntilNoneMention(tag, 3000);
        QVERIFY2(left.isEmpty(), qPrintable(sb::test::describe(left)));
    }

    void killCommandKillsTheRecordedGroup()
    {
        QTemporaryDir tmp;
        const QString pidFile = tmp.path() + QStringLiteral("/odd 'name' $(x).pid");
        QProcess victim;
        QVERIFY(startGroupLeader(victim));
        QVERIFY(sb::test::SshdFixture::writeFile(pidFile, QByteArray::number(victim.processId())).isEmpty());
        const QByteArray cmd = buildKillCommand({pidFile, tmp.path() + QStringLiteral("/missing.pid")}).value();
        int code = -1;
        runShell(QStringLiteral("/bin/bash"), cmd, &code);
        QCOMPARE(code, 0);
        QVERIFY(victim.waitForFinished(5000));
        QCOMPARE(victim.exitStatus(), QProcess::CrashExit);
    }

    // A pid file whose path starts with '-' is a file to rm and cat, not
    // their options: the wrapper removes it, the kill command reads it.
    void pidFilesStartingWithADashAreFiles()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        RemoteRankCommand c;
        c.pidFile = QStringLiteral("-rf.pid"); // relative: in the working folder, which the wrapper enters first
        c.workdir = tmp.path();
        c.program = QStringLiteral("/bin/sh");
        c.arguments = {"-c", "exit 0"};
        QCOMPARE(wrapperExitCode(c), 0);
        QVERIFY2(QDir(tmp.path()).isEmpty(), qPrintable(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).join(u' ')));

        QProcess victim;
        QVERIFY(startGroupLeader(victim));
        QVERIFY(sb::test::SshdFixture::writeFile(tmp.filePath(QStringLiteral("-n.pid")), QByteArray::number(victim.processId())).isEmpty());
        QProcess kill;
        kill.setWorkingDirectory(tmp.path());
        kill.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromUtf8(buildKillCommand({QStringLiteral("-n.pid")}).value())});
        QVERIFY(kill.waitForFinished(10000));
        QVERIFY2(victim.waitForFinished(5000), "the kill command did not read its pid file");
    }

    // job.sbatch with a hostile value in every field it writes: run as the
    // job's shell runs it, nothing but its one command runs (that command gets
    // its arguments as they were), and sbatch's own parser reads every
    // #SBATCH line back as exactly the option it was meant to be.
    void batchScriptRunsNothingFromItsValues()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString m = tmp.path() + QStringLiteral("/markers");
        QVERIFY(QDir().mkpath(m));
        const QString touch = QStringLiteral("touch ") + m;
        const QString name = QStringLiteral("name\n") + touch + QStringLiteral("/m1\n# $(") + touch + QStringLiteral("/m2) 'x' #y \\ %1 \x1b[31m");
        // What `validate` took as a preset before: a newline ends the comment, its next line runs.
        const QString summary = QStringLiteral("transformer\n") + touch + QStringLiteral("/m3\n#, 3 units, world 2\r\n") + touch +
                                QStringLiteral("/m4\u2028\u0085x");
        const QStringList extra = {
            QStringLiteral("--comment=$(") + touch + QStringLiteral("/m5) `") + touch + QStringLiteral("/m6` 'q' # not a comment \\ end\\"),
            QStringLiteral("--mail-user=a b;") + touch + QStringLiteral("/m7"),
            QStringLiteral("--begin=now+1hour#x"),
            QStringLiteral("--exclusive"),
            QStringLiteral("--export-file=x'y"),
        };
        PreparedLaunch l = slurmLaunch(name, summary, extra);
        l.uid = QStringLiteral("20260101-000000-abcdef\n") + touch + QStringLiteral("/m8");
        const QString runDir = tmp.path() + QStringLiteral("/run dir $(") + touch + QStringLiteral("/m9) 'x' #y %j `id` ;");
        QVERIFY(QDir().mkpath(runDir));
        // The supervise program at a path as hostile: it writes the arguments it got.
        const QString supervise = tmp.path() + QStringLiteral("/super'vise $(") + touch + QStringLiteral("/m10) #");
        QVERIFY(QDir().mkpath(QFileInfo(supervise).absolutePath()));
        QVERIFY(sb::test::SshdFixture::writeFile(supervise, "#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$SB_ARGS_OUT\"\n").isEmpty());
        QVERIFY(QFile::setPermissions(supervise, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QVERIFY2(batchScriptProblems(l, runDir).empty(), qPrintable(runConfigMessages(batchScriptProblems(l, runDir)).join(u'\n')));
        const Result<QString> batch = sbatchScript(l, runDir, supervise);
        QVERIFY2(batch.ok(), qPrintable(qtMessage(batch)));
        const QString script = batch.value();

        // The shell: `sh -n` takes it, and run, it runs only its exec.
        const QString scriptPath = tmp.path() + QStringLiteral("/job.sbatch");
        QVERIFY(sb::test::SshdFixture::writeFile(scriptPath, script.toUtf8()).isEmpty());
        for (const char* sh : {"/bin/sh", "/bin/bash"}) {
            QFile::remove(tmp.path() + QStringLiteral("/args"));
            QProcess check;
            check.start(QString::fromLatin1(sh), {QStringLiteral("-n"), scriptPath});
            QVERIFY(check.waitForFinished(10000));
            QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("SB_ARGS_OUT"), tmp.path() + QStringLiteral("/args"));
            p.setProcessEnvironment(env);
            p.setWorkingDirectory(runDir);
            p.start(QString::fromLatin1(sh), {scriptPath});
            QVERIFY(p.waitForFinished(10000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
            QVERIFY2(QDir(m).isEmpty(), qPrintable(QStringLiteral("a value ran in the batch script:\n") + script));
            QFile args(tmp.path() + QStringLiteral("/args"));
            QVERIFY(args.open(QIODevice::ReadOnly));
            QCOMPARE(splitNul(args.readAll()), (QByteArrayList{"start", runDir.toUtf8(), "--foreground"}));
        }

        // Comments stay comments: every line before the command starts with '#'.
        const QStringList lines = script.split(u'\n');
        qsizetype exec = -1;
        for (qsizetype i = 0; i < lines.size() && exec < 0; ++i)
            if (lines[i].startsWith(QLatin1String("exec "))) exec = i;
        QVERIFY(exec > 0);
        for (qsizetype i = 0; i < exec; ++i)
            QVERIFY2(lines[i].isEmpty() || lines[i].startsWith(u'#'), qPrintable(lines[i]));
        QCOMPARE(lines.size(), exec + 2); // the exec, then the final newline
        QVERIFY2(script.contains(QStringLiteral("transformer\\n")), qPrintable(script)); // the preset, shown escaped

        // sbatch reads back each option exactly.
        QStringList got;
        for (const QString& line : lines) {
            if (!line.startsWith(QLatin1String("#SBATCH"))) continue;
            QString parseError;
            const QStringList args = sbatchArguments(line.mid(7).toUtf8(), &parseError);
            QVERIFY2(parseError.isEmpty(), qPrintable(parseError));
            QVERIFY2(args.size() == 1, qPrintable(line));
            got << args;
        }
        QString outputPattern = runDir;
        outputPattern.replace(u'%', QStringLiteral("%%"));
        const QStringList expected = QStringList{
            QStringLiteral("--job-name=") + slurmJobName(name), QStringLiteral("--nodes=1"), QStringLiteral("--ntasks-per-node=2"),
            QStringLiteral("--partition=gpu,debug"), QStringLiteral("--account=acct_1.x"), QStringLiteral("--time=1-00:30:00"),
            QStringLiteral("--output=") + outputPattern + QStringLiteral("/slurm-%j.out"), QStringLiteral("--chdir=") + runDir,
            QStringLiteral("--no-requeue")} + QStringList(extra);
        QCOMPARE(got, expected);
    }

    // What sbatch cannot read back is refused, naming the option, before any script exists.
    void batchScriptRefusesWhatSbatchWouldMisread_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("runDir");
        QTest::addColumn<QString>("expected");
        const QString ok = QStringLiteral("/scratch/runs/r1");
        QTest::newRow("quote in a slurm arg") << QString() << QStringList{QStringLiteral("--comment=a\"b")} << ok
                                              << QStringLiteral("--slurm-arg \"--comment=a\"b\" cannot be written in a batch script: it contains '\"'");
        QTest::newRow("newline in a slurm arg") << QString() << QStringList{QStringLiteral("--comment=a\ntouch x")} << ok
                                                << QStringLiteral("--slurm-arg \"--comment=a\\ntouch x\" cannot be written in a batch script: it contains '\\n'");
        QTest::newRow("hetjob in a slurm arg") << QString() << QStringList{QStringLiteral("--comment=my HetJob")} << ok
                                               << QStringLiteral("it contains \"hetjob\"");
        QTest::newRow("quote in the name") << QStringLiteral("my \"run\"") << QStringList{} << ok
                                           << QStringLiteral("--name \"my \"run\"\" cannot be written");
        QTest::newRow("packjob in the name") << QStringLiteral("packjob") << QStringList{} << ok << QStringLiteral("\"packjob\"");
        QTest::newRow("quote in the run dir") << QString() << QStringList{} << QStringLiteral("/scratch/a\"b/r1")
                                              << QStringLiteral("--run-root \"/scratch/a\"b/r1\"");
        QTest::newRow("newline in the run dir") << QString() << QStringList{} << QStringLiteral("/scratch/a\nb/r1") << QStringLiteral("'\\n'");
        QTest::newRow("backslash in the run dir") << QString() << QStringList{} << QStringLiteral("/scratch/a\\b/r1") << QStringLiteral("'\\'");
    }
    void batchScriptRefusesWhatSbatchWouldMisread()
    {
        QFETCH(QString, name);
        QFETCH(QStringList, extra);
        QFETCH(QString, runDir);
        QFETCH(QString, expected);
        const PreparedLaunch l = slurmLaunch(name, QStringLiteral("transformer, 3 units, world 2"), extra);
        const std::vector<RunConfigProblem> bad = batchScriptProblems(l, runDir);
        QCOMPARE(bad.size(), std::size_t(1));
        QCOMPARE(bad[0].code, RunConfigCode::SlurmBatchValue);
        const QString message = runConfigMessage(bad[0]);
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains(u'\n'), qPrintable(message));
        const Result<QString> refused = sbatchScript(l, runDir, QStringLiteral("/opt/sb/shardbench-supervise"));
        QVERIFY(!refused.ok());
        QCOMPARE(qtMessage(refused), message);
    }

    void checksHostNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("ok");
        QTest::newRow("alias") << "gpu-node-1" << true;
        QTest::newRow("fqdn") << "gpu1.cluster.example.org" << true;
        QTest::newRow("user") << "alice@gpu1" << true;
        QTest::newRow("ipv4") << "10.0.0.7" << true;
        QTest::newRow("ipv6") << "fe80::1" << true;
        QTest::newRow("ipv6 bracket") << "[::1]" << true;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("semicolon") << "a;reboot" << false;
        QTest::newRow("subshell") << "$(reboot)" << false;
        QTest::newRow("backquote") << "a`id`" << false;
        QTest::newRow("quote") << "a'b" << false;
        QTest::newRow("space") << "a b" << false;
        QTest::newRow("newline") << "a\nb" << false;
        QTest::newRow("option") << "-oProxyCommand=x" << false;
        QTest::newRow("two at") << "a@b@c" << false;
        QTest::newRow("empty user") << "@host" << false;
        QTest::newRow("percent token") << "%h" << false;
    }

    void checksHostNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, ok);
        const QString err = qtMessage(checkHostName(name));
        QVERIFY2(err.isEmpty() == ok, qPrintable(err));
        if (!ok) QVERIFY2(!err.contains(QLatin1Char('\n')), "messages stay on one line");
    }

    void parsesHostfiles_data()
    {
        QTest::addColumn<QString>("file");
        const QDir data(QStringLiteral(SB_LAUNCHER_TEST_DATA "/hostfiles"));
        for (const QString& f : data.entryList({QStringLiteral("*.hostfile")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << data.filePath(f);
    }

    void parsesHostfiles()
    {
        QFETCH(QString, file);
        QFile in(file);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const HostListResult r = parseHostfileText(QString::fromUtf8(in.readAll()), QFileInfo(file).fileName());
        QFile exp(file.chopped(9) + QStringLiteral(".expected"));
        QVERIFY(exp.open(QIODevice::ReadOnly));
        QStringList hosts, errors;
        for (const QString& line : QString::fromUtf8(exp.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (line.startsWith(QLatin1String("error: "))) errors << line.mid(7);
            else hosts << line;
        }
        QStringList gotHosts;
        for (const HostSpec& h : r.hosts) gotHosts << QStringLiteral("%1 %2").arg(h.name).arg(h.slots);
        if (errors.isEmpty()) {
            QCOMPARE(r.errors, QStringList());
            QCOMPARE(gotHosts, hosts);
        } else {
            QCOMPARE(r.errors.size(), errors.size());
            for (int i = 0; i < errors.size(); ++i)
                QVERIFY2(r.errors[i].startsWith(errors[i]), qPrintable(r.errors[i] + QStringLiteral(" / ") + errors[i]));
        }
    }

    void parsesHostArguments()
    {
        const HostListResult r = parseHostArguments({QStringLiteral("a"), QStringLiteral("b:4"), QStringLiteral("fe80::1"),
                                                     QStringLiteral("[::1]:2"), QStringLiteral("u@c:1")});
        QVERIFY2(r.ok(), qPrintable(r.errors.join(QLatin1Char('\n'))));
        QCOMPARE(r.hosts.size(), 5);
        QCOMPARE(r.hosts[0].slots, 0);
        QCOMPARE(r.hosts[1].name, QStringLiteral("b"));
        QCOMPARE(r.hosts[1].slots, 4);
        QCOMPARE(r.hosts[2].name, QStringLiteral("fe80::1"));
        QCOMPARE(r.hosts[3].name, QStringLiteral("[::1]"));
        QCOMPARE(r.hosts[3].slots, 2);
        QCOMPARE(r.hosts[4].userPart(), QStringLiteral("u"));
        QCOMPARE(r.hosts[4].hostPart(), QStringLiteral("c"));
        QVERIFY(!parseHostArguments({QStringLiteral("x;id")}).ok());
        QVERIFY(!parseHostArguments({QStringLiteral("a"), QStringLiteral("a:2")}).ok());
    }
};

QTEST_GUILESS_MAIN(LauncherQuoting)
#include "tst_launcher_quoting.moc"
