#include "runs_view.hpp"

#include "header_fit.hpp"

#include "compare_view.hpp"
#include "run_page.hpp"
#include "empty_state.hpp"
#include "status_delegate.hpp"

#include "text/run_text.hpp"
#include "models/runs_model.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::gui {

RunsView::RunsView(RunsModel* model, CompareView* compare, QWidget* parent)
    : QWidget(parent), model_(model), proxy_(new RunsFilterProxy(this)), compare_(compare), page_(new RunPage), lower_(new QStackedWidget),
      table_(new QTableView),
      filter_(new QLineEdit), status_(new QComboBox), refresh_(new QPushButton), checkpoints_(new QPushButton),
      attach_(new QPushButton), info_(new QLabel), hint_(new QLabel), splitter_(new QSplitter(Qt::Vertical))
{
    setObjectName(QStringLiteral("runsView"));
    table_->setObjectName(QStringLiteral("runsTable"));
    filter_->setObjectName(QStringLiteral("runsFilter"));
    status_->setObjectName(QStringLiteral("runsStatusFilter"));
    refresh_->setObjectName(QStringLiteral("refreshRuns"));
    checkpoints_->setObjectName(QStringLiteral("showCheckpoints"));
    attach_->setObjectName(QStringLiteral("attachRun"));
    info_->setObjectName(QStringLiteral("runsInfo"));
    proxy_->setSourceModel(model_);
    table_->setModel(proxy_);
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
    table_->horizontalHeader()->setStretchLastSection(true);
    new HeaderFit(table_->horizontalHeader());
    table_->setWordWrap(false);
    filter_->setClearButtonEnabled(true);
    hint_->setWordWrap(true);
    for (const char* s : {"", "running", "completed", "failed", "cancelled"}) status_->addItem(QString(), QString::fromLatin1(s));

    auto* bar = new QHBoxLayout;
    bar->addWidget(filter_, 2);
    bar->addWidget(status_);
    bar->addWidget(refresh_);
    bar->addWidget(checkpoints_);
    bar->addWidget(attach_);
    bar->addWidget(info_, 1);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addLayout(bar);
    topLayout->addWidget(table_, 1);
    topLayout->addWidget(hint_);
    splitter_->addWidget(top);
    lower_->addWidget(page_);
    lower_->addWidget(compare_);
    lower_->setCurrentWidget(compare_); // until a run is selected: empty axes, the hint above says what to do
    splitter_->addWidget(lower_);
    // The table keeps a few rows; the page or the comparison below gets the room.
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);

    connect(filter_, &QLineEdit::textChanged, proxy_, &RunsFilterProxy::setText);
    connect(status_, &QComboBox::currentIndexChanged, this, [this] { proxy_->setStatus(status_->currentData().toString()); });
    connect(refresh_, &QPushButton::clicked, this, &RunsView::refreshRequested);
    connect(checkpoints_, &QPushButton::clicked, this, [this] {
        const QList<qint64> runs = selectedRuns();
        if (!runs.isEmpty()) Q_EMIT checkpointsRequested(runs.front());
    });
    connect(attach_, &QPushButton::clicked, this, [this] {
        const QList<qint64> runs = selectedRuns();
        if (runs.size() == 1) Q_EMIT attachRequested(runs.front());
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsView::selectionChanged);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QWidget::customContextMenuRequested, this, &RunsView::showContextMenu);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        table_->resizeColumnsToContents();
        selectionChanged();
    });
    retranslateUi();
    selectionChanged();
}

QList<qint64> RunsView::selectedRuns() const
{
    QList<QPair<int, qint64>> rows;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows()) rows << qMakePair(i.row(), i.data(RunsModel::RunIdRole).toLongLong());
    std::sort(rows.begin(), rows.end());
    QList<qint64> out;
    for (const auto& r : rows) out << r.second;
    return out;
}

void RunsView::selectRuns(const QList<qint64>& ids)
{
    QItemSelection selection;
    for (qint64 id : ids) {
        const int row = model_->rowOfRun(id);
        if (row < 0) continue;
        const QModelIndex i = proxy_->mapFromSource(model_->index(row, 0));
        selection.select(i, i.siblingAtColumn(RunsModel::ColumnCount - 1));
    }
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void RunsView::setLoadInfo(std::function<QString()> text)
{
    loadInfo_ = std::move(text);
    info_->setText(loadInfo_ ? loadInfo_() : QString());
}

void RunsView::selectionChanged()
{
    const QList<qint64> runs = selectedRuns();
    checkpoints_->setEnabled(runs.size() == 1);
    attach_->setEnabled(runs.size() == 1 && model_->isAttachable(runs.front()));
    // One run: its page; two or more: compared.
    if (runs.size() == 1) {
        lower_->setCurrentWidget(page_);
        Q_EMIT runRequested(runs.front());
    } else if (runs.size() > 1) {
        lower_->setCurrentWidget(compare_);
        Q_EMIT compareRequested(runs);
    }
}

bool RunsView::showsRunPage() const { return lower_->currentWidget() == page_; }

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

void RunsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void RunsView::retranslateUi()
{
    filter_->setPlaceholderText(tr("Filter by name, tag, note, status, reason or plan…"));
    status_->setItemText(0, tr("Every status"));
    for (int i = 1; i < status_->count(); ++i) status_->setItemText(i, runStatusText(status_->itemData(i).toString()));
    refresh_->setText(tr("Refresh"));
    checkpoints_->setText(tr("Checkpoints…"));
    attach_->setText(tr("Attach"));
    attach_->setToolTip(tr("Follow this detached run in the Run area: its backlog is fetched, then its steps as they come"));
    hint_->setText(tr("Select a run to see its charts, memory, logs, plan and checkpoints; select two or more (Ctrl+click) to compare them and to see how their plans differ."));
    if (loadInfo_) info_->setText(loadInfo_());
    model_->retranslate();
}

} // namespace sb::gui
