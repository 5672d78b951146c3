// Slurm's task layout read as torchrun's variables (core/engine/slurm_env):
// host-list and tasks-per-node expressions as Slurm writes them, the
// variables derived for a task, explicit variables winning, and malformed
// input refused by name.
#include "slurm_env.hpp"

#include <QTest>

#include <set>

#include <map>
#include <string>

using namespace sb::engine;
using sb::Result;

namespace {

Result<SlurmVars> translate(const std::map<std::string, std::string>& vars)
{
    return torchrunFromSlurm([&vars](const char* name) -> const char* {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    });
}

} // namespace

class TestSlurmEnv : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void firstHostOfAHostList_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("host");
        QTest::newRow("one host") << "gpu7" << "gpu7";
        QTest::newRow("several") << "a1,b2" << "a1";
        QTest::newRow("range") << "node[07-09]" << "node07";
        QTest::newRow("range list") << "node[12,03-05]" << "node12";
        QTest::newRow("range then more") << "gpu[3-4],cpu1" << "gpu3";
        QTest::newRow("two ranges in one name") << "rack[1-2]-n[4-5]" << "rack1-n4";
        QTest::newRow("suffix") << "n[01-02]-ib" << "n01-ib";
        QTest::newRow("unbalanced") << "node[07-" << "";
        QTest::newRow("not numeric") << "node[a-b]" << "";
        QTest::newRow("empty") << "" << "";
    }

    void firstHostOfAHostList()
    {
        QFETCH(QString, list);
        QFETCH(QString, host);
        const Result<std::string> got = firstHost(list.toStdString());
        QCOMPARE(QString::fromStdString(got ? got.value() : std::string()), host);
        QCOMPARE(got.ok(), !host.isEmpty());
    }

    void tasksPerNodeExpands_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QList<int>>("counts");
        QTest::newRow("one") << "4" << QList<int>{4};
        QTest::newRow("repeated") << "2(x3)" << QList<int>{2, 2, 2};
        QTest::newRow("mixed") << "2(x2),1,3" << QList<int>{2, 2, 1, 3};
        QTest::newRow("no closing parenthesis") << "2(x3" << QList<int>{};
        QTest::newRow("not a number") << "two" << QList<int>{};
        QTest::newRow("empty") << "" << QList<int>{};
    }

    void tasksPerNodeExpands()
    {
        QFETCH(QString, spec);
        QFETCH(QList<int>, counts);
        const Result<std::vector<int>> parsed = tasksPerNode(spec.toStdString());
        const std::vector<int> got = parsed ? parsed.value() : std::vector<int>();
        QCOMPARE(QList<int>(got.begin(), got.end()), counts);
        QCOMPARE(parsed.ok(), !counts.isEmpty());
    }

    void aTaskOfAStepGetsTorchrunVariables()
    {
        const Result<SlurmVars> t = translate({{"SLURM_STEP_ID", "0"},
                                              {"SLURM_PROCID", "5"},
                                              {"SLURM_NTASKS", "7"},
                                              {"SLURM_LOCALID", "1"},
                                              {"SLURM_NODEID", "2"},
                                              {"SLURM_STEP_TASKS_PER_NODE", "2(x2),3"},
                                              {"SLURM_TASKS_PER_NODE", "9"},
                                              {"SLURM_STEP_NODELIST", "gpu[3-5]"},
                                              {"SLURM_JOB_NODELIST", "other"},
                                              {"SLURM_JOB_ID", "31000"}});
        QCOMPARE(QString::fromStdString(t.error()), QString());
        const std::map<std::string, std::string> expected{{"RANK", "5"},        {"WORLD_SIZE", "7"},
                                                          {"LOCAL_RANK", "1"},  {"LOCAL_WORLD_SIZE", "3"},
                                                          {"MASTER_ADDR", "gpu3"}, {"MASTER_PORT", "16000"}};
        QVERIFY(t.value() == expected);
    }

    // Two runs in one allocation are two steps of one job: they must not
    // meet on one rendezvous port (they did: 15000 + job id % 15000 for both).
    void stepsOfOneJobGetTheirOwnPorts()
    {
        auto portOf = [](const char* step) {
            return translate({{"SLURM_STEP_ID", step}, {"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "1"},
                              {"SLURM_STEP_NODELIST", "n1"}, {"SLURM_JOB_ID", "31000"}})
                .value().at("MASTER_PORT");
        };
        QCOMPARE(QString::fromStdString(portOf("0")), QStringLiteral("16000"));
        std::set<std::string> ports;
        for (int step = 0; step < 200; ++step) ports.insert(portOf(std::to_string(step).c_str()));
        QCOMPARE(ports.size(), std::size_t(200));
        for (const std::string& p : ports) QVERIFY(std::stoi(p) >= 15000 && std::stoi(p) < 30000);
    }

    void explicitVariablesWin()
    {
        // torchrun's own variables: nothing is derived at all.
        QVERIFY(translate({{"SLURM_STEP_ID", "0"}, {"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}, {"RANK", "0"}}).value().empty());
        // Outside a job step (the batch script itself): nothing either.
        QVERIFY(translate({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}}).value().empty());
        // MASTER_ADDR and MASTER_PORT set by the user are kept.
        const Result<SlurmVars> t = translate({{"SLURM_STEP_ID", "0"},
                                              {"SLURM_PROCID", "0"},
                                              {"SLURM_NTASKS", "2"},
                                              {"SLURM_STEP_NODELIST", "n[1-2]"},
                                              {"SLURM_JOB_ID", "7"},
                                              {"MASTER_ADDR", "10.0.0.1"},
                                              {"MASTER_PORT", "29500"}});
        QVERIFY(t.ok());
        QVERIFY(!t.value().count("MASTER_ADDR"));
        QVERIFY(!t.value().count("MASTER_PORT"));
    }

    void malformedLayoutIsRefusedByName()
    {
        const Result<SlurmVars> node = translate({{"SLURM_STEP_ID", "0"},
                                                 {"SLURM_PROCID", "0"},
                                                 {"SLURM_NTASKS", "2"},
                                                 {"SLURM_NODEID", "4"},
                                                 {"SLURM_STEP_TASKS_PER_NODE", "1(x2)"}});
        QVERIFY(!node.ok());
        QVERIFY2(QString::fromStdString(node.error()).contains(QStringLiteral("SLURM_NODEID 4")), node.error().c_str());
        const Result<SlurmVars> spec = translate({{"SLURM_STEP_ID", "0"},
                                                 {"SLURM_PROCID", "0"},
                                                 {"SLURM_NTASKS", "2"},
                                                 {"SLURM_STEP_TASKS_PER_NODE", "2(x"}});
        QVERIFY(!spec.ok());
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(QStringLiteral("SLURM_STEP_TASKS_PER_NODE")), spec.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestSlurmEnv)
#include "tst_slurm_env.moc"
