#include "problems_panel.hpp"

#include "header_fit.hpp"

#include "models/problems_model.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace sb::gui {

ProblemsPanel::ProblemsPanel(ProblemsModel* model, QWidget* parent)
    : QWidget(parent), model_(model), summary_(new QLabel), table_(new QTableView)
{
    setObjectName(QStringLiteral("problemsPanel"));
    table_->setObjectName(QStringLiteral("problemsTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(ProblemsModel::SeverityColumn, 100);
    table_->setColumnWidth(ProblemsModel::PathColumn, 300);
    table_->setColumnWidth(ProblemsModel::ModuleColumn, 160);
    new HeaderFit(table_->horizontalHeader());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    connect(model_, &QAbstractItemModel::modelReset, this, &ProblemsPanel::updateSummary);
    connect(table_, &QTableView::clicked, this, &ProblemsPanel::activate);
    connect(table_, &QTableView::activated, this, &ProblemsPanel::activate);
    updateSummary();
}

QString ProblemsPanel::summaryText() const { return summary_->text(); }

void ProblemsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        model_->retranslate();
        updateSummary();
    }
    QWidget::changeEvent(event);
}

void ProblemsPanel::updateSummary()
{
    const int errors = model_->errorCount();
    const int warnings = model_->warningCount();
    if (errors == 0 && warnings == 0) summary_->setText(tr("No problems: the plan is valid."));
    else summary_->setText(tr("%n error(s)", nullptr, errors) + QStringLiteral(", ") + tr("%n warning(s)", nullptr, warnings));
}

void ProblemsPanel::activate(const QModelIndex& index)
{
    if (index.isValid()) Q_EMIT problemActivated(model_->location(index.row()));
}

} // namespace sb::gui
