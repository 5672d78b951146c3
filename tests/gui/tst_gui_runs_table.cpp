// The Runs area on a laptop screen (issue 39): the table keeps at least ten
// rows at 1366x768, its columns fit their content in every language, it has
// a column per plan field (filtered and grouped by them), and the parallel
// coordinates select runs in the table, whose selection drives Compare,
// whose plan diff keeps every run's column in sight.
// The runs come from a real store of twelve runs of different plans.
#include "gui_test_support.hpp"

#include "models/plan_diff_model.hpp"
#include "models/runs_group_proxy.hpp"
#include "models/runs_model.hpp"
#include "settings/run_settings.hpp"
#include "views/column_chooser.hpp"
#include "views/compare_view.hpp"
#include "views/parallel_coordinates.hpp"
#include "views/runs_view.hpp"
#include "window/language_manager.hpp"
#include "window/run_areas.hpp"
#include "window/runs_controller.hpp"

#include "plan/plan_json.hpp"
#include "store/sqlite_run_store.hpp"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QScreen>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::gui;
using sb::app::RunSettings;

namespace {

constexpr int kRuns = 12;

// Run i's plan: world size 2, 4, 8 in turn; reshard after forward False for
// i % 4 == 1 and mixed (the root True, the rest default) for i % 4 == 3;
// bf16 parameters on odd runs; CPU offload on run 5; micro-batch 4 or 8;
// learning rate 3e-4 for the first six, 1e-3 after.
Plan planOf(int i)
{
    Plan p = defaultPlan(*presetConfig("gpt2-124m"));
    p.mesh.procsPerNode = 2 << (i % 3);
    for (UnitPolicy& u : p.units) {
        if (i % 2 == 1) u.mp.paramDtype = DType::BF16;
        u.offload = i == 5;
        if (i % 4 == 1) u.reshard.kind = Reshard::False;
    }
    if (i % 4 == 3) p.root().reshard.kind = Reshard::True;
    p.training.microBatch = i % 2 == 0 ? 4 : 8;
    p.training.optimizer.lr = i < 6 ? 3e-4 : 1e-3;
    return p;
}

double finalLossOf(int i) { return 3.0 + 0.1 * ((i * 5) % kRuns); } // distinct, not in run order

QString fillStore(const QString& path)
{
    Result<std::unique_ptr<store::SqliteRunStore>> opened = store::SqliteRunStore::open(path);
    if (!opened) return qtMessage(opened);
    const std::unique_ptr<store::SqliteRunStore> store = std::move(opened).value();
    for (int i = 0; i < kRuns; ++i) {
        const Plan plan = planOf(i);
        store::NewRun r;
        r.uid = QStringLiteral("table-%1").arg(i);
        r.name = QStringLiteral("sweep of the learning rate and the world size, run %1").arg(i);
        r.planJson = QString::fromStdString(planToString(plan));
        r.backend = QStringLiteral("local");
        r.worldSize = plan.mesh.worldSize();
        r.createdAt = 1.7e9 + i * 60;
        const Result<qint64> created = store->createRun(r);
        if (!created) return qtMessage(created);
        const qint64 id = created.value();
        for (int s = 1; s <= 4; ++s)
            for (int rank = 0; rank < r.worldSize; ++rank) {
                store::MetricRow m;
                m.runId = id;
                m.m.rank = rank;
                m.m.step = s;
                m.m.t = r.createdAt + s;
                m.m.loss = finalLossOf(i) + 4 - s;
                m.m.tokensPerS = 1234567 + 1000 * i; // "1,2xx,567 tokens/s": elided by a width fitted before it came
                m.m.memPeak = (qint64{3} << 30) + i * (qint64{1} << 20) + rank;
                if (i % 2 == 1 && s % 2 == 0) m.m.evalLoss = finalLossOf(i) + 0.5 - s * 0.01;
                store->addStepMetrics(m);
            }
        store::RunUpdate u;
        u.runId = id;
        u.status = i == 4 ? store::RunStatus::Failed : store::RunStatus::Completed;
        u.startedAt = r.createdAt + 1;
        u.endedAt = r.createdAt + 5;
        u.stepsDone = 4;
        u.finalLoss = finalLossOf(i);
        store->updateRun(u);
    }
    return qtMessage(store->flush());
}

qint64 runOf(int i) { return i + 1; } // ids in the order written

QString cell(const RunsModel* model, int i, int column) { return model->index(model->rowOfRun(runOf(i)), column).data().toString(); }

// The cells shown whose text is wider than their column (less the item's margins).
QStringList elidedCells(const QTableView* table)
{
    QStringList out;
    const QFontMetrics fm = table->fontMetrics();
    const int margin = 2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
    const QAbstractItemModel* model = table->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data(RunsGroupProxy::GroupHeaderRole).toBool()) continue;
        for (int c = 0; c < model->columnCount(); ++c) {
            if (table->isColumnHidden(c)) continue;
            const QString text = model->index(row, c).data().toString();
            const int dot = c == RunsModel::StatusColumn ? fm.height() / 2 + 10 : 0; // the status delegate's
            if (fm.horizontalAdvance(text) + margin + dot > table->columnWidth(c))
                out << QStringLiteral("%1 \"%2\" (%3 px > %4)").arg(c).arg(text).arg(fm.horizontalAdvance(text) + margin + dot).arg(table->columnWidth(c));
        }
    }
    return out;
}

} // namespace

class TestRunsTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void tenRowsShowAt1366x768();
    void columnsFitTheirContentInEveryLanguage();
    void planFieldColumnsShowEachRunsPlan();
    void columnsAreChosenFromTheHeaderAndRemembered();
    void runsAreFilteredByTheirFields();
    void runsAreGroupedByAField();
    void parallelCoordinatesSelectRunsInTheTable();
    void theTableSelectionDrivesCompare();

private:
    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    RunsView* view_ = nullptr;
    RunsModel* model_ = nullptr;
    bool openRuns(); // a fresh workbench at 1366x738 on the Runs tab, every run's details read
};

void TestRunsTable::initTestCase()
{
    test::isolateSettings();
    QVERIFY(tmp_.isValid());
    test::useRunFolder(tmp_.path());
    QCOMPARE(fillStore(RunSettings::storePath.value()), QString());
}

void TestRunsTable::init() { QVERIFY(openRuns()); }

bool TestRunsTable::openRuns()
{
    w_.reset();
    w_ = std::make_unique<test::Workbench>();
    (*w_)->resize(1366, 738); // a laptop's screen less a title bar, as tst_gui_screen
    RunAreas* areas = (*w_)->areas();
    view_ = areas->runsView();
    model_ = areas->runsModel();
    (*w_)->areaTabs()->setCurrentWidget(view_);
    if (!QTest::qWaitFor([&] { return model_->rowCount() == kRuns && model_->hasDetails(runOf(kRuns - 1)) && model_->hasDetails(runOf(0)); }, 10000))
    {
        qWarning("%d runs listed, details of the first %d, of the last %d", model_->rowCount(), model_->hasDetails(runOf(0)),
                 model_->hasDetails(runOf(kRuns - 1)));
        return false;
    }
    QCoreApplication::processEvents(); // the columns are fitted on the next turn
    if ((*w_)->size() != QSize(1366, 738)) // a minimum larger than the screen
        qWarning("the window is %dx%d, its minimum %dx%d", (*w_)->width(), (*w_)->height(), (*w_)->minimumSizeHint().width(),
                 (*w_)->minimumSizeHint().height());
    return (*w_)->size() == QSize(1366, 738);
}

void TestRunsTable::tenRowsShowAt1366x768()
{
    QTableView* table = view_->table();
    const int rowHeight = table->verticalHeader()->defaultSectionSize();
    auto rowsShown = [&] { return table->viewport()->height() / rowHeight; };
    // Nothing selected: nothing below the table, no empty comparison.
    QVERIFY(!view_->showsDetails());
    QVERIFY(!view_->compareView()->isVisible());
    QVERIFY2(rowsShown() >= 10, qPrintable(QStringLiteral("%1 rows shown").arg(rowsShown())));
    // Two runs compared below: the table still shows ten rows.
    view_->selectRuns({runOf(1), runOf(2)});
    QCoreApplication::processEvents();
    QVERIFY(view_->showsDetails() && view_->compareView()->isVisible());
    QVERIFY2(rowsShown() >= 10, qPrintable(QStringLiteral("%1 rows shown while comparing").arg(rowsShown())));
    QVERIFY(view_->compareView()->height() > 0);
    view_->selectRuns({});
    QVERIFY(!view_->showsDetails());
}

