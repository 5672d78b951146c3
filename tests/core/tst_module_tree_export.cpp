// scripts/export_module_tree.py against a stand-in `torch` package
// (data/module_tree/fake_torch, copied into a temporary folder with the test
// models of data/module_tree/tinymodels.py): module order, tied parameters by
// identity, skipped None parameters, shared modules, dtypes, --kwargs, --meta,
// errors, the importable function, and the output read by moduleTreeFromJson.
#include "test_support.hpp"

#include <QtCore/QProcess>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace sb;
using sbtest::q;

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

QString python() { return QStandardPaths::findExecutable(QStringLiteral("python3")); }
QString exporter() { return sbtest::sourceDir() + QStringLiteral("/scripts/export_module_tree.py"); }

json::Value parseOrNull(const QByteArray& bytes)
{
    const json::ParseResult r = json::parse(bytes.toStdString());
    return r ? *r.value : json::Value();
}

const json::Value* moduleNamed(const json::Value& tree, const std::string& name)
{
    for (const json::Value& m : tree.find("modules")->asArray())
        if (m.find("name")->asString() == name) return &m;
    return nullptr;
}

} // namespace

class TestModuleTreeExport : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    Run run(const QStringList& args)
    {
        QProcess p;
        p.setWorkingDirectory(tmp_.path());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), tmp_.path()); // the stand-in torch, never a real one
        env.insert(QStringLiteral("PYTHONDONTWRITEBYTECODE"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(python(), args);
        Run r;
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) return r;
        r.exitCode = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    Run exportTree(const QStringList& extra) { return run(QStringList{exporter()} + extra); }

private Q_SLOTS:
    void initTestCase()
    {
        if (python().isEmpty()) QSKIP("python3 is not installed");
        QVERIFY(tmp_.isValid());
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("torch")));
        const QString data = sbtest::dataPath(QStringLiteral("module_tree/"));
        for (const QString& f : {QStringLiteral("fake_torch/torch/__init__.py"), QStringLiteral("fake_torch/torch/nn.py"), QStringLiteral("tinymodels.py")})
            QVERIFY(QFile::copy(data + f, tmp_.filePath(f.startsWith(QStringLiteral("fake_torch/")) ? f.mid(11) : f)));
    }

    void compiles()
    {
        const Run r = run({QStringLiteral("-c"), QStringLiteral("import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)"),
                           exporter(), tmp_.filePath(QStringLiteral("exporter.pyc"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void smallModelMatchesTheExample()
    {
        const Run r = exportTree({QStringLiteral("tinymodels:SmallLM"), QStringLiteral("-o"), QStringLiteral("small.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("wrote small.json (30 modules, 29 parameters)")));
        const json::Value tree = parseOrNull(sbtest::readBytes(tmp_.filePath(QStringLiteral("small.json"))));
        QVERIFY(tree.isObject());
        QCOMPARE(q(tree.find("format")->asString()), QStringLiteral("shardbench-module-tree"));
        QCOMPARE(static_cast<int>(tree.find("version")->asInt()), 1);
        QCOMPARE(q(tree.find("model_class")->asString()), QStringLiteral("tinymodels.SmallLM"));
        // examples/module_tree_small.json is this export (kept in sync by this test).
        const json::Value example = parseOrNull(sbtest::readBytes(sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json")));
        QVERIFY(example.isObject());
        QVERIFY2(tree.find("modules")->dump() == example.find("modules")->dump(), "examples/module_tree_small.json differs from the export");

        // named_modules() pre-order, root first.
        const json::Array& mods = tree.find("modules")->asArray();
        QCOMPARE(static_cast<int>(mods.size()), 30);
        QStringList names;
        for (const json::Value& m : mods) names << q(m.find("name")->asString());
        QCOMPARE(names.mid(0, 8), (QStringList{QString(), QStringLiteral("tok_embeddings"), QStringLiteral("pos_embeddings"), QStringLiteral("layers"),
                                               QStringLiteral("layers.0"), QStringLiteral("layers.0.attention_norm"), QStringLiteral("layers.0.attention"),
                                               QStringLiteral("layers.0.attention.wq")}));
        QCOMPARE(names.last(), QStringLiteral("output"));
        QCOMPARE(q(moduleNamed(tree, "layers.1.feed_forward.dropout")->find("type")->asString()), QStringLiteral("Dropout"));
        // Linear(bias=False) registers bias = None: not listed.
        QCOMPARE(static_cast<int>(moduleNamed(tree, "layers.0.attention.wq")->find("params")->size()), 1);
        // The output projection shares the embedding's weight: the first occurrence owns it.
        const json::Value& head = moduleNamed(tree, "output")->find("params")->asArray()[0];
        QCOMPARE(q(head.find("tied_to")->asString()), QStringLiteral("tok_embeddings.weight"));
        QVERIFY(!moduleNamed(tree, "tok_embeddings")->find("params")->asArray()[0].contains("tied_to"));
        QCOMPARE(head.find("shape")->dump(), std::string("[512,64]"));
        QCOMPARE(q(head.find("dtype")->asString()), QStringLiteral("torch.float32"));

        // shardbench reads it: the tie is counted once.
        ModuleTree t;
        Problems ps;
        QVERIFY2(moduleTreeFromJson(tree, JsonPath(), t, ps), qPrintable(sbtest::problemsText(ps)));
        const std::int64_t V = 512, D = 64, H = 256, P = 128, L = 2;
        QCOMPARE(static_cast<qint64>(t.totalParams()), static_cast<qint64>(V * D + P * D + L * (4 * D + 4 * D * D + D * H + H + H * D + D) + 2 * D));
        QCOMPARE(t.param(t.findParam("output.weight")).tiedTo, t.findParam("tok_embeddings.weight"));
        QCOMPARE(static_cast<int>(t.blocks().size()), 2);
    }

    void identityNotNamesDecidesTies()
    {
        const Run r = exportTree({QStringLiteral("tinymodels:HeadFirst")}); // to stdout
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const json::Value tree = parseOrNull(r.out);
        QVERIFY(tree.isObject());
        QStringList names;
        for (const json::Value& m : tree.find("modules")->asArray()) names << q(m.find("name")->asString());
        // A module reachable three times is listed once, where named_modules() first meets it.
        QCOMPARE(names, (QStringList{QString(), QStringLiteral("head"), QStringLiteral("body"), QStringLiteral("body.0"), QStringLiteral("body.1"),
                                     QStringLiteral("embed")}));
        const json::Array& headParams = moduleNamed(tree, "head")->find("params")->asArray();
        QCOMPARE(static_cast<int>(headParams.size()), 2);
        QCOMPARE(q(headParams[1].find("name")->asString()), QStringLiteral("weight_alias"));
        QCOMPARE(q(headParams[1].find("tied_to")->asString()), QStringLiteral("head.weight"));
        const json::Value& embed = moduleNamed(tree, "embed")->find("params")->asArray()[0];
        QCOMPARE(q(embed.find("tied_to")->asString()), QStringLiteral("head.weight"));
        QCOMPARE(q(embed.find("dtype")->asString()), QStringLiteral("torch.bfloat16"));
        const json::Value& scale = moduleNamed(tree, "")->find("params")->asArray()[0];
        QCOMPARE(scale.find("shape")->dump(), std::string("[]"));

        // Plannable once the scalar is left out of sharding, refused otherwise.
        ModelConfig m;
        m.preset = "imported";
        m.arch = Arch::Imported;
        m.importedTree = tree;
        Plan p = defaultPlan(m);
        LoadedPlan lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY(!lp.ok());
        QVERIFY(sbtest::problemsText(lp.problems).contains(QStringLiteral("parameter \"scale\" is a scalar")));
        p.units[0].ignoredParams = {"scale"};
        lp = validateLoaded(PlanReadResult{p, {}});
        QVERIFY2(lp.ok(), qPrintable(sbtest::problemsText(lp.problems)));
        QCOMPARE(static_cast<qint64>(lp.tree->totalParams()), Q_INT64_C(16 * 8 + 2 * (8 * 8 + 8) + 1));
    }

    void kwargsAndMeta()
    {
        Run r = exportTree({QStringLiteral("tinymodels:small_lm"), QStringLiteral("--kwargs"), QStringLiteral("{\"n_layers\": 3, \"dim\": 32}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        json::Value tree = parseOrNull(r.out);
        QCOMPARE(static_cast<int>(tree.find("modules")->size()), 6 + 12 * 3);
        QCOMPARE(moduleNamed(tree, "tok_embeddings")->find("params")->asArray()[0].find("shape")->dump(), std::string("[512,32]"));

        r = exportTree({QStringLiteral("tinymodels:SmallLM"), QStringLiteral("--args"), QStringLiteral("[1000, 16]")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        tree = parseOrNull(r.out);
        QCOMPARE(moduleNamed(tree, "tok_embeddings")->find("params")->asArray()[0].find("shape")->dump(), std::string("[1000,16]"));

        // meta_only refuses to build anywhere but on the meta device.
        r = exportTree({QStringLiteral("tinymodels:meta_only")});
        QVERIFY(r.exitCode != 0);
        QVERIFY(r.err.contains(QStringLiteral("expected parameters on the meta device")));
        r = exportTree({QStringLiteral("tinymodels:meta_only"), QStringLiteral("--meta"), QStringLiteral("-o"), QStringLiteral("meta.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(static_cast<int>(parseOrNull(sbtest::readBytes(tmp_.filePath(QStringLiteral("meta.json")))).find("modules")->size()), 30);
    }

    void importable()
    {
        const QString code = QStringLiteral(
            "import json, sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "from export_module_tree import export_module_tree\n"
            "import tinymodels\n"
            "tree = export_module_tree(tinymodels.SmallLM())\n"
            "assert isinstance(tree, dict)\n"
            "print(json.dumps(tree))\n");
        const Run r = run({QStringLiteral("-c"), code, sbtest::sourceDir() + QStringLiteral("/scripts")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const json::Value tree = parseOrNull(r.out);
        const json::Value example = parseOrNull(sbtest::readBytes(sbtest::sourceDir() + QStringLiteral("/examples/module_tree_small.json")));
        QVERIFY(tree == example);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("no colon") << QStringList{QStringLiteral("tinymodels")} << QStringLiteral("expected MODULE:FACTORY");
        QTest::newRow("no module") << QStringList{QStringLiteral("nosuchmodule:Net")} << QStringLiteral("cannot import nosuchmodule");
        QTest::newRow("no attribute") << QStringList{QStringLiteral("tinymodels:Nope.build")} << QStringLiteral("has no attribute 'Nope.build'");
        QTest::newRow("not a module") << QStringList{QStringLiteral("tinymodels:not_a_model")} << QStringLiteral("did not return a torch.nn.Module");
        QTest::newRow("bad kwargs") << QStringList{QStringLiteral("tinymodels:SmallLM"), QStringLiteral("--kwargs"), QStringLiteral("{dim: 3}")}
                                    << QStringLiteral("--kwargs is not valid JSON");
        QTest::newRow("kwargs not object") << QStringList{QStringLiteral("tinymodels:SmallLM"), QStringLiteral("--kwargs"), QStringLiteral("[3]")}
                                           << QStringLiteral("--kwargs must be a JSON object");
        QTest::newRow("args not array") << QStringList{QStringLiteral("tinymodels:SmallLM"), QStringLiteral("--args"), QStringLiteral("3")}
                                        << QStringLiteral("--args must be a JSON array");
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const Run r = exportTree(args);
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestModuleTreeExport)
#include "tst_module_tree_export.moc"
