// Issue 14 §4: every training setting has a field; a plan file's invalid
// values stay visible (marked, with a banner) and are saved back until fixed;
// typed nonsense is refused visibly, never rewritten; a plan that does not
// fit is an error in the Problems panel; empty tables say what to do.
// (The wheel over the fields: tst_gui_wheel.cpp.)
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "document/plan_edits.hpp"
#include "models/memory_model.hpp"
#include "models/problems_model.hpp"
#include "views/checkpoints_view.hpp"
#include "views/file_banner.hpp"
#include "views/launch_panel.hpp"
#include "views/memory_view.hpp"
#include "views/mesh_panel.hpp"
#include "views/model_panel.hpp"
#include "views/number_field.hpp"
#include "views/problems_panel.hpp"
#include "views/runs_view.hpp"
#include "views/training_panel.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"

#include "plan/plan_json.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>

using namespace sb;
using namespace sb::gui;

class TestFields : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void invalidValuesOfAFileStayVisibleAndAreSavedBack();
    void manyInvalidValuesOpenQuickly();
    void typedNonsenseIsRefusedNotRewritten();
    void everyTrainingSettingHasAField();
    void theLlamaFormsFieldsEditTheModel();
    void theDataFileIsChecked();
    void aStalledDataFileDoesNotFreezeTheWindow();
    void aPlanThatDoesNotFitIsAProblem();
    void emptyTablesSayWhatToDo();
};

namespace {

void type(QWidget* field, const QString& text)
{
    field->setFocus();
    if (auto* edit = qobject_cast<QLineEdit*>(field)) edit->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The workbench's plan saved in dir and reading uint16 tokens from a file.
bool readsTokens(test::Workbench& w, const QTemporaryDir& dir)
{
    if (!w->files()->saveTo(dir.filePath(QStringLiteral("plan.json")))) return false;
    w->trainingPanel()->dataKindBox()->setCurrentIndex(1); // tokens
    Q_EMIT w->trainingPanel()->dataKindBox()->activated(1);
    return w->document()->plan().training.data.kind == DataConfig::Tokens;
}

bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// stat() as on a mount whose server does not answer: for a path ending in
// stalled.bin it waits until release() (at most `limit`; a test that fails
// before releasing destroys the promise, which ends the wait too).
// stalling() says whether such a stat has begun: the question is in flight,
// not still queued behind another (where a newer one would replace it).
class Stall {
public:
    explicit Stall(std::chrono::seconds limit) : released_(release_.get_future().share()), limit_(limit) {}
    sb::gui::FileProbe::Stat stat() const
    {
        return [released = released_, limit = limit_, begun = begun_](const QString& path) {
            if (path.endsWith(QStringLiteral("stalled.bin"))) {
                begun->store(true);
                released.wait_for(limit);
            }
            return sb::gui::FileProbe::statFile(path);
        };
    }
    bool stalling() const { return begun_->load(); }
    void release() { release_.set_value(); }

private:
    std::promise<void> release_;
    std::shared_future<void> released_;
    std::chrono::seconds limit_;
    std::shared_ptr<std::atomic<bool>> begun_ = std::make_shared<std::atomic<bool>>(false);
};

int errorsWithCode(const ProblemsModel& model, ProblemCode code)
{
    int n = 0;
    for (int r = 0; r < model.rowCount(); ++r) n += model.problem(r).code == code;
    return n;
}

} // namespace

void TestFields::invalidValuesOfAFileStayVisibleAndAreSavedBack()
{
    QTemporaryDir dir;
    json::Value plan = planToJson(defaultPlan(ModelConfig{}));
    json::Value model = *plan.find("model");
    model.set("n_layers", "eight");
    plan.set("model", model);
    json::Value mesh = *plan.find("mesh");
    mesh.set("procs_per_node", -3);
    plan.set("mesh", mesh);
    json::Value units = *plan.find("units");
    QVERIFY(units.size() >= 2);
    const std::string unit = units.asArray()[1].find("module")->asString();
    units.mutableArray()[1].set("reshard_after_forward", "sometimes");
    plan.set("units", units);
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QVERIFY(writeAll(path, QByteArray::fromStdString(plan.dump(2))));

    test::Workbench w;
    PlanDocument* doc = w->document();
    QVERIFY(w->files()->openFile(path));
    QCOMPARE(doc->keptValues().size(), std::size_t(3));
    FileBanner* banner = w->fileBanner();
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().contains(QStringLiteral("3 problems")), qPrintable(banner->text()));
    NumberField* layers = w->modelPanel()->sizeBox(ModelPanel::Layers);
    NumberField* procs = w->meshPanel()->procsBox();
    QCOMPARE(layers->text(), QStringLiteral("\"eight\""));
    QVERIFY(layers->isInvalid());
    QCOMPARE(procs->text(), QStringLiteral("-3"));
    QVERIFY(procs->isInvalid());
    QVERIFY(procs->toolTip().contains(QStringLiteral("procs_per_node")));
    ProblemsModel* problems = w->problemsPanel()->problemsModel();
    QCOMPARE(errorsWithCode(*problems, ProblemCode::PlanInteger), 2);
    QCOMPARE(errorsWithCode(*problems, ProblemCode::PlanReshard), 1);

