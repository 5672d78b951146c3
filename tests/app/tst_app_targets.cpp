// Launch targets and restore plans, as the workbench and the command line
// build them (Qt Core, no window): a choice becomes exactly one kind of
// target, Slurm is always started from this machine, a launch request is
// prepared with its plan written where asked and the core paths filled into
// its own kind of target, and a restored plan gets the mesh of the new world
// size.
#include "run/launch_request.hpp"
#include "run/restore_plan.hpp"

#include "launch/launch_target.hpp"
#include "plan/model_config.hpp"
#include "plan/plan.hpp"
#include "plan/plan_json.hpp"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::launch;

namespace {
Plan tutorialPlan() { return defaultPlan(*presetConfig("transformer")); }
} // namespace

class TestAppTargets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void choiceBecomesOneKindOfTarget()
    {
        TargetChoice c;
        c.local = true;
        QVERIFY(std::holds_alternative<LocalTarget>(targetFrom(c)));
        c.slurm = true; // the chooser's Slurm option starts srun here
        c.slurmOptions.partition = QStringLiteral("gpu");
        const LaunchTarget slurm = targetFrom(c);
        QVERIFY(std::holds_alternative<SlurmTarget>(slurm));
        QCOMPARE(std::get<SlurmTarget>(slurm).options.partition, QStringLiteral("gpu"));
        QCOMPARE(backendOf(slurm), BackendKind::Slurm);
        QVERIFY(startsHere(slurm));
        QVERIFY(sshHosts(slurm).isEmpty());

        TargetChoice ssh;
        ssh.hosts = {HostSpec{QStringLiteral("a"), 2}, HostSpec{QStringLiteral("b"), 3}};
        const LaunchTarget t = targetFrom(ssh);
        QCOMPARE(backendOf(t), BackendKind::Ssh);
        QVERIFY(!startsHere(t));
        QCOMPARE(sshSlots(t), 5);
        QCOMPARE(sshHosts(t).value(1).name, QStringLiteral("b"));
    }

    void preparedSlurmTargetKeepsItsOptions()
    {
        QTemporaryDir dir;
        app::LaunchRequest r;
        r.plan = tutorialPlan();
        r.launchDir = dir.filePath(QStringLiteral("launches"));
        SlurmTarget slurm;
        slurm.options.account = QStringLiteral("acct");
        r.config.target = slurm;
        const app::PreparedRun p = app::prepareRun(r, SshOptions{}, QStringLiteral("./core"), QStringLiteral("remote-core"), QStringLiteral("rdir"));
        // srun may be missing here; the configuration is what is checked.
        const RunConfig& c = p.result.launch.config;
        QCOMPARE(c.backend(), BackendKind::Slurm);
        const auto* s = std::get_if<SlurmTarget>(&c.target);
        QVERIFY(s);
        QCOMPARE(s->options.account, QStringLiteral("acct"));
        QCOMPARE(s->corePath, QFileInfo(QStringLiteral("core")).absoluteFilePath());
        QCOMPARE(s->workdir, r.launchDir);
        // A core named without a folder is the one on the nodes' PATH.
        const app::PreparedRun onPath = app::prepareRun(r, SshOptions{}, QStringLiteral("shardbench-core"), QString(), QString());
        QCOMPARE(std::get<SlurmTarget>(onPath.result.launch.config.target).corePath, QStringLiteral("shardbench-core"));
    }

    void requestIsPreparedWhereAsked()
    {
        QTemporaryDir dir;
        app::LaunchRequest r;
        r.plan = tutorialPlan();
        r.plan.mesh.nodes = 2;
        r.plan.mesh.procsPerNode = 2;
        r.config.name = QStringLiteral("two hosts");
        r.plan.training.checkpoint.dir = "ckpt";
        r.launchDir = dir.filePath(QStringLiteral("launches"));
        SshTarget hosts;
        hosts.hosts = {HostSpec{QStringLiteral("h1"), 2}, HostSpec{QStringLiteral("h2"), 2}};
        r.config.target = hosts;
        SshOptions ssh;
        ssh.connectTimeoutS = 7;
        const app::PreparedRun p = app::prepareRun(r, ssh, QStringLiteral("core"), QStringLiteral("remote-core"), QStringLiteral("rdir"));
        QVERIFY2(p.ok(), qPrintable(launch::runConfigMessages(p.result.errors).join(u'\n')));
        QVERIFY(!p.writeProblem);
        QVERIFY(p.planFile.startsWith(r.launchDir + QLatin1Char('/')));
        QVERIFY(p.planFile.endsWith(QStringLiteral("-two-hosts.json")));
        QVERIFY(QFileInfo::exists(p.planFile));
        QCOMPARE(p.result.launch.config.backend(), BackendKind::Ssh);
        const SshTarget& t = std::get<SshTarget>(p.result.launch.config.target);
        QCOMPARE(t.remoteCore, QStringLiteral("remote-core"));
        QCOMPARE(t.remoteDir, QStringLiteral("rdir"));
        QCOMPARE(t.ssh.connectTimeoutS, 7);
        QCOMPARE(t.hosts.size(), 2);
        QCOMPARE(p.result.launch.worldSize, 4);
        // Relative paths stay relative to the remote working folder.
        const PlanReadResult written = loadPlanFile(p.planFile.toStdString());
        QVERIFY(written.ok());
        QCOMPARE(written.plan.training.checkpoint.dir, std::string("ckpt"));
        // Here they are made absolute against the folder the ranks work in.
        r.config.target = launch::LocalTarget{};
        r.planDir = dir.path();
        const app::PreparedRun local = app::prepareRun(r, ssh, QStringLiteral("core"), QString(), QString());
        QCOMPARE(loadPlanFile(local.planFile.toStdString()).plan.training.checkpoint.dir, dir.filePath(QStringLiteral("ckpt")).toStdString());
    }

    // A plan that cannot be written for the ranks is a coded finding naming
    // the folder or the file, which the pre-flight words in the workbench's language.
    void anUnwritablePlanIsACodedProblem()
    {
        QTemporaryDir dir;
        const QString blocker = dir.filePath(QStringLiteral("a-file"));
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        app::LaunchRequest r;
        r.plan = tutorialPlan();
        r.launchDir = blocker + QStringLiteral("/launches"); // under a file: cannot be created
        const app::PreparedRun noFolder = app::prepareRun(r, SshOptions{}, QStringLiteral("core"), QString(), QString());
        QVERIFY(!noFolder.ok());
        QVERIFY(noFolder.writeProblem.has_value());
        QCOMPARE(launch::runConfigMessage(*noFolder.writeProblem), QStringLiteral("cannot create the launch folder ") + r.launchDir);

        r.launchDir = QStringLiteral("/proc/self"); // a folder no one can write a file into, root included
        const app::PreparedRun noFile = app::prepareRun(r, SshOptions{}, QStringLiteral("core"), QString(), QString());
        QVERIFY(noFile.writeProblem.has_value());
        QCOMPARE(noFile.writeProblem->code, launch::RunConfigCode::PlanWrite);
        const QString words = launch::runConfigMessage(*noFile.writeProblem);
        QVERIFY2(words.startsWith(QStringLiteral("the plan for the ranks was not written: cannot write /proc/self/")), qPrintable(words));
    }

    void restoredPlanHasTheNewMesh()
    {
        Plan p = tutorialPlan();
        p.mesh.nodes = 1;
        p.mesh.procsPerNode = 4;
        p.mesh.replicate = 2;
        app::RestoreChoice c;
        c.worldSize = 6;
        c.nodes = 2;
        c.steps = 40;
        c.checkpointDir = QStringLiteral("/ckpt");
        Plan r = app::restoredPlan(p, c);
        QCOMPARE(r.mesh.nodes, 2);
        QCOMPARE(r.mesh.procsPerNode, 3);
        QCOMPARE(r.mesh.replicate, 2); // still divides 6
        QCOMPARE(r.training.steps, 40);
        QCOMPARE(r.training.checkpoint.dir, std::string("/ckpt"));
        c.worldSize = 3;
        c.nodes = 1;
        r = app::restoredPlan(p, c);
        QCOMPARE(r.mesh.worldSize(), 3);
        QCOMPARE(r.mesh.replicate, 1); // 2 does not divide 3
        QCOMPARE(app::defaultRestoreCheckpointDir(QStringLiteral("/x/ckpt/RUN/step-000020"), QStringLiteral("RUN")),
                 QStringLiteral("/x/ckpt"));
        QCOMPARE(app::defaultRestoreCheckpointDir(QStringLiteral("/x/ckpt/step-000020"), QStringLiteral("RUN")), QStringLiteral("/x/ckpt"));
        QVERIFY(!app::readRestoreSource(QStringLiteral("/no/such/checkpoint"), {}).error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestAppTargets)
#include "tst_app_targets.moc"
