#include "run_page.hpp"

#include "named_widget.hpp"

#include "chart_view_base.hpp"
#include "empty_state.hpp"
#include "header_fit.hpp"
#include "live_run_view.hpp"
#include "log_panes.hpp"
#include "rank_memory_chart.hpp"
#include "series_chart.hpp"
#include "status_delegate.hpp"

#include "models/checkpoints_model.hpp"
#include "models/plan_diff_model.hpp"
#include "session/past_run.hpp"
#include "text/run_text.hpp"

#include "plan/plan_json.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace sb::gui {

namespace {

void setUpTable(QTableView* table)
{
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    new HeaderFit(table->horizontalHeader());
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideMiddle); // paths: both ends matter
}

} // namespace

RunPage::RunPage(QWidget* parent)
    : QWidget(parent), tabs_(named<QTabWidget>("runPageTabs")), details_(named<QLabel>("runPageDetails")),
      runView_(named<LiveRunView>("pastRunView")), planModel_(new PlanDiffModel(this)), plan_(named<QTableView>("runPagePlan")),
      checkpoints_(new CheckpointsModel(this)), checkpointsTable_(named<QTableView>("runPageCheckpoints")),
      openCheckpoints_(named<QPushButton>("runPageOpenCheckpoints"))
{
    setObjectName(QStringLiteral("runPage"));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse); // a run directory, a host: copied from here

    plan_->setModel(planModel_);
    setUpTable(plan_);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(checkpoints_);
    proxy->setSortRole(CheckpointsModel::SortRole);
    checkpointsTable_->setModel(proxy);
    setUpTable(checkpointsTable_);
    checkpointsTable_->setSortingEnabled(true);
    checkpointsTable_->sortByColumn(CheckpointsModel::StepColumn, Qt::AscendingOrder);
    checkpointsTable_->setItemDelegateForColumn(CheckpointsModel::StatusColumn,
                                                new StatusDelegate(CheckpointsModel::StatusColorRole, checkpointsTable_));
    new EmptyState(checkpointsTable_, [] {
        return tr("This run wrote no checkpoints. To have them, set a checkpoint folder and an interval in the plan's "
                  "training settings (Setup, Training, Checkpoints) before launching.");
    });
    auto* checkpointsBox = new QWidget;
    auto* checkpointsLayout = new QVBoxLayout(checkpointsBox);
    auto* checkpointsBar = new QHBoxLayout;
    checkpointsBar->addWidget(openCheckpoints_);
    checkpointsBar->addStretch(1);
    checkpointsLayout->addLayout(checkpointsBar);
    checkpointsLayout->addWidget(checkpointsTable_, 1);
    connect(openCheckpoints_, &QPushButton::clicked, this, [this] {
        if (runId_ >= 0) Q_EMIT checkpointsRequested(runId_);
    });

    // It shares the Runs area with the table: its charts may be lower than the Run area's (a laptop screen).
    for (QWidget* chart : std::initializer_list<QWidget*>{runView_->lossChart(), runView_->rateChart(), runView_->timeChart(),
                                                          runView_->memoryChart()})
        chart->setMinimumHeight(kMinimumChartHeight - 50);
    runView_->hintLabel()->hide(); // it is the charts tab's tooltip here
    tabs_->addTab(runView_, QString());
    // The logs get a tab of their own: the charts keep the whole page, the log too.
    LogPanes* logs = runView_->logs();
    logs->enlargeButton()->hide();
    tabs_->addTab(logs, QString());
    tabs_->addTab(plan_, QString());
    tabs_->addTab(checkpointsBox, QString());
    tabs_->setDocumentMode(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(details_);
    layout->addWidget(tabs_, 1);
    retranslateUi();
}

void RunPage::showRun(PastRun* run)
{
    run_ = run;
    const StoredRun& stored = run->run();
    runId_ = stored.row.id;
    const store::RunRow& row = stored.row;
    runView_->setRun(run->live(), run->logs(), row.worldSize, row.id, row.name);
    runView_->setStatus(store::parseStatus(row.status).value_or(store::RunStatus::Failed), launch::storedReason(row));
    // A recorded plan that does not read is not shown with defaults in its place.
    std::vector<Plan> plans;
    PlanReadResult read = planFromString(row.planJson.toStdString());
    planReadable_ = read.ok();
    if (planReadable_) plans.push_back(std::move(read.plan));
    planModel_->setPlans(plans.empty() ? QStringList() : QStringList{row.name.isEmpty() ? tr("run %1").arg(row.id) : row.name}, plans);
    plan_->resizeColumnsToContents();
    checkpoints_->setCheckpoints(row.id, stored.checkpoints);
    checkpointsTable_->resizeColumnsToContents();
    retranslateUi();
}

QString RunPage::detailsText() const
{
    if (!run_) return {};
    const StoredRun& stored = run_->run();
    const store::RunRow& r = stored.row;
    if (!stored.error.isEmpty()) return tr("Run %1 cannot be read from the run store: %2").arg(r.id).arg(stored.error);
    QStringList parts;
    const QString where = r.hosts.isEmpty() ? QString() : r.hosts.join(QStringLiteral(", "));
    if (r.backend == QLatin1String("local")) parts << tr("on this machine");
    else if (r.backend == QLatin1String("slurm")) parts << (where.isEmpty() ? tr("through Slurm") : tr("through Slurm on %1").arg(where));
    else parts << (where.isEmpty() ? tr("over SSH") : tr("over SSH on %1").arg(where));
    if (r.isDetached()) parts << tr("detached, run directory %1").arg(r.runDir);
    parts << tr("world size %1").arg(r.worldSize);
    if (r.startedAt > 0) parts << tr("started %1").arg(timeText(r.startedAt));
    if (r.startedAt > 0 && r.endedAt > r.startedAt) parts << tr("ran %1").arg(durationText(r.endedAt - r.startedAt));
    if (r.maxRestarts > 0) parts << tr("restarts %1 of %2").arg(r.restarts).arg(r.maxRestarts);
    if (r.parentRun >= 0) parts << tr("resumed from run %1").arg(r.parentRun);
    if (!r.initFrom.isEmpty()) parts << tr("started from the weights %1").arg(r.initFrom);
    for (const store::RankSummary& s : stored.ranks)
        if (s.rank == 0 && !std::isnan(s.meanTokensPerS)) parts << tr("mean %1").arg(rateText(s.meanTokensPerS));
    if (r.malformedLines > 0) parts << tr("%1 unreadable lines from the ranks").arg(r.malformedLines);
    if (!planReadable_) parts << tr("its recorded plan cannot be read");
    if (!r.tags.isEmpty()) parts << tr("tags: %1").arg(r.tags.join(QStringLiteral(", ")));
    QString text = parts.join(QStringLiteral(" · "));
    if (!r.notes.isEmpty()) text += QLatin1Char('\n') + r.notes;
    return text;
}

void RunPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        planModel_->retranslate();
        checkpoints_->retranslate();
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void RunPage::retranslateUi()
{
    tabs_->setTabText(0, tr("Charts and memory"));
    tabs_->setTabToolTip(0, runView_->hintLabel()->toolTip());
    tabs_->setTabText(1, tr("Logs"));
    tabs_->setTabText(2, tr("Plan"));
    tabs_->setTabText(3, checkpoints_->rowCount() > 0 ? tr("Checkpoints (%1)").arg(checkpoints_->rowCount()) : tr("Checkpoints"));
    openCheckpoints_->setText(tr("Verify, export or restore…"));
    openCheckpoints_->setToolTip(tr("Opens this run in the Checkpoints area"));
    details_->setText(detailsText());
}

} // namespace sb::gui