    // A valid value typed elsewhere replaces nothing: the three stay, marked.
    type(w->trainingPanel()->stepsBox(), QStringLiteral("30"));
    QCOMPARE(doc->plan().training.steps, 30);
    QCOMPARE(doc->keptValues().size(), std::size_t(3));
    QCOMPARE(layers->text(), QStringLiteral("\"eight\""));
    QVERIFY(procs->isInvalid());
    QCOMPARE(errorsWithCode(*problems, ProblemCode::PlanInteger), 2);

    // Saving keeps the person's data as written, with the edit.
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QVERIFY(w->files()->saveTo(saved));
    const json::ParseResult back = json::parse(readAll(saved).toStdString());
    QVERIFY(back);
    QCOMPARE(QString::fromStdString(back.value->find("model")->find("n_layers")->dump()), QStringLiteral("\"eight\""));
    QCOMPARE(back.value->find("mesh")->find("procs_per_node")->asInt(), -3);
    QCOMPARE(QString::fromStdString(back.value->find("units")->asArray()[1].find("reshard_after_forward")->dump()),
             QStringLiteral("\"sometimes\""));
    QCOMPARE(QString::fromStdString(back.value->find("units")->asArray()[1].find("module")->asString()),
             QString::fromStdString(unit));
    QCOMPARE(back.value->find("training")->find("steps")->asInt(), 30);

    // Setting the field, even to the value the plan held in its place, fixes it.
    const QString held = QString::number(doc->plan().model.nLayers);
    type(layers, held);
    QCOMPARE(doc->keptValues().size(), std::size_t(2));
    QVERIFY(!layers->isInvalid());
    QCOMPARE(errorsWithCode(*problems, ProblemCode::PlanInteger), 1);
    QVERIFY(banner->text().contains(QStringLiteral("2 problems")));
    type(procs, QStringLiteral("2"));
    QCOMPARE(doc->plan().mesh.procsPerNode, 2);
    QCOMPARE(doc->keptValues().size(), std::size_t(1));
    // Undo brings the file's value back, marked.
    doc->undoStack()->undo();
    QCOMPARE(doc->keptValues().size(), std::size_t(2));
    QCOMPARE(procs->text(), QStringLiteral("-3"));
    QVERIFY(procs->isInvalid());
}

// 20,000 units with a bad policy (40,000 problems): each kept value is found
// by its unit in O(1) and each problem's path in a set. Open, edit and save
// take about 1 s here; with a scan of the units or problems per lookup, 18 s.
void TestFields::manyInvalidValuesOpenQuickly()
{
    QTemporaryDir dir;
    json::Value plan = planToJson(defaultPlan(ModelConfig{}));
    json::Value units = json::Value::array();
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        json::Value u = json::Value::object();
        u.set("module", "no.such.module." + std::to_string(i));
        u.set("reshard_after_forward", "sometimes");
        units.push(u);
    }
    plan.set("units", units);
    const QString path = dir.filePath(QStringLiteral("many.json"));
    QVERIFY(writeAll(path, QByteArray::fromStdString(plan.dump())));
    test::Workbench w;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(w->files()->openFile(path));
    type(w->trainingPanel()->stepsBox(), QStringLiteral("31"));
    QVERIFY(w->files()->saveTo(dir.filePath(QStringLiteral("saved.json"))));
    const qint64 ms = clock.elapsed();
    QCOMPARE(w->document()->keptValues().size(), std::size_t(n));
    QVERIFY(w->fileBanner()->text().contains(QStringLiteral("20,000 problems")));
    QVERIFY2(ms < 30000, qPrintable(QStringLiteral("%1 ms").arg(ms)));
    qInfo("open, edit and save with %d kept values: %lld ms", n, ms);
}