void TestRunsTable::columnsFitTheirContentInEveryLanguage()
{
    QTableView* table = view_->table();
    QStringList elided = elidedCells(table);
    QVERIFY2(elided.isEmpty(), qPrintable(elided.join(QStringLiteral("; "))));
    // The memory column is as wide as its content, not the rest of the table.
    const int peak = table->columnWidth(RunsModel::PeakColumn);
    QVERIFY2(peak < 260, qPrintable(QString::number(peak)));
    QList<int> english;
    for (int c = 0; c < RunsModel::ColumnCount; ++c) english << table->columnWidth(c);
    // German titles and numbers: every column fitted again, then English widths again.
    (*w_)->languages()->setLanguage(QStringLiteral("de"));
    QTRY_COMPARE(model_->headerData(RunsModel::LossColumn, Qt::Horizontal).toString(), QStringLiteral("Letzter Verlust"));
    QCoreApplication::processEvents();
    elided = elidedCells(table);
    QVERIFY2(elided.isEmpty(), qPrintable(QStringLiteral("German: ") + elided.join(QStringLiteral("; "))));
    QVERIFY(table->columnWidth(RunsModel::ParamDtypeColumn) != english[RunsModel::ParamDtypeColumn]);
    (*w_)->languages()->setLanguage(QStringLiteral("en"));
    QTRY_COMPARE(model_->headerData(RunsModel::LossColumn, Qt::Horizontal).toString(), QStringLiteral("Final loss"));
    QCoreApplication::processEvents();
    for (int c = 0; c < RunsModel::ColumnCount; ++c)
        QVERIFY2(table->columnWidth(c) == english[c], qPrintable(QStringLiteral("column %1: %2 px, %3 in English before")
                                                                      .arg(c).arg(table->columnWidth(c)).arg(english[c])));
}

void TestRunsTable::planFieldColumnsShowEachRunsPlan()
{
    for (int i = 0; i < kRuns; ++i) {
        const Plan p = planOf(i);
        const int world = p.mesh.worldSize();
        QCOMPARE(cell(model_, i, RunsModel::WorldColumn), QString::number(world));
        QCOMPARE(cell(model_, i, RunsModel::ReshardColumn),
                 i % 4 == 1 ? QStringLiteral("False") : i % 4 == 3 ? QStringLiteral("mixed") : QStringLiteral("default"));
        QCOMPARE(cell(model_, i, RunsModel::ParamDtypeColumn), i % 2 == 1 ? QStringLiteral("bf16") : QStringLiteral("own"));
        QCOMPARE(cell(model_, i, RunsModel::ReduceDtypeColumn), QStringLiteral("own"));
        QCOMPARE(cell(model_, i, RunsModel::OffloadColumn), i == 5 ? QStringLiteral("yes") : QStringLiteral("no"));
        QCOMPARE(cell(model_, i, RunsModel::MicroBatchColumn), QString::number(p.training.microBatch));
        const qint64 tokens = qint64{p.training.microBatch} * p.training.seqLen * p.training.gradAccum * world;
        QCOMPARE(model_->index(model_->rowOfRun(runOf(i)), RunsModel::GlobalBatchColumn).data(RunsModel::ValueRole).toDouble(),
                 static_cast<double>(tokens));
        QCOMPARE(cell(model_, i, RunsModel::GlobalBatchColumn), QLocale().toString(tokens));
        QCOMPARE(cell(model_, i, RunsModel::LrColumn), i < 6 ? QStringLiteral("0.0003") : QStringLiteral("0.001"));
        // The last validation loss (step 4) of the runs that took one.
        QCOMPARE(cell(model_, i, RunsModel::EvalLossColumn),
                 i % 2 == 1 ? QLocale().toString(finalLossOf(i) + 0.5 - 0.04, 'f', 4) : QString());
    }
    // Sorted as numbers: the largest global batch first, then by learning rate.
    QTableView* table = view_->table();
    table->sortByColumn(RunsModel::GlobalBatchColumn, Qt::DescendingOrder);
    QCOMPARE(table->model()->index(0, RunsModel::WorldColumn).data().toString(), QStringLiteral("8"));
    QCOMPARE(table->model()->index(0, RunsModel::MicroBatchColumn).data().toString(), QStringLiteral("8"));
    table->sortByColumn(RunsModel::LrColumn, Qt::AscendingOrder);
    QCOMPARE(table->model()->index(0, RunsModel::LrColumn).data().toString(), QStringLiteral("0.0003"));
    QCOMPARE(table->model()->index(kRuns - 1, RunsModel::LrColumn).data().toString(), QStringLiteral("0.001"));
}

