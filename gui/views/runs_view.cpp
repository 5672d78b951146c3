#include "runs_view.hpp"

#include "named_widget.hpp"

#include "column_chooser.hpp"
#include "compare_view.hpp"
#include "empty_state.hpp"
#include "parallel_coordinates.hpp"
#include "run_page.hpp"
#include "status_delegate.hpp"

#include "models/runs_group_proxy.hpp"
#include "models/runs_model.hpp"
#include "text/run_text.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::gui {

namespace {
// The columns a person hid (RunsModel::columnKey), comma-separated.
const app::Setting<QString> kHiddenColumns{QStringLiteral("runs/hiddenColumns"), QStringLiteral("tags,reduce,micro")};
constexpr int kRowsKept = 10; // rows the table keeps visible while a page or comparison is below
} // namespace

RunsView::RunsView(RunsModel* model, CompareView* compare, QWidget* parent)
    : Retranslated<QWidget>(parent), model_(model), proxy_(new RunsFilterProxy(this)), groups_(new RunsGroupProxy(this)),
      compare_(compare), page_(new RunPage), lower_(new QWidget), lowerScroll_(new QScrollArea),
      table_(named<QTableView>("runsTable")), parallel_(new ParallelCoordinates), views_(named<QTabWidget>("runsViewTabs")),
      filter_(named<QLineEdit>("runsFilter")), status_(named<QComboBox>("runsStatusFilter")), groupLabel_(new QLabel),
      group_(named<QComboBox>("runsGroupBy")), refresh_(named<QPushButton>("refreshRuns")),
      checkpoints_(named<QPushButton>("showCheckpoints")), attach_(named<QPushButton>("attachRun")),
      info_(named<QLabel>("runsInfo")), hint_(new QLabel), splitter_(new QSplitter(Qt::Vertical)), fitTimer_(new QTimer(this))
{
    setObjectName(QStringLiteral("runsView"));
    proxy_->setSourceModel(model_);
    groups_->setSourceModel(proxy_);
    buildTable();
    parallel_->setModel(proxy_, RunsModel::planFieldColumns() + RunsModel::outcomeColumns(), RunsModel::LossColumn);
    auto* parallelScroll = new QScrollArea;
    parallelScroll->setWidget(parallel_);
    parallelScroll->setWidgetResizable(true);
    parallelScroll->setFrameShape(QFrame::NoFrame);
    hint_->setWordWrap(true);
    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    tableLayout->addWidget(hint_);
    views_->addTab(tableBox, QString());
    views_->addTab(parallelScroll, QString());
    views_->setDocumentMode(true);
    // Where the runs come from, beside the tabs: no row of its own, and no minimum width (the path is in the tooltip).
    info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    info_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    views_->setCornerWidget(info_, Qt::TopRightCorner);
    splitter_->addWidget(views_);
    // One of the two shown at a time; unlike a stack, the hidden one's minimum height does not count.
    auto* lowerLayout = new QVBoxLayout(lower_);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(page_);
    lowerLayout->addWidget(compare_);
    page_->hide();
    // Scrolled when the table keeps more room than the page's minimum leaves.
    lowerScroll_->setWidget(lower_);
    lowerScroll_->setWidgetResizable(true);
    lowerScroll_->setFrameShape(QFrame::NoFrame);
    lowerScroll_->setMinimumHeight(120);
    splitter_->addWidget(lowerScroll_);
    splitter_->setChildrenCollapsible(false);
    lowerScroll_->hide(); // until a run is selected: the table has the whole height
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildBar());
    layout->addWidget(splitter_, 1);

    fitTimer_->setSingleShot(true);
    fitTimer_->setInterval(0);
    connect(fitTimer_, &QTimer::timeout, this, &RunsView::fitColumns);
    connect(parallel_, &ParallelCoordinates::runsPicked, this, &RunsView::runsPicked);
    retranslateUi();
    selectionChanged();
}

