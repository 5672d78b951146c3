// shardbench-cli's commands through the workbench's services (app/):
// `preflight` passes a plan that runs here and fails one that cannot, with
// the same checks as the Run area; `probe` tests a host of the loopback sshd
// fixture (login, GPUs, the core's version) and says why an unknown host or
// key fails; `restore` resumes a checkpoint of 2 ranks at 3 as a new run
// linked to its parent. Bad input gets a sentence and exit code 2. Every
// command of shardbench-cli, and shardbench-supervise, answers --help (and -h)
// with its usage on stdout and exit 0, and --version with the release.
#include "cli_suite.hpp"
#include "launcher_test_support.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sb::test;

namespace {

QString s(const char* text) { return QString::fromUtf8(text); }

} // namespace

class LauncherCliApp : public CliSuite {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(prepare(false, 20), QString());
        qunsetenv("SSH_AUTH_SOCK");
    }

    void preflightPassesWhatRunsHere()
    {
        const CliResult r = cli({s("preflight"), plan_, s("--local")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(s("[ok  ] plan: valid")), qPrintable(r.out));
        QVERIFY(r.out.contains(s("[ok  ] layout: 2 ranks on this machine")));
        QVERIFY(r.out.contains(s("[ok  ] shardbench-core: 0.1.0")));
        QVERIFY(!r.out.contains(s("FAIL")));
    }

    void preflightFailsWhatCannotRun()
    {
        // No core at the given path: the core check fails, the others still run.
        CliResult r = cli({s("preflight"), plan_, s("--local"), s("--core"), tmp_.filePath(s("no/shardbench-core"))});
        QVERIFY2(r.code == 1, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(s("[FAIL] shardbench-core: ")), qPrintable(r.out));
        QVERIFY(r.out.contains(s("[ok  ] plan: valid")));
        // A plan that cannot be laid out over the hosts given (4 ranks, 1 slot).
        const QString big = tmp_.filePath(s("big.json"));
        QCOMPARE(writeTinyPlan(big, 2, 2, 5), QString());
        r = cli({s("preflight"), big, s("--host"), s("node-x:1"), s("--connect-timeout"), s("2")});
        QVERIFY2(r.code == 1, qPrintable(describe(r)));
        QVERIFY2(r.out.contains(s("[FAIL] layout: cannot be laid out")), qPrintable(r.out));
        QVERIFY(r.out.contains(s("[FAIL] hosts: 1 host failed")));
        // Slurm's nodes find a core named without a folder on their PATH: not
        // this machine's to find (it was refused as missing here).
        r = cli({s("preflight"), plan_, s("--slurm"), s("--core"), s("shardbench-core-on-the-nodes")});
        QVERIFY2(r.out.contains(s("[ok  ] shardbench-core: shardbench-core-on-the-nodes on the nodes' PATH (not checked here)")),
                 qPrintable(describe(r)));
    }

    void preflightRefusesBadInput()
    {
        CliResult r = cli({s("preflight")});
        QVERIFY(r.code == 2 && r.err.contains(s("expected one plan file")) && r.err.contains(s("usage:")));
        r = cli({s("preflight"), tmp_.filePath(s("missing.json")), s("--local")});
        QVERIFY2(r.code == 2 && r.err.contains(s("missing.json")), qPrintable(describe(r)));
        r = cli({s("preflight"), plan_, s("--local"), s("--slurm")});
        QVERIFY2(r.code == 2 && r.err.contains(s("give only one of --local, --slurm, --hosts and --host")), qPrintable(describe(r)));
        r = cli({s("preflight"), plan_, s("--local"), s("--partition"), s("p")});
        QVERIFY2(r.code == 2 && r.err.contains(s("--partition applies to Slurm runs")), qPrintable(describe(r)));
    }

    void probeAndPreflightOverSsh()
    {
        SshdFixture sshd(tmp_.filePath(s("sshd")));
        QDir().mkpath(sshd.dir);
        const QString err = sshd.start({s("127.0.0.8")});
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const QStringList ssh = {s("--ssh-config"), sshd.configFile, s("--known-hosts"), sshd.knownHostsFile,
                                 s("--ssh-dir"), sshd.sshDir, s("--remote-core"), corePath(),
                                 s("--remote-dir"), tmp_.filePath(s("remote"))};
        CliResult r = cli(QStringList{s("probe"), sshd.alias(0)} + ssh);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(s("host: node-a")));
        QVERIFY(r.out.contains(s("address: ")) && r.out.contains(s("@127.0.0.8:")));
        QVERIFY(r.out.contains(s("logged in: yes")));
        QVERIFY(r.out.contains(s("gpu")));
        QVERIFY2(r.out.contains(s("shardbench-core: 0.1.0 (LibTorch ")), qPrintable(r.out));

        // The pre-flight of a run on that host: reached, logged in, the core there.
        r = cli(QStringList{s("preflight"), plan_, s("--host"), sshd.alias(0) + s(":2")} + ssh);
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(s("[ok  ] hosts: 1 host reachable, logged in")));
        QVERIFY(r.out.contains(s("[ok  ] layout: 2 ranks on node-a x2")));

        // An unknown key is refused unless accepted; a wrong name is unreachable.
        QStringList unknownKey = ssh;
        unknownKey[unknownKey.indexOf(s("--known-hosts")) + 1] = tmp_.filePath(s("empty_known_hosts"));
        r = cli(QStringList{s("probe"), sshd.alias(0), s("--no-core")} + unknownKey);
        QVERIFY2(r.code == 1 && r.err.contains(s("unknown host key")) && r.err.contains(s("--accept-new-host-key")),
                 qPrintable(describe(r)));
        r = cli(QStringList{s("probe"), sshd.alias(0), s("--no-core"), s("--accept-new-host-key")} + unknownKey);
        QVERIFY2(r.code == 0 && !r.out.contains(s("shardbench-core:")), qPrintable(describe(r)));
        r = cli(QStringList{s("probe"), s("no-such-host.invalid"), s("--connect-timeout"), s("3")} + ssh);
        QVERIFY2(r.code == 1 && r.err.contains(s("no-such-host.invalid: not reachable")), qPrintable(describe(r)));
    }

    void probeRefusesBadInput()
    {
        CliResult r = cli({s("probe")});
        QVERIFY2(r.code == 2 && r.err.contains(s("give one host, or --local")), qPrintable(describe(r)));
        r = cli({s("probe"), s("a"), s("b")});
        QVERIFY(r.code == 2 && r.err.contains(s("give one host, or --local")));
        r = cli({s("probe"), s("--local"), s("--ssh-config"), s("x")});
        QVERIFY2(r.code == 2 && r.err.contains(s("--ssh-config applies to SSH hosts")), qPrintable(describe(r)));
        r = cli({s("probe"), s("a"), s("--core"), s("x")});
        QVERIFY(r.code == 2 && r.err.contains(s("--core applies to --local")));
        r = cli({s("probe"), s("--local"), s("--core"), tmp_.filePath(s("no/shardbench-core"))});
        QVERIFY2(r.code == 1 && r.err.contains(s("this machine: shardbench-core not found")), qPrintable(describe(r)));
        r = cli({s("probe"), s("--local")});
        QVERIFY2(r.code == 0 && r.out.contains(s("host: this machine")) && r.out.contains(s("shardbench-core: 0.1.0")),
                 qPrintable(describe(r)));
    }

    void everyCommandAnswersHelpAndVersion()
    {
        const CliResult all = cli({s("--help")});
        QVERIFY2(all.code == 0 && all.out.startsWith(s("usage: shardbench-cli COMMAND")), qPrintable(describe(all)));
        const char* commands[] = {"plan", "validate", "estimate", "export-script", "presets", "checkpoint", "run",
                                  "attach", "stop", "runs", "show", "metrics", "logs", "rename", "tag", "note",
                                  "delete", "preflight", "probe", "restore"};
        for (const char* command : commands) {
            // Named in the overview, and its own usage asked for in each place an option may stand.
            QVERIFY2(all.out.contains(s("\n  %1 ").arg(s(command))), command);
            for (const QStringList& args : {QStringList{s(command), s("--help")}, QStringList{s(command), s("x"), s("-h")}}) {
                const CliResult r = cli(args);
                QVERIFY2(r.code == 0 && r.err.isEmpty(), qPrintable(describe(r)));
                QVERIFY2(r.out.startsWith(s("usage: shardbench-cli %1").arg(s(command))), qPrintable(r.out));
            }
        }
        // The target options come with the commands that take them.
        QVERIFY(cli({s("preflight"), s("--help")}).out.contains(s("TARGET: [--local | --slurm")));
        // A value that happens to read "--help" stays a value when given with "=".
        const CliResult grep = cli({s("logs"), s("1"), s("--grep=--help"), s("--db"), tmp_.filePath(s("none.sqlite"))});
        QVERIFY2(grep.code == 2 && !grep.out.startsWith(s("usage:")), qPrintable(describe(grep)));

        const QRegularExpression release(s("^shardbench-(cli|core|supervise) \\d+\\.\\d+\\.\\d+[ \n]"));
        const CliResult version = cli({s("--version")});
        QVERIFY2(version.code == 0 && release.match(version.out).hasMatch(), qPrintable(describe(version)));
        const QString release0 = version.out.section(QLatin1Char(' '), 1, 1).trimmed();
        for (const QString& program : QStringList{corePath(), binDir() + s("/shardbench-supervise")}) {
            QByteArray out;
            QCOMPARE(runProgram(program, {s("--version")}, &out), 0);
            const QString text = QString::fromUtf8(out);
            QVERIFY2(release.match(text).hasMatch() && text.section(QLatin1Char(' '), 1, 1) == release0, qPrintable(text));
            QCOMPARE(runProgram(program, {s("--help")}, &out), 0);
            QVERIFY2(out.startsWith("usage: "), out.constData());
        }
    }

    void restoreResumesAtAnotherWorldSize()
    {
        const QString db = tmp_.filePath(s("runs.sqlite"));
        const QString root = tmp_.filePath(s("ckpt"));
        const QString plan = tmp_.filePath(s("ckpt-plan.json"));
        QCOMPARE(writeTinyPlan(plan, 1, 2, 20, root, 10), QString());
        CliResult r = cli({s("run"), plan, s("--local"), s("--db"), db, s("--quiet"), s("--env"), s("SB_THREADS=1")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        const QStringList runs = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        const QString checkpoint = root + s("/") + runs[0] + s("/step-000020");
        QVERIFY2(QFileInfo::exists(checkpoint), qPrintable(checkpoint));

        r = cli({s("restore"), checkpoint, s("--world-size"), s("3"), s("--steps"), s("26"), s("--local"), s("--db"), db,
                 s("--quiet"), s("--env"), s("SB_THREADS=1")});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY(r.err.contains(s("restoring step 20 of 2 ranks at 3 ranks")));
        const CliResult show = cli({s("show"), s("2"), s("--json"), s("--db"), db});
        const QJsonObject o = QJsonDocument::fromJson(show.out.toUtf8()).object();
        QCOMPARE(o.value(s("world_size")).toInt(), 3);
        QCOMPARE(o.value(s("status")).toString(), s("completed"));
        QVERIFY2(show.out.contains(s("\"parent_run\": 1")) || o.value(s("parent_run")).toInt() == 1, qPrintable(show.out));
        // Its checkpoints went into a folder of its own under the same root.
        QCOMPARE(QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 2);

        // Bad input: a missing checkpoint, no or a bad world size, a step not ahead, ranks that do not divide.
        r = cli({s("restore"), tmp_.filePath(s("nothing")), s("--world-size"), s("2"), s("--local"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("cannot read the checkpoint")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--local"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("--world-size N is required")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--world-size"), s("0"), s("--local"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("--world-size")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--world-size"), s("two"), s("--local"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("--world-size")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--world-size"), s("2"), s("--steps"), s("20"), s("--local"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("the checkpoint is at step 20")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--world-size"), s("3"), s("--host"), s("a"), s("--host"), s("b"), s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("3 ranks cannot be spread evenly over 2 hosts")), qPrintable(describe(r)));
        r = cli({s("restore"), checkpoint, s("--world-size"), s("2"), s("--resume"), checkpoint, s("--db"), db});
        QVERIFY2(r.code == 2 && r.err.contains(s("--resume is the checkpoint folder itself")), qPrintable(describe(r)));
    }
};

QTEST_GUILESS_MAIN(LauncherCliApp)
#include "tst_launcher_cli_app.moc"
