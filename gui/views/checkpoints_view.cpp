#include "checkpoints_view.hpp"

#include "named_widget.hpp"

#include "header_fit.hpp"

#include "empty_state.hpp"

#include "status_delegate.hpp"

#include "models/checkpoints_model.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace sb::gui {

using app::CheckpointEntry;

CheckpointsView::CheckpointsView(CheckpointsModel* model, QWidget* parent)
    : Retranslated<QWidget>(parent), model_(model), proxy_(new QSortFilterProxyModel(this)),
      runs_(named<QComboBox>("checkpointRun")), runLabel_(new QLabel), table_(named<QTableView>("checkpointsTable")),
      verify_(named<QPushButton>("verifyCheckpoint")), export_(named<QPushButton>("exportCheckpoint")),
      exportHf_(named<QPushButton>("exportCheckpointHf")), restore_(named<QPushButton>("restoreCheckpoint")),
      cancel_(named<QPushButton>("cancelCheckpointJob")), progress_(named<QProgressBar>("checkpointProgress")),
      message_(named<QLabel>("checkpointMessage"))
{
    setObjectName(QStringLiteral("checkpointsView"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runs_->setMinimumContentsLength(40);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(CheckpointsModel::SortRole);
    table_->setModel(proxy_);
    new EmptyState(table_, [this] {
        return runs_->count() == 0
                   ? tr("No runs yet, so no checkpoints. Launch a run from the Run area first.")
                   : tr("No checkpoints for this run. To save some, set a checkpoint folder (and how often) in Setup ▸ "
                        "Training before launching; a run then writes step-NNNNNN folders there.");
    });
    table_->setItemDelegateForColumn(CheckpointsModel::StatusColumn, new StatusDelegate(CheckpointsModel::StatusColorRole, table_));
    table_->setSortingEnabled(true);
    table_->sortByColumn(CheckpointsModel::StepColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    new HeaderFit(table_->horizontalHeader());
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(false);

    auto* top = new QHBoxLayout;
    top->addWidget(runLabel_);
    top->addWidget(runs_, 1);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {verify_, export_, exportHf_, restore_}) buttons->addWidget(b);
    buttons->addSpacing(16);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(cancel_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);
    layout->addWidget(message_);

    connect(runs_, &QComboBox::currentIndexChanged, this, [this] {
        if (runs_->currentIndex() >= 0) Q_EMIT runChosen(currentRun());
    });
    connect(verify_, &QPushButton::clicked, this, [this] { if (selectedRow() >= 0) Q_EMIT verifyRequested(selectedRow()); });
    connect(export_, &QPushButton::clicked, this, [this] { if (selectedRow() >= 0) Q_EMIT exportRequested(selectedRow()); });
    connect(exportHf_, &QPushButton::clicked, this, [this] { if (selectedRow() >= 0) Q_EMIT exportHfRequested(selectedRow()); });
    connect(restore_, &QPushButton::clicked, this, [this] { if (selectedRow() >= 0) Q_EMIT restoreRequested(selectedRow()); });
    connect(cancel_, &QPushButton::clicked, this, &CheckpointsView::cancelRequested);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CheckpointsView::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        table_->resizeColumnsToContents();
        updateButtons();
    });
    connect(model_, &QAbstractItemModel::dataChanged, this, &CheckpointsView::updateButtons);
    setBusy(false);
    retranslateUi();
}

void CheckpointsView::setRuns(const QList<QPair<qint64, QString>>& runs)
{
    const qint64 current = currentRun();
    const QSignalBlocker block(runs_);
    runs_->clear();
    for (const auto& [id, label] : runs) runs_->addItem(label, id);
    // Keep the chosen run; at first, the newest.
    const int keep = runs_->findData(current);
    runs_->setCurrentIndex(keep >= 0 ? keep : runs.isEmpty() ? -1 : 0);
}

void CheckpointsView::showRun(qint64 runId)
{
    const int i = runs_->findData(runId);
    if (i >= 0 && i != runs_->currentIndex()) runs_->setCurrentIndex(i);
    else if (i >= 0) Q_EMIT runChosen(runId);
}

qint64 CheckpointsView::currentRun() const { return runs_->currentIndex() >= 0 ? runs_->currentData().toLongLong() : -1; }

int CheckpointsView::selectedRow() const
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : proxy_->mapToSource(rows.front()).row();
}

void CheckpointsView::selectRow(int modelRow)
{
    const QModelIndex i = proxy_->mapFromSource(model_->index(modelRow, 0));
    table_->selectionModel()->select(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void CheckpointsView::setBusy(bool busy)
{
    busy_ = busy;
    cancel_->setEnabled(busy);
    runs_->setEnabled(!busy);
    if (busy) progress_->setValue(0);
    updateButtons();
}

void CheckpointsView::setProgress(double fraction) { progress_->setValue(static_cast<int>(std::lround(fraction * 1000))); }

void CheckpointsView::setMessage(const QString& text, bool error)
{
    message_->setText(text);
    QPalette p = message_->palette();
    p.setColor(QPalette::WindowText, error ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::WindowText));
    message_->setPalette(p);
}

void CheckpointsView::updateButtons()
{
    const int row = selectedRow();
    const bool onDisk = row >= 0 && model_->entry(row).status != CheckpointEntry::Missing;
    const bool sharded = row >= 0 && model_->entry(row).kind == QLatin1String("sharded");
    verify_->setEnabled(!busy_ && onDisk && sharded);
    export_->setEnabled(!busy_ && onDisk && sharded);
    exportHf_->setEnabled(!busy_ && onDisk && sharded);
    restore_->setEnabled(!busy_ && row >= 0 && model_->entry(row).restorable());
}

void CheckpointsView::retranslateUi()
{
    runLabel_->setText(tr("Run"));
    verify_->setText(tr("Verify"));
    verify_->setToolTip(tr("Check every file's size and SHA-256 and every shard against the index"));
    export_->setText(tr("Export .safetensors…"));
    export_->setToolTip(tr("Write the unsharded model as one .safetensors file any reader can load"));
    exportHf_->setText(tr("Export for Hugging Face…"));
    exportHf_->setToolTip(tr("Write a new folder transformers loads with from_pretrained: config.json, Hugging Face names and "
                             "layout, fp32 (Llama, Mistral, Qwen2, Qwen3 and GPT-2 plans)"));
    restore_->setText(tr("Restore as a new run…"));
    restore_->setToolTip(tr("Start a new run that resumes from this checkpoint, at any world size"));
    cancel_->setText(tr("Cancel"));
    model_->retranslate();
    Q_EMIT retranslated();
}

} // namespace sb::gui