void RunsView::buildTable()
{
    table_->setModel(groups_);
    new EmptyState(table_, [this] {
        return model_->rowCount() == 0
                   ? tr("No runs yet. Set up a plan, then press Launch in the Run area (or run 'shardbench-cli run "
                        "PLAN.json'): every run of this store is listed here.")
                   : tr("No run matches the filter.");
    });
    table_->setItemDelegateForColumn(RunsModel::StatusColumn, new StatusDelegate(RunsModel::StatusColorRole, table_));
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunsModel::IdColumn, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setStretchLastSection(false); // no 500 px memory column: every column fits its content
    table_->horizontalHeader()->setResizeContentsPrecision(300);
    table_->setWordWrap(false);
    columns_ = new ColumnChooser(table_->horizontalHeader(), kHiddenColumns,
                                 [](int c) { return c == RunsModel::IdColumn ? QString() : RunsModel::columnKey(c); });
    connect(columns_, &ColumnChooser::columnsChanged, fitTimer_, qOverload<>(&QTimer::start));
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsView::selectionChanged);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QWidget::customContextMenuRequested, this, &RunsView::showContextMenu);
    // A group's header row selects the runs under it.
    connect(table_, &QAbstractItemView::clicked, this, [this](const QModelIndex& i) {
        QList<qint64> runs;
        for (int row : groups_->sourceRowsOfGroup(i.row())) runs << proxy_->index(row, 0).data(RunsModel::RunIdRole).toLongLong();
        if (!runs.isEmpty()) selectRuns(runs);
    });
    // The grouping model resets on every change of the rows (a sort, a filter): the selection is kept across.
    auto capture = [this] {
        if (keep_.isEmpty() && !restoring_) keep_ = selectedRuns();
    };
    connect(proxy_, &QAbstractItemModel::layoutAboutToBeChanged, this, capture);
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeInserted, this, capture);
    connect(proxy_, &QAbstractItemModel::rowsAboutToBeRemoved, this, capture);
    connect(groups_, &QAbstractItemModel::modelAboutToBeReset, this, capture);
    connect(proxy_, &QAbstractItemModel::modelAboutToBeReset, this, [this] { sourceReset_ = true; });
    connect(groups_, &QAbstractItemModel::modelReset, this, &RunsView::groupsReset);
    connect(groups_, &QAbstractItemModel::dataChanged, fitTimer_, qOverload<>(&QTimer::start));
}

QWidget* RunsView::buildBar()
{
    filter_->setClearButtonEnabled(true);
    for (const char* s : {"", "running", "completed", "failed", "cancelled"}) status_->addItem(QString(), QString::fromLatin1(s));
    group_->addItem(QString(), -1);
    const QList<int> groupable = RunsModel::planFieldColumns() + QList<int>{RunsModel::StatusColumn};
    for (int c : groupable) group_->addItem(QString(), c);
    group_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_, 2);
    layout->addWidget(status_);
    layout->addWidget(groupLabel_);
    layout->addWidget(group_);
    layout->addWidget(refresh_);
    layout->addWidget(checkpoints_);
    layout->addWidget(attach_);
    layout->addStretch(1);
    connect(filter_, &QLineEdit::textChanged, proxy_, &RunsFilterProxy::setText);
    connect(status_, &QComboBox::currentIndexChanged, this, [this] { proxy_->setStatus(status_->currentData().toString()); });
    connect(group_, &QComboBox::currentIndexChanged, this, [this] { setGroupColumn(group_->currentData().toInt()); });
    connect(refresh_, &QPushButton::clicked, this, &RunsView::refreshRequested);
    connect(checkpoints_, &QPushButton::clicked, this, [this] {
        const QList<qint64> runs = selectedRuns();
        if (!runs.isEmpty()) Q_EMIT checkpointsRequested(runs.front());
    });
    connect(attach_, &QPushButton::clicked, this, [this] {
        const QList<qint64> runs = selectedRuns();
        if (runs.size() == 1) Q_EMIT attachRequested(runs.front());
    });
    return bar;
}

