// RunConfig::validate() as codes (launch/run_config_problems.hpp): each
// check reports its code with its arguments, validate() keeps the English
// sentences it had, and the catalogue's names are unique "run." codes.
#include "launch/run_config.hpp"
#include "launch/run_config_problems.hpp"

#include "plan/problem_catalogue.hpp"

#include <QSet>
#include <QTest>

using namespace sb;
using namespace sb::launch;

namespace {

RunConfig validLocal()
{
    RunConfig c;
    c.planPath = QStringLiteral("plan.json");
    c.corePath = QStringLiteral("/opt/shardbench/bin/shardbench-core");
    return c;
}

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
        ssh.backend = BackendKind::Ssh;
        ssh.hosts = {HostSpec{QStringLiteral("node-a"), 0}};
        QVERIFY(ssh.validate().isEmpty());
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
        c.hosts = {HostSpec{QStringLiteral("node-a"), 0}};
        c.workdir = QStringLiteral("w") + QChar(0);
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), QStringLiteral("run.plan_missing run.max_restarts run.master_port run.stop_grace run.stop_deadline "
                                                   "run.name_too_long run.resume_nul run.env_name run.env_value_nul run.hosts_given "
                                                   "run.workdir_nul"));
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
                                   QStringLiteral("a local run takes no hosts"),
                                   QStringLiteral("the working folder contains a NUL character"),
                               }));
        // The arguments are data, not English: the variable name and the backend.
        QCOMPARE(problems[7].args.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(problems[7].args[0].text()), QStringLiteral("1BAD"));
        QCOMPARE(QString::fromStdString(problems[9].args[0].text()), QStringLiteral("local"));
    }

    void sshProblemsHaveCodesAndTheirSentences()
    {
        RunConfig c;
        c.planPath = QStringLiteral("plan.json");
        c.backend = BackendKind::Ssh;
        c.remoteCore = QStringLiteral("-x=1");
        c.remoteDir.clear();
        c.remoteWorkdir = QStringLiteral("w") + QChar(0);
        c.ssh.connectTimeoutS = 0;
        c.ssh.keepaliveS = 4000;
        c.ssh.connectTries = 21;
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
        QCOMPARE(c.ssh.validate().size(), 4);
    }

    void slurmCorePathAndDetails()
    {
        RunConfig c = validLocal();
        c.backend = BackendKind::Slurm;
        c.corePath = QStringLiteral("-core");
        c.slurm.partition = QStringLiteral("bad partition");
        const std::vector<RunConfigProblem> problems = runConfigProblems(c);
        QCOMPARE(codesOf(problems), QStringLiteral("run.core_dash run.slurm"));
        const QStringList english = c.validate();
        QCOMPARE(english.size(), 2);
        QCOMPARE(english[0], QStringLiteral("the shardbench-core path must not start with '-'"));
        QCOMPARE(english[1], c.slurm.validate().value(0)); // a Slurm option's sentence is passed on as the detail
    }

    void catalogueNamesAreUniqueAndInOrder()
    {
        QSet<QString> seen;
        const std::vector<RunConfigTemplate>& rows = runConfigCatalogue();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const QString name = QString::fromUtf8(rows[i].name);
            QCOMPARE(static_cast<std::size_t>(rows[i].code), i);
            QVERIFY2(name.startsWith(QStringLiteral("run.")), rows[i].name);
            QVERIFY2(!seen.contains(name), rows[i].name);
            seen.insert(name);
            QVERIFY(placeholderCount(rows[i].text) <= 1);
        }
    }
};

QTEST_GUILESS_MAIN(LauncherRunConfig)
#include "tst_launcher_run_config.moc"