void TestFields::typedNonsenseIsRefusedNotRewritten()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    const Plan before = doc->plan();
    TrainingPanel* training = w->trainingPanel();

    NumberField* batch = training->microBatchBox();
    type(batch, QStringLiteral("1e9"));
    QCOMPARE(batch->text(), QStringLiteral("1e9"));
    QVERIFY(batch->isInvalid());
    QVERIFY2(batch->reason().contains(QStringLiteral("largest")), qPrintable(batch->reason()));
    QCOMPARE(doc->plan().training.microBatch, before.training.microBatch);
    QVERIFY(training->notes()->isVisible());
    QVERIFY(training->notes()->text().contains(QStringLiteral("Micro-batch")));

    // Another edit does not hide the refusal.
    type(training->seqLenBox(), QStringLiteral("32"));
    QCOMPARE(doc->plan().training.seqLen, 32);
    QCOMPARE(batch->text(), QStringLiteral("1e9"));
    QVERIFY(batch->isInvalid());
    // Esc gives the value back.
    batch->setFocus();
    QTest::keyClick(batch, Qt::Key_Escape);
    QVERIFY(!batch->isInvalid());
    QCOMPARE(batch->value().value_or(0), double(before.training.microBatch));
    QVERIFY(!training->notes()->isVisible());

    NumberField* nodes = w->meshPanel()->nodesBox();
    type(nodes, QStringLiteral("-5"));
    QCOMPARE(nodes->text(), QStringLiteral("-5"));
    QVERIFY(nodes->isInvalid());
    QCOMPARE(doc->plan().mesh.nodes, before.mesh.nodes);
    type(nodes, QStringLiteral("2.5"));
    QVERIFY(nodes->reason().contains(QStringLiteral("whole")));
    QCOMPARE(doc->plan().mesh.nodes, before.mesh.nodes);
    type(nodes, QStringLiteral("abc"));
    QVERIFY(nodes->reason().contains(QStringLiteral("not a number")));

    // A large value the plan can hold is kept exactly, never cut to a box's maximum.
    NumberField* vocab = w->modelPanel()->sizeBox(ModelPanel::Vocab);
    type(vocab, QStringLiteral("99999999999"));
    QCOMPARE(doc->plan().model.vocabSize, std::int64_t(99999999999));
    QVERIFY(!vocab->reason().contains(QStringLiteral("largest")));
    // Up/Down step whole numbers.
    type(w->meshPanel()->procsBox(), QStringLiteral("4"));
    QTest::keyClick(w->meshPanel()->procsBox(), Qt::Key_Up);
    QCOMPARE(doc->plan().mesh.procsPerNode, 5);
}

