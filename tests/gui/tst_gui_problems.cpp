// An invalid k shows up as a problem with the CLI's sentence, marks its row,
// and clicking it selects that row. Problem texts translate by code.
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "models/plan_tree_model.hpp"
#include "models/problem_text.hpp"
#include "models/problems_model.hpp"
#include "views/plan_tree_view.hpp"
#include "views/problems_panel.hpp"
#include "window/language_manager.hpp"

#include "plan/plan_json.hpp"

#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

using namespace sb;
using namespace sb::gui;

class TestProblems : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void invalidKSelectsItsRow();
    void templatesRebuildTheCoreSentences();
    void problemsTranslate();
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
    QCOMPARE(p.code, std::string("plan.reshard_k"));
    const QString sentence = problems->index(0, ProblemsModel::MessageColumn).data().toString();
    QCOMPARE(sentence, QStringLiteral("reshard_after_forward 3 does not divide the shard group of 2 ranks"));
    // The same sentence the CLI prints for the saved plan.
    const LoadedPlan reloaded = validateLoaded(planFromString(planToString(doc->plan())));
    bool found = false;
    for (const Problem& q : reloaded.problems) found = found || QString::fromStdString(q.message) == sentence;
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

void TestProblems::templatesRebuildTheCoreSentences()
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
    int matched = 0;
    for (const Problem& p : all) {
        QString source;
        QStringList args;
        if (!problemTemplate(p, &source, &args)) {
            qWarning("no template for %s: %s", p.code.c_str(), p.message.c_str());
            continue;
        }
        ++matched;
        QCOMPARE(fillTemplate(source, args), QString::fromStdString(p.message));
        QCOMPARE(problemText(p), QString::fromStdString(p.message)); // English: the CLI's words
    }
    QVERIFY2(matched >= 8, qPrintable(QString::number(matched)));
}

void TestProblems::problemsTranslate()
{
    LanguageManager languages;
    QVERIFY(languages.setLanguage(QStringLiteral("de")));
    const Problem k{Severity::Error, "$.units[2].reshard_after_forward", "plan.reshard_k",
                    "reshard_after_forward 3 does not divide the shard group of 8 ranks"};
    const QString de = problemText(k);
    QVERIFY2(de.contains(QStringLiteral("teilt")) && de.contains(u'3') && de.contains(u'8'), qPrintable(de));
    const Problem unknown{Severity::Error, "$", "plan.made_up", "a sentence no template knows"};
    QCOMPARE(problemText(unknown), QStringLiteral("a sentence no template knows"));
    QVERIFY(languages.setLanguage(QStringLiteral("zh_CN")));
    QVERIFY(problemText(k) != QString::fromStdString(k.message));
    QVERIFY(languages.setLanguage(QStringLiteral("en")));
    QCOMPARE(problemText(k), QString::fromStdString(k.message));
}

QTEST_MAIN(TestProblems)
#include "tst_gui_problems.moc"
