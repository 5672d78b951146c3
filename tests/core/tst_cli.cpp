// shardbench-cli end to end: the built binary run as a process (SB_BIN_DIR):
// plan, validate, estimate (--json, --csv, --timeline, --max-batch),
// export-script, presets; bad input exits 2 with the message on stderr.
#include "test_support.hpp"

#include "estimate/estimate_report.hpp"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace sb;
using sbtest::q;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

QString cli() { return sbtest::binDir() + QStringLiteral("/shardbench-cli"); }

Run run(const QStringList& args, const QString& workDir = {})
{
    QProcess p;
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(cli(), args);
    Run r;
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) {
        r.err = QStringLiteral("process did not finish normally: ") + p.errorString();
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString describe(const Run& r)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    QString path(const QString& name) const { return tmp_.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        QVERIFY2(QFileInfo(cli()).isExecutable(), qPrintable(cli() + QStringLiteral(" is not built")));
    }

    void planValidateEstimate()
    {
        const QString plan = path(QStringLiteral("gpt2.json"));
        Run r = run({QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("gpt2-124m"), QStringLiteral("--procs-per-node"),
                     QStringLiteral("7"), QStringLiteral("--param-dtype"), QStringLiteral("bf16"), QStringLiteral("--reduce-dtype"),
                     QStringLiteral("fp32"), QStringLiteral("-o"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(QStringLiteral("wrote ")));
        QVERIFY(QFile::exists(plan));

        r = run({QStringLiteral("validate"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(QStringLiteral(": valid (gpt2-124m, 124,439,808 parameters, 13 units, world 7)")));

        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const json::ParseResult parsed = json::parse(r.out.toStdString());
        QVERIFY2(parsed, parsed.error.toString().c_str());
        const json::Value& j = *parsed.value;
        QCOMPARE(static_cast<qint64>(j.find("params_total")->asInt()), Q_INT64_C(124439808));
        QCOMPARE(static_cast<int>(j.find("world_size")->asInt()), 7);
        const json::Array& ranks = j.find("ranks")->asArray();
        QCOMPARE(static_cast<int>(ranks.size()), 7);
        std::int64_t worst = 0;
        for (const json::Value& rank : ranks) {
            const json::Value* peak = rank.find("peak_bytes");
            QVERIFY(peak && peak->isInteger() && peak->asInt() > 0);
            std::int64_t sum = 0;
            for (int c = 0; c < kMemCategories; ++c) {
                const json::Value* v = rank.find("categories")->find(memCategoryName(static_cast<MemCategory>(c)));
                QVERIFY2(v && v->isInteger(), memCategoryName(static_cast<MemCategory>(c)));
                sum += v->asInt();
            }
            QCOMPARE(static_cast<qint64>(sum), static_cast<qint64>(peak->asInt()));
            worst = std::max(worst, peak->asInt());
        }
        QCOMPARE(static_cast<qint64>(j.find("peak_bytes")->asInt()), static_cast<qint64>(worst));
        // The process and the library agree to the byte.
        const LoadedPlan lp = loadAndValidate(plan.toStdString());
        QVERIFY(lp.ok());
        QVERIFY(estimateJson(lp.plan, estimateMemory(lp.plan, *lp.tree), false) == j);

        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--json"), QStringLiteral("--timeline"), QStringLiteral("--max-batch")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const json::ParseResult full = json::parse(r.out.toStdString());
        QVERIFY(full);
        QVERIFY(full.value->find("timeline")->size() > 0);
        QVERIFY(full.value->find("largest_micro_batch")->asInt() >= 1);

        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--csv")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QStringList rows = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 8);
        QVERIFY(rows[0].startsWith(QStringLiteral("rank,peak_bytes,sharded_params,")));

        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--timeline")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(QStringLiteral("Peak ")));
        QVERIFY(r.out.contains(QStringLiteral("pre-forward transformer.h.0")));
        QVERIFY(r.out.contains(QStringLiteral("fits")));
    }

    void importedTree()
    {
        const QString plan = path(QStringLiteral("imported.json"));
        const QString tree = sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json");
        Run r = run({QStringLiteral("plan"), QStringLiteral("--import"), tree, QStringLiteral("--procs-per-node"), QStringLiteral("2"),
                     QStringLiteral("--ac"), QStringLiteral("full"), QStringLiteral("-o"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        r = run({QStringLiteral("validate"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(r.out.contains(QStringLiteral("(imported, 140,544 parameters, 3 units, world 2)")));
        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    }

    void exportScriptAndPresets()
    {
        const QString plan = path(QStringLiteral("llama.json"));
        Run r = run({QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("llama3-8b"), QStringLiteral("-o"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const QString script = path(QStringLiteral("train.py"));
        r = run({QStringLiteral("export-script"), plan, QStringLiteral("-o"), script});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(sbtest::readBytes(script).contains("fully_shard("));

        r = run({QStringLiteral("presets")});
        QCOMPARE(r.exitCode, 0);
        for (const QStringList& row : sbtest::readTable(sbtest::dataPath(QStringLiteral("presets/param_counts.tsv"))))
            QVERIFY2(r.out.contains(row[0] + QLatin1Char('\t') + q(formatCount(row[1].toLongLong())) + QLatin1Char('\t')), qPrintable(row[0]));
    }

    // Every bad plan of the validation table: exit 2, each error on stderr, nothing on stdout.
    void badPlans_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("messages");
        std::map<QString, QStringList> byFile;
        for (const QStringList& r : sbtest::readTable(sbtest::dataPath(QStringLiteral("bad_plans/expected.tsv"))))
            byFile[r[0]].push_back(QStringLiteral("error: ") + r[1] + QStringLiteral(": "));
        for (const auto& [file, messages] : byFile) QTest::newRow(qPrintable(file)) << file << messages;
    }
    void badPlans()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, messages);
        const QString plan = sbtest::dataPath(QStringLiteral("bad_plans/") + file);
        for (const QString& cmd : {QStringLiteral("validate"), QStringLiteral("estimate")}) {
            const Run r = run({cmd, plan});
            QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
            QVERIFY2(r.out.isEmpty(), qPrintable(describe(r)));
            for (const QString& m : messages) QVERIFY2(r.err.contains(plan + QStringLiteral(": ") + m), qPrintable(m + QLatin1Char('\n') + describe(r)));
        }
        const Run e = run({QStringLiteral("export-script"), plan, QStringLiteral("-o"), path(QStringLiteral("never.py"))});
        QCOMPARE(e.exitCode, 2);
        QVERIFY(!QFile::exists(path(QStringLiteral("never.py"))));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString out = QStringLiteral("-o");
        QTest::newRow("no command") << QStringList{} << QStringLiteral("usage: shardbench-cli COMMAND");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("unknown command \"frobnicate\"");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("estimate"), QStringLiteral("x.json"), QStringLiteral("--frob")}
                                        << QStringLiteral("unknown option --frob");
        QTest::newRow("no plan file") << QStringList{QStringLiteral("validate")} << QStringLiteral("expected one plan file");
        QTest::newRow("missing file") << QStringList{QStringLiteral("estimate"), QStringLiteral("/nonexistent/p.json")}
                                      << QStringLiteral("/nonexistent/p.json: error: $: cannot read /nonexistent/p.json");
        QTest::newRow("missing -o") << QStringList{QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("gpt2-124m")}
                                    << QStringLiteral("missing -o PLAN.json");
        QTest::newRow("unknown preset") << QStringList{QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("gpt5"), out, QStringLiteral("x.json")}
                                        << QStringLiteral("unknown preset \"gpt5\"");
        QTest::newRow("bad device") << QStringList{QStringLiteral("plan"), QStringLiteral("--device"), QStringLiteral("tpu"), out, QStringLiteral("x.json")}
                                    << QStringLiteral("--device must be cpu or cuda");
        QTest::newRow("bad integer") << QStringList{QStringLiteral("plan"), QStringLiteral("--layers"), QStringLiteral("many"), out, QStringLiteral("x.json")}
                                     << QStringLiteral("--layers must be an integer");
        QTest::newRow("plan with errors") << QStringList{QStringLiteral("plan"), QStringLiteral("--procs-per-node"), QStringLiteral("8"),
                                                         QStringLiteral("--replicate"), QStringLiteral("3"), out, QStringLiteral("x.json")}
                                          << QStringLiteral("replicate degree 3 does not divide world size 8");
        QTest::newRow("bad tree") << QStringList{QStringLiteral("plan"), QStringLiteral("--import"),
                                                 sbtest::dataPath(QStringLiteral("bad_plans/malformed_json.json")), out, QStringLiteral("x.json")}
                                  << QStringLiteral("invalid JSON at line 6, column 3");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = run(args, tmp_.path());
        QVERIFY2(r.exitCode == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(message), qPrintable(describe(r)));
        QVERIFY(!QFile::exists(path(QStringLiteral("x.json"))));
    }

    void doesNotFit()
    {
        const QString plan = path(QStringLiteral("big.json"));
        Run r = run({QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("llama3-70b"), QStringLiteral("--procs-per-node"),
                     QStringLiteral("2"), QStringLiteral("-o"), plan});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        r = run({QStringLiteral("estimate"), plan});
        QVERIFY(r.out.contains(QStringLiteral("DOES NOT FIT")));
        r = run({QStringLiteral("estimate"), plan, QStringLiteral("--json")});
        const json::ParseResult j = json::parse(r.out.toStdString());
        QVERIFY(j);
        QVERIFY(!j.value->find("fits")->asBool());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