void TestFields::everyTrainingSettingHasAField()
{
    QTemporaryDir dir;
    test::Workbench w;
    PlanDocument* doc = w->document();
    TrainingPanel* t = w->trainingPanel();
    const std::pair<const char*, const char*> numbers[] = {
        {"optimizer.lr", "0.001"}, {"optimizer.betas", "0.8"}, {"optimizer.eps", "1e-06"},
        {"optimizer.weight_decay", "0.05"}, {"optimizer.warmup_steps", "7"}, {"optimizer.min_lr_ratio", "0.2"},
        {"grad_clip", "0.5"}, {"seed", "1234"}, {"checkpoint.interval", "10"}, {"checkpoint.keep", "3"}};
    for (const auto& [keys, value] : numbers) {
        NumberField* field = t->numberField(QString::fromLatin1(keys));
        QVERIFY2(field, keys);
        type(field, QString::fromLatin1(value));
        QVERIFY2(!field->isInvalid(), qPrintable(field->reason()));
    }
    type(t->findChild<NumberField*>(QStringLiteral("beta2")), QStringLiteral("0.99"));
    type(t->checkpointDirEdit(), QStringLiteral("ckpt"));
    t->scheduleBox()->setCurrentIndex(t->scheduleBox()->findData(QStringLiteral("cosine")));
    Q_EMIT t->scheduleBox()->activated(t->scheduleBox()->currentIndex());
    t->asyncBox()->click();
    const TrainingConfig& c = doc->plan().training;
    QCOMPARE(c.optimizer.lr, 0.001);
    QCOMPARE(c.optimizer.beta1, 0.8);
    QCOMPARE(c.optimizer.beta2, 0.99);
    QCOMPARE(c.optimizer.eps, 1e-6);
    QCOMPARE(c.optimizer.weightDecay, 0.05);
    QCOMPARE(c.optimizer.warmupSteps, 7);
    QCOMPARE(c.optimizer.minLrRatio, 0.2);
    QCOMPARE(c.optimizer.schedule, std::string("cosine"));
    QCOMPARE(c.gradClip, 0.5);
    QCOMPARE(c.seed, std::uint64_t(1234));
    QCOMPARE(c.checkpoint.dir, std::string("ckpt"));
    QCOMPARE(c.checkpoint.interval, 10);
    QCOMPARE(c.checkpoint.keep, 3);
    QCOMPARE(c.checkpoint.async, false);
    // Clipping off is an empty field reading "off", and typing nothing turns it off.
    NumberField* clip = t->numberField(QStringLiteral("grad_clip"));
    type(clip, QStringLiteral("0"));
    QCOMPARE(doc->plan().training.gradClip, 0.0);
    QCOMPARE(clip->text(), QString());
    QCOMPARE(clip->placeholderText(), QStringLiteral("off"));
    type(clip, QStringLiteral("0.75"));
    QCOMPARE(doc->plan().training.gradClip, 0.75);
    clip->selectAll();
    QTest::keyClick(clip, Qt::Key_Delete);
    QTest::keyClick(clip, Qt::Key_Return);
    QCOMPARE(doc->plan().training.gradClip, 0.0);
    QVERIFY(!clip->isInvalid());
    // A validation file typed while the validation loss is off turns it on
    // (8 batches, as a plan file's "eval" object): it is not dropped.
    type(t->evalPathEdit(), QStringLiteral("first-val.bin"));
    QCOMPARE(doc->plan().training.eval.path, std::string("first-val.bin"));
    QCOMPARE(doc->plan().training.eval.batches, 8);
    t->evalPathEdit()->clear();
    type(t->evalPathEdit(), QString());
    type(t->numberField(QStringLiteral("eval.batches")), QStringLiteral("0"));
    QVERIFY(!doc->plan().training.eval.enabled());
    // The validation loss: on synthetic data its batches and period alone;
    // on a token file a held-out fraction or a validation file, and the
    // plan's problem when neither is given shows at the section.
    type(t->numberField(QStringLiteral("eval.batches")), QStringLiteral("4"));
    type(t->numberField(QStringLiteral("eval.every")), QStringLiteral("50"));
    QCOMPARE(doc->plan().training.eval.batches, 4);
    QCOMPARE(doc->plan().training.eval.every, 50);
    QVERIFY(doc->plan().training.eval.enabled());
    t->dataKindBox()->setCurrentIndex(t->dataKindBox()->findData(QStringLiteral("tokens")));
    Q_EMIT t->dataKindBox()->activated(t->dataKindBox()->currentIndex());
    type(t->dataPathEdit(), QStringLiteral("train.bin"));
    QVERIFY(t->evalPathEdit()->isEnabled());
    // A headerless file's token width.
    QVERIFY(t->dataDtypeBox()->isEnabled());
    t->dataDtypeBox()->setCurrentIndex(t->dataDtypeBox()->findData(QStringLiteral("uint32")));
    Q_EMIT t->dataDtypeBox()->activated(t->dataDtypeBox()->currentIndex());
    QCOMPARE(doc->plan().training.data.dtype, DataConfig::TokenDtype::U32);
    QCOMPARE(doc->plan().training.data.path, std::string("train.bin")); // the other fields kept
    bool sourceProblem = false;
    for (const Problem& p : doc->problems()) sourceProblem = sourceProblem || p.codeName() == "train.eval_source";
    QVERIFY(sourceProblem);
    type(t->numberField(QStringLiteral("eval.holdout")), QStringLiteral("0.05"));
    QCOMPARE(doc->plan().training.eval.holdout, 0.05);
    type(t->evalPathEdit(), QStringLiteral("val.bin")); // both: refused again
    QCOMPARE(doc->plan().training.eval.path, std::string("val.bin"));
    sourceProblem = false;
    for (const Problem& p : doc->problems()) sourceProblem = sourceProblem || p.codeName() == "train.eval_source";
    QVERIFY(sourceProblem);
    type(t->numberField(QStringLiteral("eval.holdout")), QStringLiteral("0"));
    for (const Problem& p : doc->problems()) QVERIFY2(p.codeName().rfind("train.eval", 0) != 0, p.codeName().c_str());

    // A value the validator refuses is kept as typed and marked at its field.
    type(t->numberField(QStringLiteral("optimizer.lr")), QStringLiteral("0"));
    QCOMPARE(doc->plan().training.optimizer.lr, 0.0);
    QVERIFY(t->numberField(QStringLiteral("optimizer.lr"))->isInvalid());
    QVERIFY(doc->hasErrors());
}