void RunsView::setGroupColumn(int column)
{
    const int index = group_->findData(column);
    if (index >= 0 && group_->currentIndex() != index) group_->setCurrentIndex(index); // comes back here
    else groups_->setGroupColumn(column);
}

void RunsView::groupsReset()
{
    table_->clearSpans();
    for (int row = 0; row < groups_->rowCount(); ++row)
        if (groups_->isHeader(row)) table_->setSpan(row, 0, 1, RunsModel::ColumnCount);
    // After the runs were read again the controller selects them again; otherwise the kept ones.
    if (!sourceReset_) {
        restoring_ = true;
        selectRuns(keep_);
        restoring_ = false;
    }
    keep_.clear();
    sourceReset_ = false;
    fitTimer_->start();
}

void RunsView::fitColumns()
{
    // Exactly the width of the widest text shown and of the title, in the current language.
    table_->resizeColumnsToContents();
}

QModelIndex RunsView::tableIndexOfRun(qint64 id) const
{
    const int row = model_->rowOfRun(id);
    return row < 0 ? QModelIndex() : groups_->mapFromSource(proxy_->mapFromSource(model_->index(row, 0)));
}

QList<qint64> RunsView::selectedRuns() const
{
    QList<QPair<int, qint64>> rows;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
        if (!groups_->isHeader(i.row())) rows << qMakePair(i.row(), i.data(RunsModel::RunIdRole).toLongLong());
    std::sort(rows.begin(), rows.end());
    QList<qint64> out;
    for (const auto& r : rows) out << r.second;
    return out;
}