void TestRunsTable::columnsAreChosenFromTheHeaderAndRemembered()
{
    QTableView* table = view_->table();
    QVERIFY(table->isColumnHidden(RunsModel::MicroBatchColumn)); // hidden at first: the table fits a laptop
    QVERIFY(!table->isColumnHidden(RunsModel::GlobalBatchColumn));
    std::unique_ptr<QMenu> menu(view_->columns()->buildMenu(nullptr));
    QAction* micro = nullptr;
    QAction* reason = nullptr;
    for (QAction* a : menu->actions()) {
        if (a->text() == QStringLiteral("Micro-batch")) micro = a;
        if (a->text() == QStringLiteral("Reason")) reason = a;
    }
    QVERIFY(micro && reason);
    QVERIFY(!micro->isChecked());
    micro->trigger();
    reason->trigger();
    QVERIFY(!table->isColumnHidden(RunsModel::MicroBatchColumn));
    QVERIFY(table->isColumnHidden(RunsModel::ReasonColumn));
    QCoreApplication::processEvents();
    QVERIFY(elidedCells(table).isEmpty());
    // The next start shows the same columns.
    QVERIFY(openRuns());
    QVERIFY(!view_->table()->isColumnHidden(RunsModel::MicroBatchColumn));
    QVERIFY(view_->table()->isColumnHidden(RunsModel::ReasonColumn));
    view_->columns()->setColumnShown(RunsModel::ReasonColumn, true);
    view_->columns()->setColumnShown(RunsModel::MicroBatchColumn, false);
}

void TestRunsTable::runsAreFilteredByTheirFields()
{
    QLineEdit* filter = view_->filterEdit();
    auto shown = [&] { return view_->proxy()->rowCount(); };
    filter->setText(QStringLiteral("world=8"));
    QCOMPARE(shown(), 4); // runs 2, 5, 8, 11
    filter->setText(QStringLiteral("world>=4 lr<5e-4"));
    QCOMPARE(shown(), 4); // runs 1, 2, 4, 5
    filter->setText(QStringLiteral("param:bf16 offload=yes"));
    QCOMPARE(shown(), 1);
    QCOMPARE(view_->proxy()->index(0, 0).data(RunsModel::RunIdRole).toLongLong(), runOf(5));
    filter->setText(QStringLiteral("reshard=mixed"));
    QCOMPARE(shown(), 3); // runs 3, 7, 11
    // A field term and plain text: "run 1" of runs 1, 10 and 11's names; run 10 took no validation loss.
    filter->setText(QStringLiteral("eval<4.2 run 1"));
    QCOMPARE(shown(), 2);
    filter->setText(QStringLiteral("eval<3.8"));
    QCOMPARE(shown(), 2); // runs 3 (3.76) and 5 (3.56)
    filter->clear();
    QCOMPARE(shown(), kRuns);
}

