// An invalid k shows up as a problem with the CLI's sentence, marks its row,
// and clicking it selects that row. Problem texts translate by code: the
// GUI's list of templates is the core's catalogue, and every template has a
// German and a Chinese translation with the same placeholders. The same holds
// for the launcher's run-settings codes and the pre-flight's results, and
// each code of the four catalogues has a finished, non-empty entry in both
// translations/*.ts.
#include "gui_test_support.hpp"
#include "../status_checks.hpp"
#include "../run_store_fixture.hpp"
#include "ts_file.hpp"

#include "document/plan_document.hpp"
#include "models/plan_tree_model.hpp"
#include "text/problem_templates.hpp"
#include "text/preflight_text.hpp"
#include "text/problem_text.hpp"
#include "models/problems_model.hpp"
#include "views/plan_tree_view.hpp"
#include "views/problems_panel.hpp"
#include "window/language_manager.hpp"

#include "plan/plan_json.hpp"
#include "plan/problem_catalogue.hpp"

#include "launch/failure_analysis.hpp"
#include "launch/host_list.hpp"
#include "launch/launch_checks.hpp"
#include "launch/run_config_problems.hpp"
#include "text/run_text.hpp"
#include "models/runs_model.hpp"
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

using namespace sb;
using namespace sb::gui;
using sb::app::PreflightArg;
using sb::app::PreflightCode;
using namespace sb::store::test;

class TestProblems : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void invalidKSelectsItsRow();
    void guiTemplatesAreTheCatalogue();
    void everyTemplateTranslates();
    void englishIsTheCliSentence();
    void problemsTranslate();
    void failureTemplatesAreTheCatalogueAndTranslate();
    void recordedFailureShowsInGerman();
    void runConfigTemplatesAreTheCatalogueAndTranslate();
    void runConfigProblemsTranslate();
    void preflightTemplatesAreTheCatalogueAndTranslate();
    void preflightResultsTranslate();
    void everyCodeIsFinishedInTheTsFiles();
};

