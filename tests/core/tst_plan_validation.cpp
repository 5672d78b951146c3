// Plan validation: every bad plan in data/bad_plans yields exactly the errors
// its table lists (path, code, message), all at once; the plans in
// data/valid_plans and examples/ validate with exactly their listed warnings.
#include "test_support.hpp"

#include <QtTest/QtTest>

#include <map>
#include <set>

using namespace sb;
using sbtest::q;

namespace {

struct Expected {
    QString path;
    QString code;
    QString message;
};

std::map<QString, QList<Expected>> expectations(const QString& folder)
{
    std::map<QString, QList<Expected>> byFile;
    for (const QStringList& r : sbtest::readTable(sbtest::dataPath(folder + QStringLiteral("/expected.tsv"))))
        byFile[r[0]].push_back({r.value(1), r.value(2), r.value(3)});
    return byFile;
}

QStringList jsonFiles(const QString& folder)
{
    return QDir(folder).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

// Compares problems of one severity with the expected rows, one to one.
void checkProblems(const Problems& got, Severity severity, const QList<Expected>& expected)
{
    QList<Problem> actual;
    for (const Problem& p : got)
        if (p.severity == severity) actual.push_back(p);
    const QString all = sbtest::problemsText(got);
    QVERIFY2(actual.size() == expected.size(),
             qPrintable(QStringLiteral("expected %1, got %2:\n").arg(expected.size()).arg(actual.size()) + all));
    std::set<int> used;
    for (const Expected& e : expected) {
        int match = -1;
        for (int i = 0; i < actual.size() && match < 0; ++i)
            if (!used.count(i) && q(actual[i].path.str()) == e.path && (e.code.isEmpty() || q(actual[i].codeName()) == e.code) &&
                q(actual[i].message()).contains(e.message))
                match = i;
        QVERIFY2(match >= 0, qPrintable(QStringLiteral("no problem at %1 [%2] containing \"%3\" in:\n").arg(e.path, e.code, e.message) + all));
        used.insert(match);
    }
}

} // namespace

class TestPlanValidation : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void badPlans_data()
    {
        QTest::addColumn<QString>("file");
        const auto table = expectations(QStringLiteral("bad_plans"));
        const QStringList files = jsonFiles(sbtest::dataPath(QStringLiteral("bad_plans")));
        QVERIFY(files.size() >= 30);
        for (const QString& f : files) {
            QVERIFY2(table.count(f), qPrintable(f + QStringLiteral(" has no row in bad_plans/expected.tsv")));
            QTest::newRow(qPrintable(f)) << f;
        }
        for (const auto& [f, rows] : table) QVERIFY2(files.contains(f), qPrintable(f + QStringLiteral(" is listed but missing")));
    }
    void badPlans()
    {
        QFETCH(QString, file);
        const QString path = sbtest::dataPath(QStringLiteral("bad_plans/") + file);
        const QList<Expected> expected = expectations(QStringLiteral("bad_plans")).at(file);

        const LoadedPlan fromText = validateLoaded(planFromString(sbtest::readText(path)));
        QVERIFY(!fromText.ok());
        checkProblems(fromText.problems, Severity::Error, expected);

        // The file route (CLI, core) reports the same problems in the same order.
        const LoadedPlan fromFile = loadAndValidate(path.toStdString());
        QCOMPARE(fromFile.problems.size(), fromText.problems.size());
        for (std::size_t i = 0; i < fromFile.problems.size(); ++i) {
            QCOMPARE(q(fromFile.problems[i].path.str()), q(fromText.problems[i].path.str()));
            QCOMPARE(q(fromFile.problems[i].message()), q(fromText.problems[i].message()));
        }
        for (const Problem& p : fromText.problems) {
            QVERIFY(p.path.str() == "$" || p.path.str().rfind("$.", 0) == 0);
            QCOMPARE(q(formatProblem(p)), q((p.severity == Severity::Error ? "error: " : "warning: ") + p.path.str() + ": " + p.message()));
        }
        // A bad plan still yields a plan and a tree to show (never null).
        QVERIFY(fromText.tree);
        QVERIFY(fromText.plan.findUnit(""));
    }