// Head width, RoPE theta, norm epsilon and sliding window: shown for the
// Llama form (Llama, Mistral, Qwen), edited into the plan, their problems at
// the field; hidden for GPT-2.
void TestFields::theLlamaFormsFieldsEditTheModel()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    ModelPanel* m = w->modelPanel();
    QVERIFY(editModel(*doc, *presetConfig("qwen3-0.6b"), true));
    NumberField* headDim = m->formField(QStringLiteral("head_dim"));
    QVERIFY(headDim && !headDim->isHidden());
    QCOMPARE(headDim->text(), QStringLiteral("128"));
    type(headDim, QStringLiteral("64"));
    QCOMPARE(doc->plan().model.explicitHeadDim, std::int64_t(64));
    type(m->formField(QStringLiteral("norm_eps")), QStringLiteral("1e-05"));
    QCOMPARE(doc->plan().model.normEps, 1e-5);
    type(m->formField(QStringLiteral("rope_theta")), QStringLiteral("10000"));
    QCOMPARE(doc->plan().model.ropeTheta, 10000.0);
    NumberField* window = m->formField(QStringLiteral("sliding_window"));
    type(window, QString::number(doc->plan().training.seqLen - 1));
    QVERIFY(window->isInvalid()); // the sequence is longer than the window
    type(window, QStringLiteral("0"));
    QVERIFY(!window->isInvalid());
    QCOMPARE(doc->plan().model.slidingWindow, std::int64_t(0));
    QVERIFY(editModel(*doc, *presetConfig("gpt2-124m"), true));
    QVERIFY(headDim->isHidden());
}

