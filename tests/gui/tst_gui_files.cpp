// Save then open gives the same plan; recent files remember it; the exports
// (FSDP2 script, charts as PNG and SVG, CSV) write real files.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "views/mesh_panel.hpp"
#include "views/number_field.hpp"
#include "window/chart_export.hpp"
#include "window/file_controller.hpp"
#include "window/recent_files.hpp"

#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QImage>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace sb;
using namespace sb::gui;

class TestFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void saveThenOpenGivesTheSamePlan();
    void exportsWriteFiles();
    void unreadableFileIsRefused();
    void newPlanFromAHuggingFaceFolder();
    void shippedWorkbenchHasNoScreenshotOptions();
};

static QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestFiles::saveThenOpenGivesTheSamePlan()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plan.json"));
    json::Value saved;
    {
        test::Workbench w;
        PlanDocument* doc = w->document();
        QVERIFY(editModel(*doc, *presetConfig("gpt2-124m"), true));
        NumberField* nodes = w->meshPanel()->nodesBox();
        nodes->setFocus();
        nodes->selectAll();
        QTest::keyClicks(nodes, QStringLiteral("4"));
        QTest::keyClick(nodes, Qt::Key_Enter);
        QCOMPARE(doc->plan().mesh.nodes, 4);
        QVERIFY(editPolicy(*doc, {doc->tree().blocks()[3]}, PolicyField::Checkpointing, true));
        QVERIFY(editPolicy(*doc, {0}, PolicyField::ParamDtype, QStringLiteral("bf16")));
        QVERIFY(doc->isModified());
        QVERIFY(w->files()->saveTo(path));
        QVERIFY(!doc->isModified());
        QCOMPARE(doc->filePath(), QFileInfo(path).absoluteFilePath());
        saved = planToJson(doc->plan());
        QCOMPARE(w->recentFiles()->files().value(0), QFileInfo(path).absoluteFilePath());
    }
    test::Workbench w;
    QVERIFY(w->files()->openFile(path));
    QCOMPARE(planToJson(w->document()->plan()), saved);
    QVERIFY(!w->document()->isModified());
    QVERIFY(w->windowTitle().contains(QStringLiteral("plan.json")));
    QCOMPARE(w->meshPanel()->nodesBox()->value().value_or(0), 4.0);
    QCOMPARE(w->document()->undoStack()->count(), 0);
}

void TestFiles::exportsWriteFiles()
{
    QTemporaryDir dir;
    test::Workbench w;
    const QString script = dir.filePath(QStringLiteral("train.py"));
    QVERIFY(w->files()->exportScriptTo(script));
    QVERIFY(readAll(script).contains("fully_shard"));
    const QString png = dir.filePath(QStringLiteral("memory.png"));
    QCOMPARE(exportChartsPng(*w->memoryView(), png), QString());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 400 && image.height() > 300);
    const QString svg = dir.filePath(QStringLiteral("memory.svg"));
    QCOMPARE(exportChartsSvg(*w->memoryView(), svg), QString());
    QVERIFY(readAll(svg).contains("<svg"));
    const QString csv = dir.filePath(QStringLiteral("memory.csv"));
    QCOMPARE(exportBreakdownCsv(*w->memoryModel(), csv), QString());
    const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
    QVERIFY(lines.value(0).startsWith("rank,peak_bytes"));
    QCOMPARE(lines.size(), w->document()->plan().mesh.worldSize() + 1);
}

void TestFiles::unreadableFileIsRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ not json");
    f.close();
    test::Workbench w;
    QSignalSpy errors(w->files(), &FileController::errorOccurred);
    const json::Value before = planToJson(w->document()->plan());
    QVERIFY(!w->files()->openFile(path));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(planToJson(w->document()->plan()), before);
}

static bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// File > New plan from a Hugging Face model folder: a Qwen3 config.json gives
// a Qwen3 plan named after the folder, its module tree shown; a MoE config
// is refused naming the field; weights that do not match the config are
// refused, and the open plan stays.
void TestFiles::newPlanFromAHuggingFaceFolder()
{
    QTemporaryDir dir;
    const QString qwen = dir.filePath(QStringLiteral("Qwen3-tiny"));
    QVERIFY(QDir().mkpath(qwen));
    QVERIFY(writeFile(qwen + QStringLiteral("/config.json"), R"({"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"],
        "vocab_size": 1000, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 32, "max_position_embeddings": 256, "rms_norm_eps": 1e-6, "rope_theta": 1000000.0,
        "tie_word_embeddings": true, "hidden_act": "silu", "attention_bias": false})"));
    test::Workbench w;
    QSignalSpy errors(w->files(), &FileController::errorOccurred);
    QVERIFY(w->files()->newPlanFromHfFolder(qwen));
    const Plan& p = w->document()->plan();
    QCOMPARE(p.model.arch, Arch::Qwen3);
    QCOMPARE(p.model.explicitHeadDim, 32);
    QCOMPARE(QString::fromStdString(p.name), QStringLiteral("Qwen3-tiny"));
    QVERIFY(w->document()->tree().findModule("layers.1.attention.q_norm") >= 0);
    QVERIFY(errors.isEmpty());

    const QString moe = dir.filePath(QStringLiteral("moe"));
    QVERIFY(QDir().mkpath(moe));
    QVERIFY(writeFile(moe + QStringLiteral("/config.json"), R"({"model_type": "qwen3", "vocab_size": 1000, "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "num_experts": 8})"));
    QVERIFY(!w->files()->newPlanFromHfFolder(moe));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0][1].toString().contains(QStringLiteral("num_experts")), qPrintable(errors[0][1].toString()));

    QVERIFY(writeFile(qwen + QStringLiteral("/model.safetensors"), QByteArray("\x08\0\0\0\0\0\0\0{}      ", 16)));
    QVERIFY(!w->files()->newPlanFromHfFolder(qwen));
    QCOMPARE(errors.size(), 2);
    QVERIFY2(errors[1][1].toString().contains(QStringLiteral("do not match its config.json")), qPrintable(errors[1][1].toString()));
    QCOMPARE(QString::fromStdString(w->document()->plan().name), QStringLiteral("Qwen3-tiny")); // unchanged
}

// The screenshot tool is tools/screenshots (shardbench-screenshots); the
// workbench a user runs refuses its options like any unknown one.
void TestFiles::shippedWorkbenchHasNoScreenshotOptions()
{
    QTemporaryDir dir;
    QProcess p;
    p.start(test::binPath(QStringLiteral("shardbench")), {QStringLiteral("--screenshot-dir"), dir.path()});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY(p.exitCode() != 0);
    QVERIFY2(p.readAllStandardError().contains("screenshot-dir"), "the unknown option is named");
    QVERIFY(QDir(dir.path()).isEmpty());
}

QTEST_MAIN(TestFiles)
#include "tst_gui_files.moc"