void RunsView::selectRuns(const QList<qint64>& ids)
{
    QItemSelection selection;
    for (qint64 id : ids)
        if (const QModelIndex i = tableIndexOfRun(id); i.isValid()) selection.select(i, i.siblingAtColumn(RunsModel::ColumnCount - 1));
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void RunsView::runsPicked(const QList<qint64>& runs, bool extend)
{
    QList<qint64> chosen = runs;
    if (extend)
        for (qint64 id : selectedRuns())
            if (!chosen.contains(id)) chosen << id;
    selectRuns(chosen);
    if (!chosen.isEmpty()) table_->scrollTo(tableIndexOfRun(chosen.front()));
}

void RunsView::setLoadInfo(std::function<QString()> text)
{
    loadInfo_ = std::move(text);
    info_->setText(loadInfo_ ? loadInfo_() : QString());
    info_->setToolTip(info_->text());
}

void RunsView::selectionChanged()
{
    const QList<qint64> runs = selectedRuns();
    checkpoints_->setEnabled(runs.size() == 1);
    attach_->setEnabled(runs.size() == 1 && model_->isAttachable(runs.front()));
    parallel_->setSelectedRuns(QSet<qint64>(runs.begin(), runs.end()));
    showDetails(!runs.isEmpty());
    // The same runs selected again after a sort or a filter: what is below stays.
    if (restoring_ && QSet<qint64>(runs.begin(), runs.end()) == QSet<qint64>(shown_.begin(), shown_.end())) return;
    shown_ = runs;
    // One run: its page; two or more: compared.
    if (runs.size() == 1) {
        compare_->hide();
        page_->show();
        Q_EMIT runRequested(runs.front());
    } else if (runs.size() > 1) {
        page_->hide();
        compare_->show();
        Q_EMIT compareRequested(runs);
    }
}

void RunsView::showDetails(bool shown)
{
    if (shown == !lowerScroll_->isHidden()) return;
    // What is above and below the rows, measured while the hint under the table is still laid out.
    const QHeaderView* header = table_->horizontalHeader();
    int around = views_->tabBar()->sizeHint().height() + std::max(header->height(), header->sizeHint().height()) + 2 * table_->frameWidth();
    if (table_->isVisible() && table_->viewport()->height() > 0)
        around = views_->height() - table_->viewport()->height() -
                 (hint_->isHidden() ? 0 : hint_->height() + hint_->parentWidget()->layout()->spacing());
    hint_->setVisible(!shown);
    lowerScroll_->setVisible(shown);
    if (!shown) return;
    // The table keeps ten rows (more when there is room); the page or comparison gets the rest.
    splitter_->refresh(); // the splitter takes the shown page in now, not after these sizes
    const int total = splitter_->height() - splitter_->handleWidth();
    const int upper = std::max(around + kRowsKept * table_->verticalHeader()->defaultSectionSize() + 2, total * 2 / 5);
    splitter_->setSizes({upper, std::max(0, total - upper)});
}

bool RunsView::showsDetails() const { return !lowerScroll_->isHidden(); }

bool RunsView::showsRunPage() const { return !page_->isHidden(); }

void RunsView::showContextMenu(const QPoint& at)
{
    const QList<qint64> runs = selectedRuns();
    if (runs.isEmpty()) return;
    QMenu menu(this);
    QAction* notes = menu.addAction(tr("Rename, tags and notes…"), this, [this, runs] { Q_EMIT annotateRequested(runs.front()); });
    notes->setEnabled(runs.size() == 1);
    QAction* checkpoints = menu.addAction(checkpoints_->text(), checkpoints_, &QPushButton::click);
    checkpoints->setEnabled(checkpoints_->isEnabled());
    QAction* attach = menu.addAction(attach_->text(), attach_, &QPushButton::click);
    attach->setEnabled(attach_->isEnabled());
    menu.addSeparator();
    menu.addAction(runs.size() == 1 ? tr("Delete run %1…").arg(runs.front()) : tr("Delete %1 runs…").arg(runs.size()), this,
                   [this, runs] { Q_EMIT deleteRequested(runs); });
    menu.exec(table_->viewport()->mapToGlobal(at));
}

void RunsView::retranslateUi()
{
    filter_->setPlaceholderText(tr("Filter: text, or fields such as world=8 lr<1e-3 param:bf16 loss<3"));
    filter_->setToolTip(tr("Words find runs by name, tag, note, status, reason or plan. KEY:TEXT, KEY=VALUE, KEY<N, KEY>N, KEY<=N "
                           "and KEY>=N keep the runs whose column matches; keys: world, reshard, param, reduce, offload, micro, "
                           "batch, lr, loss, eval, rate, peak, duration, status, name, tags."));
    status_->setItemText(0, tr("Every status"));
    for (int i = 1; i < status_->count(); ++i) status_->setItemText(i, runStatusText(status_->itemData(i).toString()));
    groupLabel_->setText(tr("Group by"));
    group_->setItemText(0, tr("nothing"));
    model_->retranslate();
    for (int i = 1; i < group_->count(); ++i) group_->setItemText(i, model_->headerData(group_->itemData(i).toInt(), Qt::Horizontal).toString());
    refresh_->setText(tr("Refresh"));
    checkpoints_->setText(tr("Checkpoints…"));
    attach_->setText(tr("Attach"));
    attach_->setToolTip(tr("Follow this detached run in the Run area: its backlog is fetched, then its steps as they come"));
    views_->setTabText(0, tr("Table"));
    views_->setTabText(1, tr("Parallel coordinates"));
    views_->setTabToolTip(1, tr("Every run as a line across its plan's fields and what it reached: final loss, eval loss, tokens/s, "
                                "peak memory"));
    hint_->setText(tr("Select a run to see its charts, memory, logs, plan and checkpoints; select two or more (Ctrl+click) to compare them and to see how their plans differ."));
    table_->horizontalHeader()->setToolTip(tr("Right-click to choose the columns shown"));
    if (loadInfo_) info_->setText(loadInfo_());
    info_->setToolTip(info_->text());
    fitTimer_->start(); // the new language's widths, not the old one's
}

} // namespace sb::gui