void TestFields::theDataFileIsChecked()
{
    QTemporaryDir dir;
    test::Workbench w;
    PlanDocument* doc = w->document();
    TrainingPanel* t = w->trainingPanel();
    QVERIFY(readsTokens(w, dir));
    QVERIFY(doc->hasErrors()); // a token source needs a path

    const QString odd = dir.filePath(QStringLiteral("odd.bin"));
    QVERIFY(writeAll(odd, QByteArray(1001, '\1')));
    t->setDataFile(odd);
    QCOMPARE(doc->plan().training.data.path, std::string("odd.bin")); // relative to the plan's folder
    QTRY_VERIFY(t->dataInfo()->property("invalid").toBool()); // looked at off the GUI thread
    QVERIFY2(t->dataInfo()->text().contains(QStringLiteral("not a whole number of 16-bit tokens")), qPrintable(t->dataInfo()->text()));

    const QString good = dir.filePath(QStringLiteral("train.bin"));
    QVERIFY(writeAll(good, QByteArray(2 * 5000, '\1')));
    t->setDataFile(good);
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("5,000 tokens")), qPrintable(t->dataInfo()->text()));
    QVERIFY(!t->dataInfo()->property("invalid").toBool());
    QVERIFY(!doc->hasErrors());

    // Headered files say their own width and count: llm.c's uint32 (version 2), and a
    // Megatron pair whose index points past its .bin (the core's message).
    QByteArray llmc(1024, '\0');
    const quint32 header[3] = {20240520, 2, 3000};
    std::memcpy(llmc.data(), header, sizeof header);
    QVERIFY(writeAll(dir.filePath(QStringLiteral("llmc.bin")), llmc + QByteArray(4 * 3000, '\1')));
    t->setDataFile(dir.filePath(QStringLiteral("llmc.bin")));
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("3,000 tokens of 32 bits in a llm.c file")), qPrintable(t->dataInfo()->text()));
    QVERIFY(!t->dataInfo()->property("invalid").toBool());
    QByteArray idx("MMIDIDX\0\0", 9);
    const quint64 version = 1, sequences = 1, documents = 2, pointer = 0, doc0 = 0, doc1 = 1;
    const quint32 length = 500;
    idx.append(reinterpret_cast<const char*>(&version), 8).append(char(8)).append(reinterpret_cast<const char*>(&sequences), 8);
    idx.append(reinterpret_cast<const char*>(&documents), 8).append(reinterpret_cast<const char*>(&length), 4);
    idx.append(reinterpret_cast<const char*>(&pointer), 8).append(reinterpret_cast<const char*>(&doc0), 8).append(reinterpret_cast<const char*>(&doc1), 8);
    QVERIFY(writeAll(dir.filePath(QStringLiteral("mega.idx")), idx));
    QVERIFY(writeAll(dir.filePath(QStringLiteral("mega.bin")), QByteArray(2 * 400, '\1'))); // 400 tokens, the index says 500
    t->setDataFile(dir.filePath(QStringLiteral("mega.bin")));
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("does not end where")), qPrintable(t->dataInfo()->text()));
    QVERIFY(t->dataInfo()->property("invalid").toBool());

    // A directory is not a data file; a file not here is the run's to find.
    t->setDataFile(dir.path());
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("regular")), qPrintable(t->dataInfo()->text()));
    QVERIFY(t->dataInfo()->property("invalid").toBool());
    t->setDataFile(dir.filePath(QStringLiteral("elsewhere.bin")));
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("Not on this machine")), qPrintable(t->dataInfo()->text()));
    QVERIFY(!t->dataInfo()->property("invalid").toBool());
}

// A data file on a stalled mount (stat() waiting on a server that does not
// answer, here a stat that waits for the test): every edit asks about the
// file, and the window goes on taking edits meanwhile; the answer, when it
// comes, is shown, an answer about a file since replaced is not, and a file
// named after a long stall is looked at without waiting for it.
void TestFields::aStalledDataFileDoesNotFreezeTheWindow()
{
    QTemporaryDir dir;
    test::Workbench w;
    PlanDocument* doc = w->document();
    TrainingPanel* t = w->trainingPanel();
    QVERIFY(readsTokens(w, dir));

    const QString stalled = dir.filePath(QStringLiteral("stalled.bin"));
    QVERIFY(writeAll(stalled, QByteArray(2 * 9000, '\1')));
    Stall first(std::chrono::seconds(5));
    t->dataFileProbe()->setStat(first.stat());
    QElapsedTimer clock;
    clock.start();
    t->setDataFile(stalled);
    QVERIFY2(clock.elapsed() < 2000, "setting the path waited for the file system");
    QTRY_VERIFY(first.stalling());
    QTRY_VERIFY(t->dataInfo()->text().contains(QStringLiteral("Looking")));
    type(t->microBatchBox(), QStringLiteral("3")); // other edits go on, each asking about the file again
    QCOMPARE(doc->plan().training.microBatch, 3);
    QTest::qWait(200);
    QVERIFY(t->dataInfo()->text().contains(QStringLiteral("Looking")));

    // The answer arrives: shown.
    first.release();
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("9,000 tokens")), qPrintable(t->dataInfo()->text()));

    // Stalled again, then the path is replaced: the late answer is not shown.
    Stall second(std::chrono::seconds(5));
    t->dataFileProbe()->setStat(second.stat());
    t->setDataFile(QStringLiteral("/mnt/again/stalled.bin"));
    QTRY_VERIFY(second.stalling()); // in flight (the first file's last question answered)
    QVERIFY(t->dataInfo()->text().contains(QStringLiteral("Looking")));
    const QString odd = dir.filePath(QStringLiteral("odd.bin"));
    QVERIFY(writeAll(odd, QByteArray(1001, '\1')));
    t->setDataFile(odd); // waits behind the stalled question
    QTest::qWait(100);
    QVERIFY2(t->dataInfo()->text().contains(QStringLiteral("Looking")), qPrintable(t->dataInfo()->text()));
    second.release();
    QTRY_VERIFY2(t->dataInfo()->text().contains(QStringLiteral("not a whole number")), qPrintable(t->dataInfo()->text()));
    QTest::qWait(200);
    QVERIFY2(t->dataInfo()->text().contains(QStringLiteral("not a whole number")), qPrintable(t->dataInfo()->text()));

    // Stalled for good: a path asked about meanwhile goes ahead on a thread
    // of its own once the probe's patience runs out.
    Stall third(std::chrono::seconds(20));
    t->dataFileProbe()->setStat(third.stat());
    t->setDataFile(QStringLiteral("/mnt/third/stalled.bin"));
    QTRY_VERIFY(third.stalling());
    const QString good = dir.filePath(QStringLiteral("train.bin"));
    QVERIFY(writeAll(good, QByteArray(2 * 5000, '\1')));
    t->setDataFile(good);
    QTest::qWait(sb::gui::FileProbe::kPatienceMs / 2);
    QVERIFY(t->dataInfo()->text().contains(QStringLiteral("Looking")));
    QTRY_VERIFY2_WITH_TIMEOUT(t->dataInfo()->text().contains(QStringLiteral("5,000 tokens")), qPrintable(t->dataInfo()->text()),
                              2 * sb::gui::FileProbe::kPatienceMs);
    third.release();
    QTest::qWait(100);
    QVERIFY2(t->dataInfo()->text().contains(QStringLiteral("5,000 tokens")), qPrintable(t->dataInfo()->text()));
}