    void validPlans_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("key");
        for (const QString& f : jsonFiles(sbtest::dataPath(QStringLiteral("valid_plans"))))
            QTest::newRow(qPrintable(f)) << sbtest::dataPath(QStringLiteral("valid_plans/") + f) << f;
        // Every example plan shipped with the project validates cleanly.
        const QString examples = sbtest::sourceDir() + QStringLiteral("/examples");
        for (const QString& f : jsonFiles(examples)) {
            const QByteArray head = sbtest::readBytes(examples + QLatin1Char('/') + f).left(200);
            if (head.contains("\"shardbench-plan\""))
                QTest::newRow(qPrintable(QStringLiteral("examples/") + f)) << examples + QLatin1Char('/') + f << QString();
        }
    }
    void validPlans()
    {
        QFETCH(QString, path);
        QFETCH(QString, key);
        const LoadedPlan lp = loadAndValidate(path.toStdString());
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        const auto table = expectations(QStringLiteral("valid_plans"));
        const auto it = table.find(key);
        checkProblems(lp.problems, Severity::Warning, it == table.end() ? QList<Expected>{} : it->second);
        // A valid plan can be estimated.
        const Estimate e = estimateMemory(lp.plan, *lp.tree);
        QCOMPARE(static_cast<int>(e.ranks.size()), lp.plan.mesh.worldSize());
        QVERIFY(e.peakBytes() > 0);
    }

    void missingFile()
    {
        const LoadedPlan lp = loadAndValidate("/nonexistent/plan.json");
        QVERIFY(!lp.ok());
        QCOMPARE(q(lp.problems.front().path.str()), QStringLiteral("$"));
        QVERIFY(q(lp.problems.front().message()).contains(QStringLiteral("cannot read /nonexistent/plan.json")));
    }

    void tieChainsReachTheOwner()
    {
        // a.weight -> b.weight -> c.weight: one storage, owned by c.weight, whatever the order of the ties.
        const json::ParseResult tree = json::parse(R"({"format": "shardbench-module-tree", "version": 1, "modules": [
            {"name": "", "type": "Net", "params": []},
            {"name": "a", "type": "Linear", "params": [{"name": "weight", "shape": [8, 4], "tied_to": "b.weight"}]},
            {"name": "b", "type": "Linear", "params": [{"name": "weight", "shape": [8, 4], "tied_to": "c.weight"}]},
            {"name": "c", "type": "Linear", "params": [{"name": "weight", "shape": [8, 4]}, {"name": "bias", "shape": [8]}]}]})");
        QVERIFY(tree);
        ModuleTree t;
        Problems ps;
        QVERIFY(moduleTreeFromJson(*tree.value, JsonPath(), t, ps));
        QCOMPARE(t.param(t.findParam("a.weight")).tiedTo, t.findParam("c.weight"));
        QCOMPARE(t.param(t.findParam("b.weight")).tiedTo, t.findParam("c.weight"));
        QCOMPARE(static_cast<int>(t.totalParams()), 40);
        ModelConfig m;
        m.preset = "imported";
        m.arch = Arch::Imported;
        m.importedTree = *tree.value;
        Plan p = defaultPlan(m);
        UnitPolicy c;
        c.module = "c";
        p.units.push_back(c);
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        int split = 0;
        for (const Problem& pr : lp.problems) split += pr.code == ProblemCode::PlanTiedSplit;
        QVERIFY2(split == 1, qPrintable(sbtest::problemsText(lp.problems))); // a and b (the root) against c
    }

    void errorsInEveryPartAtOnce()
    {
        // Mesh, model, units and training all wrong in one plan: nothing masks anything else.
        Plan p = defaultPlan(*presetConfig("transformer"));
        p.mesh.replicate = 3;                    // 2 ranks
        p.units[1].module = "layers.77";
        p.units[2].reshard = {Reshard::Group, 0};
        p.training.optimizer.schedule = "step";
        p.training.gradClip = -2;
        p.units[3].mp.paramDtype = DType::F16;   // on cpu
        const LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        int errors = 0;
        for (const Problem& pr : lp.problems) errors += pr.severity == Severity::Error;
        QCOMPARE(errors, 5); // the k check waits for a valid mesh: its shard group is unknown
        p.mesh.replicate = 1;
        const LoadedPlan lp2 = validateLoaded(PlanReadResult{p, {}});
        errors = 0;
        for (const Problem& pr : lp2.problems) errors += pr.severity == Severity::Error;
        QVERIFY2(errors == 5, qPrintable(sbtest::problemsText(lp2.problems))); // mesh fixed, k = 0 now reported
    }
};

QTEST_APPLESS_MAIN(TestPlanValidation)
#include "tst_plan_validation.moc"