void TestProblems::invalidKSelectsItsRow()
{
    test::Workbench w;
    PlanDocument* doc = w->document();
    PlanTreeView* tree = w->planTree();
    const int block = doc->tree().blocks()[1]; // layers.1
    const QModelIndex cell = w->planTreeModel()->indexOfModule(block, PlanTreeModel::ReshardColumn);
    tree->scrollTo(cell);
    tree->setCurrentIndex(cell);
    tree->edit(cell);
    auto* editor = tree->viewport()->findChild<QComboBox*>();
    QVERIFY(editor);
    editor->lineEdit()->selectAll();
    QTest::keyClicks(editor->lineEdit(), QStringLiteral("3"));
    QTest::keyClick(editor->lineEdit(), Qt::Key_Return);
    // The view commits an editor on the next turn of the event loop.
    QTRY_COMPARE(doc->plan().findUnit("layers.1")->reshard.kind, Reshard::Group);

    // The shard group is 2 ranks: k = 3 does not divide it.
    ProblemsModel* problems = w->problemsPanel()->problemsModel();
    QCOMPARE(problems->errorCount(), 1);
    const Problem& p = problems->problem(0);
    QCOMPARE(p.codeName(), std::string("plan.reshard_k"));
    const QString sentence = problems->index(0, ProblemsModel::MessageColumn).data().toString();
    QCOMPARE(sentence, QStringLiteral("reshard_after_forward 3 does not divide the shard group of 2 ranks"));
    // The same sentence the CLI prints for the saved plan.
    const LoadedPlan reloaded = validateLoaded(planFromString(planToString(doc->plan())));
    bool found = false;
    for (const Problem& q : reloaded.problems) found = found || QString::fromStdString(q.message()) == sentence;
    QVERIFY(found);
    QCOMPARE(w->planTreeModel()->problemSeverity(block), 2);

    // Click it: the row of layers.1 becomes the selection.
    tree->selectionModel()->clearSelection();
    tree->collapseAll();
    QTableView* table = w->problemsPanel()->table();
    const QRect rect = table->visualRect(problems->index(0, ProblemsModel::MessageColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(tree->selectedModules(), std::vector<int>{block});
    QCOMPARE(w->planTreeModel()->moduleOf(tree->currentIndex()), block);
    QVERIFY(tree->isExpanded(w->planTreeModel()->indexOfModule(doc->tree().module(block).parent)));

    // Fixing it clears the problem and the mark.
    doc->undoStack()->undo();
    QCOMPARE(problems->rowCount(), 0);
    QCOMPARE(w->planTreeModel()->problemSeverity(block), 0);
}

void TestProblems::guiTemplatesAreTheCatalogue()
{
    const std::vector<ProblemTemplate>& core = problemCatalogue();
    const std::vector<ProblemTextTemplate>& gui = problemTextTemplates();
    for (std::size_t i = 0; i < std::max(core.size(), gui.size()); ++i) {
        const QString coreRow = i < core.size() ? QString::fromUtf8(core[i].name) + u' ' + QString::fromUtf8(core[i].text) : QString();
        const QString guiRow = i < gui.size() ? QString::fromUtf8(gui[i].code) + u' ' + QString::fromUtf8(gui[i].text) : QString();
        QCOMPARE(guiRow, coreRow); // keep gui/text/problem_templates.cpp in step with core/plan/problem_code.hpp
    }
}

namespace {

QStringList placeholders(const QString& text)
{
    QStringList out;
    for (qsizetype i = 0; i + 1 < text.size(); ++i)
        if (text.at(i) == u'%' && text.at(i + 1).isDigit()) out << text.mid(i, 2);
    out.sort();
    return out;
}

} // namespace

void TestProblems::everyTemplateTranslates()
{
    LanguageManager languages;
    for (const QString& language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        QVERIFY(languages.setLanguage(language));
        for (const ProblemTemplate& t : problemCatalogue()) {
            const QString source = problemSourceTemplate(t.code);
            QVERIFY2(!source.isEmpty(), t.name);
            const QString translated = QCoreApplication::translate("sb::gui::ProblemText", t.text);
            QVERIFY2(translated != source,
                     qPrintable(QStringLiteral("no %1 translation for %2: %3").arg(language, QString::fromUtf8(t.name), source)));
            QVERIFY2(placeholders(translated) == placeholders(source), qPrintable(translated));
        }
    }
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

void TestProblems::englishIsTheCliSentence()
{
    // Plans that trip many checks at once.
    Plan bad = defaultPlan(*presetConfig("gpt2-124m"));
    bad.mesh.nodes = 1;
    bad.mesh.procsPerNode = 6;
    bad.mesh.replicate = 4;
    bad.training.seqLen = 5000;
    bad.training.optimizer.schedule = "linear";
    bad.units[1].reshard = {Reshard::Group, 5};
    UnitPolicy unknown;
    unknown.module = "nowhere";
    bad.units.push_back(unknown);
    bad.units.push_back(bad.units[2]);
    bad.units.push_back(bad.units[0]);
    bad.units[1].forwardPrefetch = {"missing"};
    UnitPolicy wte;
    wte.module = "transformer.wte";
    bad.units.push_back(wte);
    Plan cpu = defaultPlan(ModelConfig{});
    cpu.units[1].mp.paramDtype = DType::F16;
    cpu.units[1].mp.reduceDtype = DType::BF16;
    cpu.units[1].offload = true;
    cpu.model.nHeads = 3;
    Problems all;
    for (const Plan& p : {bad, cpu}) {
        const LoadedPlan l = validateLoaded(PlanReadResult{p, {}});
        all.insert(all.end(), l.problems.begin(), l.problems.end());
    }
    const PlanReadResult wrong = planFromString(R"({"format": "x", "mesh": {"nodes": "two", "device": "tpu"}, "units": [3]})");
    all.insert(all.end(), wrong.problems.begin(), wrong.problems.end());
    QVERIFY2(all.size() >= 14, qPrintable(QString::number(all.size())));
    for (const Problem& p : all) QCOMPARE(problemText(p), QString::fromStdString(p.message()));
}

void TestProblems::problemsTranslate()
{
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    const Problem k{Severity::Error, JsonPath().key("units").index(2).key("reshard_after_forward"), ProblemCode::PlanReshardK, {3, 8}};
    const QString de = problemText(k);
    QVERIFY2(de.contains(QStringLiteral("teilt")) && de.contains(u'3') && de.contains(u'8'), qPrintable(de));
    // A unit named as an argument: the root in words, a module in the language's quotes.
    const Problem rootTwice{Severity::Error, JsonPath().key("units").index(1).key("module"), ProblemCode::PlanDuplicateUnit,
                            {ProblemArg::unit("")}};
    QCOMPARE(problemText(rootTwice), QStringLiteral("die Wurzel ist mehr als einmal als Einheit aufgeführt"));
    const Problem blockTwice{Severity::Error, JsonPath().key("units").index(3).key("module"), ProblemCode::PlanDuplicateUnit,
                             {ProblemArg::unit("layers.0")}};
    QCOMPARE(problemText(blockTwice), QStringLiteral("„layers.0“ ist mehr als einmal als Einheit aufgeführt"));
    QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
    QVERIFY(problemText(k) != QString::fromStdString(k.message()));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
    QCOMPARE(problemText(k), QString::fromStdString(k.message()));
    QCOMPARE(problemText(rootTwice), QStringLiteral("the root is listed as a unit more than once"));
}

// Failure reasons (core/plan/failure_reason.hpp): the workbench's templates
// are the core's catalogue, row for row, and each has a German and a Chinese
// translation with the same placeholders.
void TestProblems::failureTemplatesAreTheCatalogueAndTranslate()
{
    const std::vector<FailureTemplate>& core = failureCatalogue();
    const std::vector<FailureTextTemplate>& gui = failureTextTemplates();
    for (std::size_t i = 0; i < std::max(core.size(), gui.size()); ++i) {
        const QString coreRow = i < core.size() ? QString::fromUtf8(core[i].name) + u' ' + QString::fromUtf8(core[i].text) : QString();
        const QString guiRow = i < gui.size() ? QString::fromUtf8(gui[i].code) + u' ' + QString::fromUtf8(gui[i].text) : QString();
        QCOMPARE(guiRow, coreRow); // keep gui/text/run_text.cpp in step with core/plan/failure_reason.hpp
    }
    LanguageManager languages;
    for (const QString& language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        QVERIFY(languages.setLanguage(language));
        for (const FailureTextTemplate& t : gui) {
            const QString source = QString::fromUtf8(t.text);
            const QString translated = QCoreApplication::translate("sb::gui::FailureText", t.text);
            QVERIFY2(translated != source,
                     qPrintable(QStringLiteral("no %1 translation for %2: %3").arg(language, QString::fromUtf8(t.code), source)));
            QVERIFY2(placeholders(translated) == placeholders(source), qPrintable(translated));
        }
    }
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

// A failure the launcher records in English (with its code) is shown in
// German in a German workbench's run list; a row from before the codes
// keeps its English text.
void TestProblems::recordedFailureShowsInGerman()
{
    QTemporaryDir tmp;
    const QString path = tmp.filePath(QStringLiteral("runs.sqlite"));
    store::NewRun run = bareRun(QStringLiteral("u1"), QStringLiteral("ssh"), 4, 1700000000);
    auto [store, coded, error] = storeWithRun(path, run);
    QVERIFY2(store, qPrintable(error));
    run.uid = QStringLiteral("u2");
    const qint64 old = store->createRun(run).value();
    run.uid = QStringLiteral("u3");
    const qint64 restarted = store->createRun(run).value();
    launch::ObservedExit killed;
    killed.exit.rank = 3;
    killed.exit.kind = launch::RankExit::Signaled;
    killed.exit.code = 9;
    killed.host = QStringLiteral("node-b");
    const launch::CodedReason reason = launch::failureReasonCoded(killed);
    store::RunUpdate u;
    u.runId = coded;
    u.status = store::RunStatus::Failed;
    u.reason = reason.text;
    u.reasonCode = reason.code;
    u.reasonArgs = reason.args;
    store->updateRun(u);
    store::RunUpdate text;
    text.runId = old;
    text.status = store::RunStatus::Failed;
    text.reason = QStringLiteral("rank 1 on node-a exited with code 1 (runtime failure)");
    store->updateRun(text);
    // A detached run's reason as the supervisor records it: the English text
    // ends with its restarts, the code and arguments do not.
    const FailureReason rankOne{FailureCode::RankRuntimeFailure, {"1", "node-a"}};
    store::RunUpdate again;
    again.runId = restarted;
    again.status = store::RunStatus::Failed;
    again.reason = QString::fromStdString(rankOne.message() + afterRestartsText(2));
    again.reasonCode = QString::fromStdString(rankOne.codeName());
    again.reasonArgs = QStringList{QStringLiteral("1"), QStringLiteral("node-a")};
    again.restarts = 2;
    store->updateRun(again);
    SB_VERIFY_OK(store->flush());

    auto readerOpened = store::RunReader::open(path);
    QVERIFY2(readerOpened, readerOpened.error().c_str());
    auto reader = std::move(readerOpened).value();
    RunsModel model;
    model.setRuns(reader->listRuns());
    QCOMPARE(model.rowCount(), 3);
    const auto reasonOf = [&](qint64 id) {
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, RunsModel::IdColumn).data().toLongLong() == id)
                return model.index(row, RunsModel::ReasonColumn).data().toString();
        return QString();
    };
    QCOMPARE(reasonOf(coded), QStringLiteral("rank 3 on node-b was killed by signal 9 (SIGKILL)"));
    QCOMPARE(reasonOf(restarted), again.reason.value());
    QCOMPARE(reasonOf(restarted), QStringLiteral("rank 1 on node-a exited with code 1 (runtime failure) (after 2 restarts)"));
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    QCOMPARE(reasonOf(coded), QStringLiteral("Rang 3 auf node-b wurde durch Signal 9 (SIGKILL) beendet"));
    QVERIFY2(reasonOf(restarted).startsWith(QLatin1String("Rang 1 auf node-a")), qPrintable(reasonOf(restarted)));
    QVERIFY2(reasonOf(restarted).endsWith(QLatin1String(" (nach 2 Neustarts)")), qPrintable(reasonOf(restarted)));
    QCOMPARE(reasonOf(old), text.reason.value());
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

// The launcher's run-settings codes (launch/run_config_problems.hpp): the
// workbench's templates are that catalogue, row for row, and each translates
// with the same placeholders. A template with nothing to translate (only
// %N and option names: a detail passed on as it is) may read the same.
void TestProblems::runConfigTemplatesAreTheCatalogueAndTranslate()
{
    const std::vector<launch::RunConfigTemplate>& launcher = launch::runConfigCatalogue();
    const std::vector<ProblemTextTemplate>& gui = runConfigTextTemplates();
    for (std::size_t i = 0; i < std::max(launcher.size(), gui.size()); ++i) {
        const QString launcherRow =
            i < launcher.size() ? QString::fromUtf8(launcher[i].name) + u' ' + QString::fromUtf8(launcher[i].text) : QString();
        const QString guiRow = i < gui.size() ? QString::fromUtf8(gui[i].code) + u' ' + QString::fromUtf8(gui[i].text) : QString();
        QCOMPARE(guiRow, launcherRow); // keep gui/text/problem_templates.cpp in step with launch/run_config_problems.hpp
    }
    static const QRegularExpression nothingToTranslate(QStringLiteral("%\\d|--[a-z-]+|[^A-Za-z]"));
    LanguageManager languages;
    for (const QString& language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        QVERIFY(languages.setLanguage(language));
        for (const ProblemTextTemplate& t : gui) {
            const QString source = QString::fromUtf8(t.text);
            const QString translated = QCoreApplication::translate("sb::gui::RunConfigText", t.text);
            if (!QString(source).remove(nothingToTranslate).isEmpty())
                QVERIFY2(translated != source,
                         qPrintable(QStringLiteral("no %1 translation for %2: %3").arg(language, QString::fromUtf8(t.code), source)));
            QVERIFY2(placeholders(translated) == placeholders(source), qPrintable(translated));
        }
    }
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

// A run-settings problem reads as the launcher's English sentence, and in
// German in a German workbench, its argument in place.
void TestProblems::runConfigProblemsTranslate()
{
    const launch::RunConfigProblem env{launch::RunConfigCode::EnvName, {"1BAD"}};
    // A host name's finding carries the name and the character, not a sentence.
    const std::optional<launch::RunConfigProblem> host = launch::hostNameProblem(QStringLiteral("gpu 1"));
    QVERIFY(host.has_value());
    QCOMPARE(runConfigProblemText(env), launch::runConfigMessage(env));
    QCOMPARE(runConfigProblemText(env), QStringLiteral("\"1BAD\" is not a valid environment variable name"));
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    QCOMPARE(runConfigProblemText(env), QStringLiteral("„1BAD“ ist kein gültiger Name für eine Umgebungsvariable"));
    QCOMPARE(runConfigProblemText(*host),
             QStringLiteral("der Hostname „gpu 1“ enthält ' ', das nicht erlaubt ist (nur Buchstaben, Ziffern, „.“, „-“ und „_“)"));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));

    // What the launch check finds on this machine is coded too: 9 CPU ranks
    // on 2 cores are refused, in English on the command line and in German here.
    launch::PreparedLaunch l;
    l.config.target = launch::LocalTarget{};
    l.worldSize = 9;
    launch::MachineFacts machine;
    machine.cores = 2;
    launch::LaunchCheckOptions options;
    options.checkMemory = false;
    const launch::LaunchCheckResult checked = launch::checkLaunchTarget(l, options, machine, {});
    QCOMPARE(checked.errors.size(), std::size_t{1});
    QCOMPARE(launch::runConfigMessages(checked.errors),
             QStringList{QStringLiteral("the plan runs 9 ranks on this machine, which has 2 core(s): at most 4 ranks per core can make progress")});
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    QCOMPARE(runConfigProblemText(checked.errors.front()),
             QStringLiteral("der Plan startet 9 Ränge auf diesem Rechner, der 2 Kern(e) hat: höchstens 4 Ränge pro Kern kommen voran"));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

// The pre-flight's results (app/run/preflight_codes.hpp): the workbench's
// templates have the catalogue's codes, row for row, with the same
// placeholders (its wording may differ from the command line's terse
// English), and each translates with the same placeholders.
void TestProblems::preflightTemplatesAreTheCatalogueAndTranslate()
{
    const std::vector<app::PreflightTemplate>& catalogue = app::preflightCatalogue();
    const std::vector<PreflightTextTemplate>& gui = preflightTextTemplates();
    QCOMPARE(gui.size(), catalogue.size());
    for (std::size_t i = 0; i < catalogue.size(); ++i) {
        // keep gui/text/preflight_text.cpp in step with app/run/preflight_codes.hpp
        QCOMPARE(QString::fromUtf8(gui[i].code), QString::fromUtf8(catalogue[i].name));
        const QString source = QString::fromUtf8(gui[i].text), english = QString::fromUtf8(catalogue[i].text);
        QVERIFY2(placeholders(source) == placeholders(english), qPrintable(source + QStringLiteral(" | ") + english));
        QVERIFY2(source.contains(QLatin1String("%n")) == english.contains(QLatin1String("%n")), gui[i].code);
    }
    LanguageManager languages;
    for (const QString& language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        QVERIFY(languages.setLanguage(language));
        for (const PreflightTextTemplate& t : gui) {
            const QString source = QString::fromUtf8(t.text);
            const int n = source.contains(QLatin1String("%n")) ? 2 : -1;
            const QString translated = QCoreApplication::translate("sb::gui::Preflight", t.text, nullptr, n);
            QVERIFY2(translated != QString(source).replace(QLatin1String("%n"), QLatin1String("2")),
                     qPrintable(QStringLiteral("no %1 translation for %2: %3").arg(language, QString::fromUtf8(t.code), source)));
            QVERIFY2(placeholders(translated) == placeholders(QString(source).remove(QLatin1String("%n"))), qPrintable(translated));
        }
    }
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

// A result is a code with raw arguments: the command line words it in the
// catalogue's English (its plural agreeing, its bytes in its own units), the
// workbench in its language, with the language's number format.
void TestProblems::preflightResultsTranslate()
{
    using app::PreflightArg;
    using app::PreflightCode;
    const app::PreflightMessage over{PreflightCode::MemoryOver,
                                     {3, PreflightArg::bytes(3ull << 30), PreflightArg::bytes(2ull << 30), PreflightArg::bytes(1ull << 30)}};
    const app::PreflightWording english{app::preflightEnglishText, [](std::uint64_t b) -> QString { return QString::number(b >> 30) + QStringLiteral(" G"); }};
    QCOMPARE(app::formatPreflight(over, english), QStringLiteral("rank 3 needs 3 G but the device has 2 G: over by 1 G"));
    QCOMPARE(app::formatPreflight({PreflightCode::HostsFailed, {}, 1}, english), QStringLiteral("1 host failed"));
    QCOMPARE(app::formatPreflight({PreflightCode::HostsFailed, {}, 2}, english), QStringLiteral("2 hosts failed"));
    const app::PreflightMessage onHosts{
        PreflightCode::RanksOnHosts,
        {PreflightArg::list({{PreflightCode::HostRanks, {QStringLiteral("node-a")}, 2}, {PreflightCode::HostRanks, {QStringLiteral("node-b")}, 1}})},
        3};
    QCOMPARE(app::formatPreflight(onHosts, english), QStringLiteral("3 ranks on node-a x2, node-b x1"));
    QCOMPARE(app::preflightCodeNamed("preflight.memory_over"), std::optional<PreflightCode>(PreflightCode::MemoryOver));
    QCOMPARE(over.codeName(), QStringLiteral("preflight.memory_over"));

    QCOMPARE(preflightText(over), QStringLiteral("Rank 3 needs 3.00 GiB but the device has 2.00 GiB: over by 1.00 GiB"));
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    QCOMPARE(preflightText(over), QStringLiteral("Rang 3 braucht 3,00 GiB, das Gerät hat aber 2,00 GiB: 1,00 GiB zu viel"));
    QCOMPARE(preflightText(onHosts), QStringLiteral("3 Ränge auf node-a: 2 Ränge, node-b: 1 Rang"));
    QCOMPARE(preflightText({PreflightCode::HostsFailed, {}, 1}), QStringLiteral("1 Host fehlgeschlagen"));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
}

namespace {

// context -> source -> message, read from a .ts file.
QHash<QString, QHash<QString, test::TsMessage>> readTs(const QString& path, QString* error)
{
    QHash<QString, QHash<QString, test::TsMessage>> out;
    for (test::TsMessage& m : test::readTsFile(path, error)) out[m.context].insert(m.source, std::move(m));
    return out;
}

} // namespace

// Every code the core (plan problems, failure reasons), the launcher (run
// settings) and the pre-flight can emit has a template and, in both translations/*.ts, a
// finished, non-empty translation of it: a missing, unfinished or empty one
// fails here, whether or not lrelease would still ship it.
void TestProblems::everyCodeIsFinishedInTheTsFiles()
{
    QList<QPair<QString, QString>> wanted; // context, source
    QCOMPARE(problemTextTemplates().size(), problemCatalogue().size());
    for (const ProblemTemplate& t : problemCatalogue()) {
        const QString source = problemSourceTemplate(t.code);
        QVERIFY2(!source.isEmpty(), t.name);
        wanted.append({QStringLiteral("sb::gui::ProblemText"), source});
    }
    QCOMPARE(failureTextTemplates().size(), failureCatalogue().size());
    for (const FailureTextTemplate& t : failureTextTemplates()) wanted.append({QStringLiteral("sb::gui::FailureText"), QString::fromUtf8(t.text)});
    QCOMPARE(runConfigTextTemplates().size(), launch::runConfigCatalogue().size());
    for (const ProblemTextTemplate& t : runConfigTextTemplates())
        wanted.append({QStringLiteral("sb::gui::RunConfigText"), QString::fromUtf8(t.text)});
    QCOMPARE(preflightTextTemplates().size(), app::preflightCatalogue().size());
    for (const PreflightTextTemplate& t : preflightTextTemplates())
        wanted.append({QStringLiteral("sb::gui::Preflight"), QString::fromUtf8(t.text)});
    for (const QString& language : {QStringLiteral("de"), QStringLiteral("zh_CN")}) {
        QString error;
        const auto ts = readTs(test::sourcePath(QStringLiteral("translations/shardbench_%1.ts").arg(language)), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const auto& [context, source] : std::as_const(wanted)) {
            const QString where = QStringLiteral("%1 %2: %3").arg(language, context, source);
            const QHash<QString, test::TsMessage> messages = ts.value(context);
            const auto entry = messages.constFind(source);
            QVERIFY2(entry != messages.constEnd(), qPrintable(QStringLiteral("missing: ") + where));
            QVERIFY2(entry->type.isEmpty(), qPrintable(entry->type + QStringLiteral(": ") + where));
            QVERIFY2(!entry->forms.isEmpty(), qPrintable(QStringLiteral("no translation: ") + where));
            for (const QString& form : entry->forms) QVERIFY2(!form.trimmed().isEmpty(), qPrintable(QStringLiteral("empty: ") + where));
        }
    }
}

QTEST_MAIN(TestProblems)
#include "tst_gui_problems.moc"