void TestFields::aPlanThatDoesNotFitIsAProblem()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    ProblemsModel* problems = w->problemsPanel()->problemsModel();
    QVERIFY(test::waitForMemoryView(*w.window));
    QCOMPARE(errorsWithCode(*problems, ProblemCode::PlanDoesNotFit), 0);
    type(w->meshPanel()->capacityBox(), QStringLiteral("0.001"));
    QVERIFY(test::waitForMemoryView(*w.window));
    QVERIFY(w->memoryView()->verdictText().startsWith(QStringLiteral("Does not fit")));
    QTRY_COMPARE(errorsWithCode(*problems, ProblemCode::PlanDoesNotFit), 1);
    for (int r = 0; r < problems->rowCount(); ++r)
        if (problems->problem(r).code == ProblemCode::PlanDoesNotFit) {
            const QString sentence = problems->index(r, ProblemsModel::MessageColumn).data().toString();
            QVERIFY2(sentence.contains(QStringLiteral("GiB")) && sentence.contains(QString::fromStdString(doc->plan().mesh.deviceName)),
                     qPrintable(sentence));
            QCOMPARE(problems->location(r).kind, ProblemLocation::Mesh);
        }
    doc->undoStack()->undo();
    QVERIFY(test::waitForMemoryView(*w.window));
    QTRY_COMPARE(errorsWithCode(*problems, ProblemCode::PlanDoesNotFit), 0);
}

void TestFields::emptyTablesSayWhatToDo()
{
    QTemporaryDir dir;
    test::useRunFolder(dir.path());
    test::Workbench w;
    QTableView* runs = w->areas()->runsView()->findChild<QTableView*>(QStringLiteral("runsTable"));
    QVERIFY(runs);
    auto* empty = runs->viewport()->findChild<QLabel*>(QStringLiteral("runsTableEmpty"));
    QVERIFY(empty);
    QCOMPARE(runs->model()->rowCount(), 0);
    QVERIFY(!empty->isHidden());
    QVERIFY(empty->text().contains(QStringLiteral("Launch")));
    QTableView* checkpoints = w->areas()->checkpointsView()->table();
    auto* none = checkpoints->viewport()->findChildren<QLabel*>().value(0);
    QVERIFY(none);
    QVERIFY(!none->isHidden());
    QVERIFY(none->text().contains(QStringLiteral("Launch")) || none->text().contains(QStringLiteral("checkpoint folder")));
}

// Scrolling the Setup panel with the wheel once changed Device when a combo
// box passed under the pointer. An unfocused combo box, spin box or number
// field leaves the wheel to the scroll area around it; a focused one takes it.
QTEST_MAIN(TestFields)
#include "tst_gui_fields.moc"