void TestRunsTable::runsAreGroupedByAField()
{
    QTableView* table = view_->table();
    view_->selectRuns({runOf(4), runOf(7)});
    view_->setGroupColumn(RunsModel::WorldColumn);
    RunsGroupProxy* groups = view_->groups();
    QCOMPARE(groups->groupCount(), 3);
    QCOMPARE(groups->rowCount(), kRuns + 3);
    // World size 2 first; each header names its value, counts its runs and spans the table.
    QVERIFY(groups->isHeader(0));
    const QString header = groups->index(0, 0).data().toString();
    QVERIFY2(header.startsWith(QStringLiteral("World size: 2 — 4 run(s), best final loss")), qPrintable(header));
    QCOMPARE(table->columnSpan(0, 0), RunsModel::ColumnCount);
    for (int row = 1; row <= 4; ++row) QCOMPARE(groups->index(row, RunsModel::WorldColumn).data().toString(), QStringLiteral("2"));
    QVERIFY(groups->isHeader(5) && groups->isHeader(10));
    // The selection stays across the regrouping and a sort; the id column is not widened by the headers.
    QCOMPARE(view_->selectedRuns().size(), 2);
    table->sortByColumn(RunsModel::LossColumn, Qt::AscendingOrder);
    QList<qint64> selected = view_->selectedRuns();
    std::sort(selected.begin(), selected.end());
    QCOMPARE(selected, (QList<qint64>{runOf(4), runOf(7)}));
    QCoreApplication::processEvents();
    QVERIFY(table->columnWidth(RunsModel::IdColumn) < 100);
    QVERIFY(elidedCells(table).isEmpty());
    // Within a group, the table's order: the lowest loss first.
    const double first = groups->index(1, RunsModel::LossColumn).data(RunsModel::ValueRole).toDouble();
    const double second = groups->index(2, RunsModel::LossColumn).data(RunsModel::ValueRole).toDouble();
    QVERIFY(first < second);
    // Clicking a group's header selects its runs.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(groups->index(5, 0)).center());
    QCOMPARE(view_->selectedRuns().size(), 4);
    for (qint64 id : view_->selectedRuns()) QCOMPARE(model_->index(model_->rowOfRun(id), RunsModel::WorldColumn).data().toString(), QStringLiteral("4"));
    // The filter applies inside the groups; by dtype there are two groups.
    view_->filterEdit()->setText(QStringLiteral("lr=1e-3"));
    QCOMPARE(groups->rowCount(), 6 + 3);
    view_->groupBox()->setCurrentIndex(view_->groupBox()->findData(int(RunsModel::ParamDtypeColumn)));
    QCOMPARE(groups->groupCount(), 2);
    view_->setGroupColumn(-1);
    QCOMPARE(groups->rowCount(), 6);
    QVERIFY(!groups->isHeader(0));
}

void TestRunsTable::parallelCoordinatesSelectRunsInTheTable()
{
    view_->viewTabs()->setCurrentIndex(1);
    ParallelCoordinates* pc = view_->parallelView();
    QTRY_VERIFY(pc->isVisible());
    QCoreApplication::processEvents();
    QVERIFY2(pc->width() >= 900 && pc->height() >= 240, qPrintable(QStringLiteral("%1x%2").arg(pc->width()).arg(pc->height())));
    // One axis per plan field and outcome that some run has.
    QStringList titles;
    for (const ParallelAxis& a : pc->data().axes) titles << a.title;
    QCOMPARE(titles, QStringLiteral("World size|Reshard|Param dtype|Reduce dtype|CPU offload|Micro-batch|Global batch (tokens)|"
                                    "Learning rate|Final loss|Eval loss|Tokens/s|Peak memory per rank")
                         .split(u'|'));
    QCOMPARE(pc->data().runs.size(), kRuns);
    // Titles are never cut: each wraps in the room between its axes.
    QVERIFY(pc->axisX(1) - pc->axisX(0) >= pc->fontMetrics().horizontalAdvance(QStringLiteral("Learning")));
    // A click on run 6's line between the first two axes selects it in the table: its page opens.
    const QPoint a = *pc->pointOf(runOf(6), 0), b = *pc->pointOf(runOf(6), 1);
    QTest::mouseClick(pc, Qt::LeftButton, {}, (a + b) / 2);
    QCOMPARE(view_->selectedRuns(), (QList<qint64>{runOf(6)}));
    QVERIFY(view_->showsRunPage());
    QCOMPARE(pc->selectedRuns(), (QSet<qint64>{runOf(6)}));
    // A brush on the world-size axis from its top down: the four runs on 8 ranks, compared.
    const int x = pc->axisX(0);
    QTest::mousePress(pc, Qt::LeftButton, {}, QPoint(x, pc->plotTop() - 3));
    QTest::mouseMove(pc, QPoint(x, (pc->plotTop() + pc->plotBottom()) / 2 - 20));
    QTest::mouseRelease(pc, Qt::LeftButton, {}, QPoint(x, (pc->plotTop() + pc->plotBottom()) / 2 - 20));
    QList<qint64> brushed = view_->selectedRuns();
    std::sort(brushed.begin(), brushed.end());
    QCOMPARE(brushed, (QList<qint64>{runOf(2), runOf(5), runOf(8), runOf(11)}));
    QVERIFY(!view_->showsRunPage());
    QTRY_COMPARE(view_->compareView()->runs().size(), 4);
    // A second brush on the learning-rate axis's bottom narrows it to runs 2 and 5 (3e-4).
    const int lr = pc->axisX(7);
    QTest::mousePress(pc, Qt::LeftButton, {}, QPoint(lr, pc->plotBottom() + 3));
    QTest::mouseMove(pc, QPoint(lr, pc->plotBottom() - 30));
    QTest::mouseRelease(pc, Qt::LeftButton, {}, QPoint(lr, pc->plotBottom() - 30));
    brushed = view_->selectedRuns();
    std::sort(brushed.begin(), brushed.end());
    QCOMPARE(brushed, (QList<qint64>{runOf(2), runOf(5)}));
    // A click on nothing clears it; the table's selection is drawn.
    QTest::mouseClick(pc, Qt::LeftButton, {}, QPoint(pc->width() - 3, pc->plotTop() + 2));
    QVERIFY(view_->selectedRuns().isEmpty());
    view_->selectRuns({runOf(3)});
    QCOMPARE(pc->selectedRuns(), (QSet<qint64>{runOf(3)}));
}

