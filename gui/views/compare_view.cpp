#include "compare_view.hpp"

#include "compared_memory_chart.hpp"
#include "header_fit.hpp"
#include "named_widget.hpp"
#include "series_chart.hpp"

#include "models/compared_memory_model.hpp"
#include "models/plan_diff_model.hpp"
#include "plan/plan_json.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStyle>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <cmath>

namespace sb::gui {

using app::ComparedRun;
using app::SeriesTable;

namespace {
// Distinct, print-friendly line colours (Tableau 10).
QColor runColor(int i)
{
    static const QRgb colors[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                  0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor::fromRgb(colors[i % 10]);
}
} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent), alignBox_(named<QComboBox>("compareAlign")), alignLabel_(new QLabel), smoothingLabel_(new QLabel),
      smoothing_(named<QSlider>("compareSmoothing", Qt::Horizontal)), diffTitle_(new QLabel),
      loss_(named<SeriesChart>("compareLossChart")), rate_(named<SeriesChart>("compareRateChart")),
      diffModel_(new PlanDiffModel(this)), diff_(named<QTableView>("planDiffTable")), tabs_(named<QTabWidget>("compareTabs")),
      memoryChart_(named<ComparedMemoryChart>("compareMemoryChart")), memoryModel_(new ComparedMemoryModel(this)),
      memoryTable_(named<QTableView>("compareMemoryTable"))
{
    setObjectName(QStringLiteral("compareView"));
    loss_->setExportName(QStringLiteral("compare-loss"));
    loss_->setLogScaleAllowed(true);
    rate_->setExportName(QStringLiteral("compare-tokens-per-second"));
    rate_->setYFromZero(true);
    alignBox_->addItem(QString());
    alignBox_->addItem(QString());
    alignBox_->addItem(QString());
    diff_->setModel(diffModel_);
    diff_->verticalHeader()->hide();
    diff_->horizontalHeader()->setStretchLastSection(true);
    diff_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // A value wraps (a path anywhere) rather than being cut: the runs share a narrow pane.
    diff_->setWordWrap(true);
    // A run's title too long for its share shows its start ("run 12 (ba"), and whole in the tooltip.
    diff_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    diff_->viewport()->installEventFilter(this); // its width shared again when it changes
    QFont bold = diffTitle_->font();
    bold.setBold(true);
    diffTitle_->setFont(bold);

    auto* bar = new QHBoxLayout;
    bar->addWidget(alignLabel_);
    bar->addWidget(alignBox_);
    bar->addSpacing(16);
    bar->addWidget(smoothingLabel_);
    bar->addWidget(smoothing_);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(60);
    smoothing_->setMaximumWidth(160);
    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) {
        loss_->setSmoothing(v / 100.0);
        rate_->setSmoothing(v / 100.0);
    });
    bar->addStretch(1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(loss_);
    charts->addWidget(rate_);
    auto* chartBox = new QWidget;
    auto* chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addLayout(bar);
    chartLayout->addLayout(charts, 1);
    // Memory: the bars for the eye, the table for the numbers of every rank (more than the chart draws).
    memoryTable_->setModel(memoryModel_);
    memoryTable_->verticalHeader()->hide();
    new HeaderFit(memoryTable_->horizontalHeader());
    memoryTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    memoryTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    memoryTable_->setWordWrap(false);
    auto* memoryBox = new QSplitter(Qt::Horizontal);
    memoryBox->addWidget(memoryChart_);
    memoryBox->addWidget(memoryTable_);
    memoryBox->setStretchFactor(0, 3);
    memoryBox->setStretchFactor(1, 2);
    tabs_->addTab(chartBox, QString());
    tabs_->addTab(memoryBox, QString());
    tabs_->setDocumentMode(true);
    auto* diffBox = new QWidget;
    auto* diffLayout = new QVBoxLayout(diffBox);
    diffLayout->setContentsMargins(0, 0, 0, 0);
    diffLayout->addWidget(diffTitle_);
    diffLayout->addWidget(diff_, 1);
    diffBox->setMinimumWidth(380);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tabs_);
    split->addWidget(diffBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(alignBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setAlign(static_cast<Align>(i)); });
    for (SeriesChart* c : {loss_, rate_}) connect(c, &SeriesChart::languageChanged, this, &CompareView::retranslateUi);
    retranslateUi();
}

QString CompareView::label(const ComparedRun& run)
{
    return run.name.isEmpty() ? tr("run %1").arg(run.id) : tr("run %1 (%2)").arg(run.id).arg(run.name);
}

void CompareView::setRuns(const QList<ComparedRun>& runs)
{
    runs_ = runs;
    QStringList labels;
    std::vector<Plan> plans;
    for (const ComparedRun& r : runs_) {
        labels << label(r);
        plans.push_back(planFromString(r.planJson.toStdString()).plan);
    }
    diffModel_->setPlans(labels, plans);
    fitDiffColumns();
    showMemory();
    rebuild();
    retranslateUi();
}

void CompareView::fitDiffColumns()
{
    constexpr int kLeastRunColumn = 60;
    diff_->resizeColumnsToContents();
    const int runs = diffModel_->columnCount() - PlanDiffModel::FirstRunColumn;
    if (runs <= 0) return;
    const int width = diff_->viewport()->width();
    diff_->setColumnWidth(PlanDiffModel::ItemColumn, std::min(diff_->columnWidth(PlanDiffModel::ItemColumn), width * 2 / 5));
    int items = 0;
    for (int c = 0; c < PlanDiffModel::FirstRunColumn; ++c) items += diff_->columnWidth(c);
    const int share = std::max(kLeastRunColumn, (width - items) / runs);
    for (int c = PlanDiffModel::FirstRunColumn; c < diffModel_->columnCount(); ++c)
        diff_->setColumnWidth(c, std::min(diff_->columnWidth(c), share));
    diff_->resizeRowsToContents();
}

