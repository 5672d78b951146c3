// RunConfig::validate() as codes (launch/run_config_problems.hpp): each
// check reports its code with its arguments, validate() keeps the English
// sentences it had, and the catalogue's names are unique "run." codes. A
// target's fields exist only in its own kind (launch_target.hpp): no Slurm
// options, hosts or core paths beside the target, checked at compile time.
#include "launch/run_config.hpp"
#include "launch/run_config_problems.hpp"
#include "launch/slurm/slurm_options.hpp"
#include "launch/ssh/host_key_policy.hpp"
#include "launch/ssh/ssh_connection.hpp"

#include "plan/problem_catalogue.hpp"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <type_traits>
#include <utility>

using namespace sb;
using namespace sb::launch;

namespace {

RunConfig validLocal()
{
    LocalTarget here;
    here.corePath = QStringLiteral("/opt/shardbench/bin/shardbench-core");
    RunConfig c;
    c.planPath = QStringLiteral("plan.json");
    c.target = here;
    return c;
}

// Whether T has a member of that name: the states issue 11 rules out (a
// local run with hosts, an SSH run with Slurm options, a backend beside a
// target that says otherwise) must not be writable.
#define SB_HAS_MEMBER(trait, member) \
    template <class T, class = void> struct trait : std::false_type {}; \
    template <class T> struct trait<T, std::void_t<decltype(std::declval<T&>().member)>> : std::true_type {};
SB_HAS_MEMBER(HasHosts, hosts)
SB_HAS_MEMBER(HasSlurmOptions, options)
SB_HAS_MEMBER(HasSlurm, slurm)
SB_HAS_MEMBER(HasCorePath, corePath)
SB_HAS_MEMBER(HasRemoteCore, remoteCore)
SB_HAS_MEMBER(HasSsh, ssh)
SB_HAS_MEMBER(HasBackendField, backend = BackendKind::Ssh)
#undef SB_HAS_MEMBER

static_assert(std::variant_size_v<LaunchTarget> == 3);
static_assert(std::is_same_v<std::variant_alternative_t<0, LaunchTarget>, LocalTarget>); // the default target
static_assert(!HasHosts<RunConfig>::value && !HasSlurm<RunConfig>::value && !HasCorePath<RunConfig>::value &&
              !HasRemoteCore<RunConfig>::value && !HasSsh<RunConfig>::value);
static_assert(!HasBackendField<RunConfig>::value); // derived from the target: RunConfig::backend()
static_assert(!HasHosts<LocalTarget>::value && !HasSlurmOptions<LocalTarget>::value && !HasRemoteCore<LocalTarget>::value &&
              !HasSsh<LocalTarget>::value);
static_assert(!HasHosts<SlurmTarget>::value && !HasRemoteCore<SlurmTarget>::value && !HasSsh<SlurmTarget>::value);
static_assert(!HasSlurmOptions<SshTarget>::value && !HasCorePath<SshTarget>::value);

QString codesOf(const std::vector<RunConfigProblem>& problems)
{
    QStringList names;
    for (const RunConfigProblem& p : problems)
        names << QString::fromUtf8(runConfigCatalogue().at(static_cast<std::size_t>(p.code)).name);
    return names.join(u' ');
}

} // namespace

class LauncherRunConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validConfigsHaveNoProblems()
    {
        QVERIFY(runConfigProblems(validLocal()).empty());
        QVERIFY(validLocal().validate().isEmpty());
        RunConfig ssh;
        ssh.planPath = QStringLiteral("plan.json");
        SshTarget hosts;
        hosts.hosts = {HostSpec{QStringLiteral("node-a"), 0}};
        ssh.target = hosts;
        QCOMPARE(ssh.backend(), BackendKind::Ssh);
        QVERIFY(ssh.validate().isEmpty());
    }

    // The initial weights' path goes into every rank's argv: never an option.
    void initialWeightsPathIsNeverAnOption()
    {
        RunConfig c = validLocal();
        c.initFrom = QStringLiteral("-x");
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.init_from_dash"));
        c.initFrom = QStringLiteral("w") + QChar(0);
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.init_from_nul"));
        c.initFrom = QStringLiteral("/models/Qwen3-0.6B");
        QVERIFY(runConfigProblems(c).empty());
    }

    void localProblemsHaveCodesAndTheirSentences()
    {
        RunConfig c = validLocal();
        c.planPath.clear();
        c.maxRestarts = 1001;
        c.masterPort = 70000;
        c.stopGraceMs = 60001;
        c.name = QString(201, u'x');
        c.resumeFrom = QStringLiteral("ck") + QChar(0);
        c.extraEnv.insert(QStringLiteral("1BAD"), QStringLiteral("v") + QChar(0));
        std::get<LocalTarget>(c.target).workdir = QStringLiteral("w") + QChar(0);
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), QStringLiteral("run.plan_missing run.max_restarts run.master_port run.stop_grace run.stop_deadline "
                                                   "run.name_too_long run.resume_nul run.env_name run.env_value_nul run.workdir_nul"));
        QCOMPARE(c.validate(), (QStringList{
                                   QStringLiteral("no plan file given"),
                                   QStringLiteral("max restarts must be 0 to 1000"),
                                   QStringLiteral("the master port must be 1 to 65535"),
                                   QStringLiteral("the stop grace must be 0 to 60000 ms"),
                                   QStringLiteral("the stop deadline must exceed the grace by 500 ms"),
                                   QStringLiteral("the run name is longer than 200 characters"),
                                   QStringLiteral("the resume folder contains a NUL character"),
                                   QStringLiteral("\"1BAD\" is not a valid environment variable name"),
                                   QStringLiteral("an environment value contains a NUL character"),
                                   QStringLiteral("the working folder contains a NUL character"),
                               }));
        // The arguments are data, not English: the variable name.
        QCOMPARE(problems[7].args.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems[7].args[0].text()), QStringLiteral("1BAD"));
    }

    void sshProblemsHaveCodesAndTheirSentences()
    {
        SshTarget t;
        t.remoteCore = QStringLiteral("-x=1");
        t.remoteDir.clear();
        t.remoteWorkdir = QStringLiteral("w") + QChar(0);
        t.ssh.connectTimeoutS = 0;
        t.ssh.keepaliveS = 4000;
        t.ssh.connectTries = 21;
        RunConfig c;
        c.planPath = QStringLiteral("plan.json");
        c.target = t;
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.ssh_no_hosts run.remote_core_chars run.remote_dir_missing "
                                                               "run.remote_workdir_nul run.ssh_connect_timeout run.ssh_keepalive "
                                                               "run.ssh_liveness run.ssh_connect_tries"));
        QCOMPARE(c.validate(), (QStringList{
                                   QStringLiteral("an SSH run needs at least one host"),
                                   QStringLiteral("the remote core path must not contain '=' or start with '-'"),
                                   QStringLiteral("no remote run folder given"),
                                   QStringLiteral("the remote working folder contains a NUL character"),
                                   QStringLiteral("the SSH connect timeout must be 1 to 3600 s"),
                                   QStringLiteral("the SSH keepalive interval must be 1 to 3600 s"),
                                   QStringLiteral("the SSH liveness timeout must exceed the keepalive interval and be at most 3600 s"),
                                   QStringLiteral("the number of SSH connect tries must be 1 to 20"),
                               }));
        QCOMPARE(t.ssh.validate().size(), 4);
    }

    void slurmCorePathAndDetails()
    {
        SlurmTarget slurm;
        slurm.corePath = QStringLiteral("-core");
        slurm.options.partition = QStringLiteral("bad partition");
        RunConfig c = validLocal();
        c.target = slurm;
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), QStringLiteral("run.core_dash run.slurm_partition"));
        const QStringList english = c.validate();
        QCOMPARE(english.size(), 2);
        QCOMPARE(english[0], QStringLiteral("the shardbench-core path must not start with '-'"));
        // The partition is an argument of the row, not a sentence passed on.
        QCOMPARE(problems[1].args.size(), std::size_t(1));
        QCOMPARE(english[1], QStringLiteral("--partition \"bad partition\" is not a partition name (letters, digits, '.', '-', '_'; "
                                            "a list separated by commas)"));
    }

    void eachKindChecksItsOwnFields()
    {
        // Slurm starts the core from this machine: without a core path it is refused, as a local run is.
        RunConfig c = validLocal();
        c.target = SlurmTarget{};
        QCOMPARE(c.backend(), BackendKind::Slurm);
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.core_missing"));
        c.target = LocalTarget{};
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.core_missing"));
        // An SSH target has no local core to miss; its own defaults are valid but for the hosts.
        c.target = SshTarget{};
        QCOMPARE(codesOf(runConfigProblems(c)), QStringLiteral("run.ssh_no_hosts"));
    }

    // Host names and Slurm options are found as codes whose arguments are data
    // (the name, the option, a quoted character), so a front end words them
    // in its own language. They were one English sentence passed on as %1.
    void hostAndSlurmFindingsCarryDataNotSentences_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("args");
        QTest::newRow("empty") << QString() << "run.host_empty" << QStringList{};
        QTest::newRow("long") << QString(300, u'a') << "run.host_too_long" << QStringList{QString(40, u'a')};
        QTest::newRow("two ats") << "a@b@c" << "run.host_two_ats" << QStringList{QStringLiteral("a@b@c")};
        QTest::newRow("empty user") << "@gpu1" << "run.host_part_empty" << QStringList{QStringLiteral("@gpu1")};
        QTest::newRow("dash") << "-oProxyCommand=sh" << "run.host_part_dash" << QStringList{QStringLiteral("-oProxyCommand=sh")};
        QTest::newRow("dash after at") << "me@-x" << "run.host_part_dash" << QStringList{QStringLiteral("me@-x")};
        QTest::newRow("semicolon") << "a;b" << "run.host_char" << QStringList{QStringLiteral("a;b"), QStringLiteral("';'")};
        QTest::newRow("newline") << "a\nb" << "run.host_char" << QStringList{QStringLiteral("a\\nb"), QStringLiteral("'\\n'")};
        QTest::newRow("space in v6") << "[fe80:: 1]" << "run.host_char" << QStringList{QStringLiteral("[fe80:: 1]"), QStringLiteral("' '")};
    }
    void hostAndSlurmFindingsCarryDataNotSentences()
    {
        QFETCH(QString, host);
        QFETCH(QString, code);
        QFETCH(QStringList, args);
        const auto argsOf = [](const RunConfigProblem& p) {
            QStringList out;
            for (const ProblemArg& a : p.args) out << QString::fromStdString(a.text());
            return out;
        };
        SshTarget ssh;
        ssh.hosts = {HostSpec{host, 1}};
        RunConfig c = validLocal();
        c.target = ssh;
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), code);
        QCOMPARE(argsOf(problems[0]), args);
        QCOMPARE(qtMessage(checkHostName(host)), runConfigMessage(problems[0])); // the hostfile reader's English is the same row's

        if (host.isEmpty()) return; // an empty --master-addr is the default, not a problem
        RunConfig master = validLocal();
        master.masterAddr = host;
        const std::vector<RunConfigProblem> masterProblems = runConfigProblems(master);
        QCOMPARE(codesOf(masterProblems), QStringLiteral("run.master_addr"));
        QCOMPARE(argsOf(masterProblems[0]), QStringList{host.left(80).replace(u'\n', QStringLiteral("\\n"))});
    }

    void slurmOptionsAreCodesWithTheirValues()
    {
        SlurmTarget slurm;
        slurm.corePath = QStringLiteral("shardbench-core");
        slurm.options.account = QStringLiteral("a b");
        slurm.options.timeLimit = QStringLiteral("soon");
        slurm.options.extraArgs = {QStringLiteral("-x"), QStringLiteral("--ntasks=3"), QStringLiteral("--part=gpu"), QStringLiteral("--gpus=2")};
        RunConfig c = validLocal();
        c.target = slurm;
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), QStringLiteral("run.slurm_account run.slurm_time run.slurm_arg_form run.slurm_arg_reserved run.slurm_arg_own_option"));
        QCOMPARE(runConfigMessage(problems[3]), QStringLiteral("--slurm-arg --ntasks=3: shardbench sets --ntasks itself"));
        QCOMPARE(runConfigMessage(problems[4]), QStringLiteral("--slurm-arg --part=gpu: shardbench sets --partition itself; use --partition instead"));
    }

    // A trailing newline is no part of a name or an option (a pattern ending in $ let it through).
    void slurmFormsEndAtTheEnd()
    {
        SlurmOptions o;
        o.partition = QStringLiteral("gpu\n");
        o.account = QStringLiteral("acct\n");
        o.timeLimit = QStringLiteral("10\n");
        o.extraArgs = {QStringLiteral("--exclusive\n")};
        QCOMPARE(codesOf(o.problems()), QStringLiteral("run.slurm_partition run.slurm_account run.slurm_time run.slurm_arg_form"));
    }

    // A detached run's batch script says --no-requeue: --requeue and its
    // abbreviations are refused as the options shardbench sets are.
    void requeueIsRefused()
    {
        for (const char* arg : {"--requeue", "--requ", "--req", "--requeue=1"}) {
            const auto bad = extraSrunArgumentProblem(QLatin1String(arg));
            QVERIFY2(bad && bad->code == RunConfigCode::SlurmArgReserved, arg);
            QCOMPARE(runConfigMessage(*bad), QStringLiteral("--slurm-arg %1: shardbench sets --no-requeue itself").arg(QLatin1String(arg)));
        }
        for (const char* arg : {"--no-requeue", "--reservation=r1", "--reboot", "--qos=high"})
            QVERIFY2(!extraSrunArgumentProblem(QLatin1String(arg)), arg);
    }

    // An SSH config libssh refuses without a word (0.10: a ProxyJump it cannot
    // parse, a Match exec without its command): the reason names the file, the
    // line and what is on it, instead of "cannot apply the SSH config: ".
    void aRefusedSshConfigSaysWhere()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString config = tmp.filePath(QStringLiteral("ssh_config"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("Host gpu1\n  HostName 127.0.0.1\n\nHost gpu2\n  ProxyJump jump1,u@:\n  Port 2222\n");
        f.close();
        SshOptions o;
        o.configFile = config;
        o.sshDir = tmp.path();
        o.knownHostsFile = tmp.filePath(QStringLiteral("known_hosts"));
        FixedHostKeyPolicy policy(HostKeyDecision::Reject);
        SshConnection conn;
        HostKeyInfo key;
        const QString e = qtMessage(conn.open(HostSpec{QStringLiteral("gpu2"), 1}, o, policy, &key));
        QVERIFY2(e.contains(QStringLiteral("cannot apply the SSH config: %1 line 5 is not understood by libssh: \"ProxyJump jump1,u@:\"")
                                .arg(config)),
                 qPrintable(e));
    }

    void catalogueNamesAreUniqueAndInOrder()
    {
        QSet<QString> seen;
        const std::vector<RunConfigTemplate>& rows = runConfigCatalogue();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const QString name = QString::fromUtf8(rows[i].name);
            QCOMPARE(static_cast<std::size_t>(rows[i].code), i);
            // RunConfig's own rows, then what prepareLaunch and checkLaunchTarget find.
            const bool own = name.startsWith(QStringLiteral("run."));
            QVERIFY2(own || name.startsWith(QStringLiteral("launch.")), rows[i].name);
            QVERIFY2(!seen.contains(name), rows[i].name);
            seen.insert(name);
            QVERIFY2(placeholderCount(rows[i].text) <= (own ? 2 : 5), rows[i].name);
        }
    }
};

QTEST_GUILESS_MAIN(LauncherRunConfig)
#include "tst_launcher_run_config.moc"
