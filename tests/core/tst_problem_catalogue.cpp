// The message catalogue: one row per problem code in the enum's order, names
// unique and well formed, and every problem the checks report (each bad plan
// in data/bad_plans, each module tree in data/module_tree) carries exactly as
// many arguments as its template has placeholders.
#include "test_support.hpp"

#include "plan/problem_catalogue.hpp"

#include <QtTest/QtTest>

#include <set>

using namespace sb;
using sbtest::q;

class TestProblemCatalogue : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void oneRowPerCode()
    {
        const std::vector<ProblemTemplate>& rows = problemCatalogue();
        QVERIFY(rows.size() >= 80);
        const QRegularExpression name(QStringLiteral("^(mesh|train|plan|model|tree)\\.[a-z0-9_]+$"));
        std::set<std::string> names;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(static_cast<std::size_t>(rows[i].code), i);
            QVERIFY2(name.match(QString::fromUtf8(rows[i].name)).hasMatch(), rows[i].name);
            QVERIFY2(names.insert(rows[i].name).second, rows[i].name);
            QVERIFY2(std::string(rows[i].text).size() > 5, rows[i].name);
            QCOMPARE(problemCodeNamed(rows[i].name), std::optional<ProblemCode>(rows[i].code));
        }
        QCOMPARE(problemCodeNamed("mesh.world_size"), std::optional<ProblemCode>()); // the code is mesh.world_too_large
    }

    void fillsArgumentsOnce()
    {
        QCOMPARE(placeholderCount("a %2 b %1"), 2);
        QCOMPARE(placeholderCount("no placeholder, 100%"), 0);
        QCOMPARE(fillTemplate("%1 and %2", {"%2", "x"}), std::string("%2 and x"));
        QCOMPARE(englishArg(ProblemArg::unit("")), std::string("the root"));
        QCOMPARE(englishArg(ProblemArg::unit("layers.0")), std::string("\"layers.0\""));
        QCOMPARE(englishArg(ProblemArg(1.5e20)), std::string("1.50e+20"));
        const Problem p{Severity::Error, JsonPath().key("units").index(2).key("reshard_after_forward"), ProblemCode::PlanReshardK, {3, 8}};
        QCOMPARE(q(formatProblem(p)),
                 QStringLiteral("error: $.units[2].reshard_after_forward: reshard_after_forward 3 does not divide the shard group of 8 ranks"));
    }

    void argumentsMatchPlaceholders_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString& folder : {QStringLiteral("bad_plans"), QStringLiteral("valid_plans")}) {
            const QDir dir(sbtest::dataPath(folder));
            for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
                QTest::newRow(qPrintable(folder + u'/' + f)) << dir.filePath(f);
        }
    }
    void argumentsMatchPlaceholders()
    {
        QFETCH(QString, path);
        const LoadedPlan lp = loadAndValidate(path.toStdString());
        for (const Problem& p : lp.problems) {
            const ProblemTemplate& t = problemTemplate(p.code);
            QVERIFY2(static_cast<int>(p.args.size()) == placeholderCount(t.text), qPrintable(q(formatProblem(p))));
        }
    }
};

QTEST_APPLESS_MAIN(TestProblemCatalogue)
#include "tst_problem_catalogue.moc"