bool CompareView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == diff_->viewport() && event->type() == QEvent::Resize) fitDiffColumns();
    return QWidget::eventFilter(watched, event);
}

void CompareView::showMemory()
{
    QStringList labels;
    QList<QColor> colors;
    for (int i = 0; i < runs_.size(); ++i) {
        labels << label(runs_[i]);
        colors << runColor(i);
    }
    memoryModel_->setRuns(runs_, labels);
    memoryChart_->setRuns(runs_, labels, colors);
    memoryTable_->resizeColumnsToContents();
    // Every column readable without scrolling sideways; the chart takes the rest.
    int width = memoryTable_->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, memoryTable_) + 2 * memoryTable_->frameWidth();
    const QAbstractItemView* table = memoryTable_; // where sizeHintForColumn is public
    for (int c = 0; c < ComparedMemoryModel::ColumnCount; ++c)
        width += std::max(table->sizeHintForColumn(c), memoryTable_->horizontalHeader()->sectionSizeHint(c));
    memoryTable_->setMinimumWidth(std::min(width, 520));
}

void CompareView::setAlign(Align align)
{
    if (alignBox_->currentIndex() != static_cast<int>(align)) alignBox_->setCurrentIndex(static_cast<int>(align));
    if (align == align_) return;
    align_ = align;
    rebuild();
    retranslateUi();
}

void CompareView::rebuild()
{
    loss_->removeAll();
    rate_->removeAll();
    lossIds_.clear();
    rateIds_.clear();
    evalIds_.clear();
    for (int i = 0; i < runs_.size(); ++i) {
        const ComparedRun& r = runs_[i];
        const SeriesTable* t = align_ == Align::ByStep ? r.byStep.get() : align_ == Align::ByTime ? r.byTime.get() : r.byClock.get();
        QColor color = runColor(i);
        color.setAlpha(200); // runs that trained alike overlap: both stay visible
        QPen pen(color);
        pen.setWidthF(1.6);
        // Each run: its raw values faint, its smoothed values named in the legend.
        QColor faint = color;
        faint.setAlpha(55);
        QPen raw(faint);
        raw.setWidthF(1.0);
        for (SeriesChart* chart : {loss_, rate_}) {
            const int column = chart == loss_ ? ComparedRun::Loss : ComparedRun::TokensPerS;
            chart->setSmoothing(smoothing_->value() / 100.0);
            chart->setSeriesInLegend(chart->addLine(t, column, raw), false);
            const int id = chart->addSmoothedLine(t, column, pen);
            chart->setSeriesName(id, label(r));
            (chart == loss_ ? lossIds_ : rateIds_).push_back(id);
        }
        // Its validation loss where it took one: dashed, with its points.
        double low = 0, high = 0;
        int evalId = -1;
        if (t->valueRange(ComparedRun::EvalLoss, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), &low, &high)) {
            QPen eval(color);
            eval.setWidthF(1.6);
            eval.setStyle(Qt::DashLine);
            evalId = loss_->addLine(t, ComparedRun::EvalLoss, eval);
            loss_->setPointsShown(evalId, true);
        }
        evalIds_.push_back(evalId);
    }
    const double origin = align_ == Align::ByClock && !runs_.isEmpty() ? runs_.front().clockOrigin : std::nan("");
    for (SeriesChart* chart : {loss_, rate_}) chart->setClockOrigin(origin);
    loss_->follow();
    rate_->follow();
    loss_->refreshNow();
    rate_->refreshNow();
}

void CompareView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        diffModel_->retranslate();
        fitDiffColumns();
        showMemory(); // the run labels and the table's texts
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void CompareView::retranslateUi()
{
    tabs_->setTabText(0, tr("Loss and throughput"));
    tabs_->setTabText(1, tr("Memory per rank"));
    alignLabel_->setText(tr("Align"));
    alignBox_->setItemText(0, tr("by step"));
    alignBox_->setItemText(1, tr("by time since the first step"));
    alignBox_->setItemText(2, tr("by wall-clock time"));
    const QString x = align_ == Align::ByStep ? tr("Step") : align_ == Align::ByTime ? tr("Seconds") : tr("Time");
    loss_->setTitle(tr("Loss"));
    loss_->setAxisTitles(x, tr("Loss"));
    rate_->setTitle(tr("Throughput"));
    rate_->setAxisTitles(x, tr("Tokens/s"));
    for (std::size_t i = 0; i < lossIds_.size() && i < static_cast<std::size_t>(runs_.size()); ++i) {
        const QString name = label(runs_[static_cast<qsizetype>(i)]);
        loss_->setSeriesName(lossIds_[i], name);
        rate_->setSeriesName(rateIds_[i], name);
        if (evalIds_[i] >= 0) loss_->setSeriesName(evalIds_[i], tr("%1 (validation)").arg(name));
    }
    smoothingLabel_->setText(tr("Smoothing"));
    smoothing_->setToolTip(tr("Exponential moving average of each run's loss and throughput, as TensorBoard smooths: 0 is none"));
    const int n = static_cast<int>(diffModel_->differences().size());
    diffTitle_->setText(runs_.size() == 1 ? tr("The plan of %1").arg(label(runs_.front()))
                        : runs_.size() < 2 ? tr("Plan differences")
                        : n == 0        ? tr("The plans are the same")
                                        : tr("Plan differences: %n item(s)", nullptr, n));
}

} // namespace sb::gui