void TestRunsTable::theTableSelectionDrivesCompare()
{
    QTableView* table = view_->table();
    table->sortByColumn(RunsModel::IdColumn, Qt::AscendingOrder);
    QItemSelectionModel* selection = table->selectionModel();
    selection->select(table->model()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    selection->select(table->model()->index(2, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    CompareView* compare = view_->compareView();
    QTRY_COMPARE(compare->runs().size(), 2);
    QCOMPARE(compare->runs()[0].id, runOf(0));
    QCOMPARE(compare->runs()[1].id, runOf(2));
    QCOMPARE(view_->parallelView()->selectedRuns(), (QSet<qint64>{runOf(0), runOf(2)}));
    // The plans differ in world size: the diff says so.
    QVERIFY(compare->diffTable()->model()->rowCount() > 0);

    // Three runs whose checkpoint folders are long paths: every run's column
    // stays in the pane's width, with no sideways scrolling to reach one.
    QList<app::ComparedRun> runs = compare->runs();
    runs << runs.front();
    for (int i = 0; i < runs.size(); ++i) {
        Plan plan = planFromString(runs[i].planJson.toStdString()).plan;
        plan.training.checkpoint.dir = "/scratch/a-team/experiments/llama-sweep/checkpoints/run-" + std::to_string(i);
        runs[i].planJson = QString::fromStdString(planToString(plan));
        runs[i].id = 100 + i;
    }
    compare->setRuns(runs);
    QTableView* diff = compare->diffTable();
    QVERIFY(diff->isVisible());
    QCOMPARE(diff->model()->columnCount(), PlanDiffModel::FirstRunColumn + 3);
    QTRY_VERIFY2(!diff->horizontalScrollBar()->isVisible(), "the runs' columns are wider than the pane");
    const int last = diff->model()->columnCount() - 1;
    QVERIFY(diff->columnViewportPosition(last) + diff->columnWidth(last) <= diff->viewport()->width());
    QCOMPARE(diff->model()->headerData(last, Qt::Horizontal, Qt::ToolTipRole).toString(),
             diff->model()->headerData(last, Qt::Horizontal).toString()); // a cut title, whole
    // A folder longer than its column's share wraps within its row, whole.
    int folder = -1;
    for (int r = 0; r < diff->model()->rowCount(); ++r)
        if (diff->model()->index(r, PlanDiffModel::ItemColumn).data().toString().contains(QStringLiteral("checkpoint folder"))) folder = r;
    QVERIFY(folder >= 0);
    QVERIFY2(diff->rowHeight(folder) >= 2 * diff->fontMetrics().lineSpacing(), qPrintable(QString::number(diff->rowHeight(folder))));
}

int main(int argc, char** argv)
{
    return sb::gui::test::runOnLaptopScreen(argc, argv, [](int c, char** v) {
        TestRunsTable test;
        return QTest::qExec(&test, c, v);
    });
}

#include "tst_gui_runs_table.moc"
