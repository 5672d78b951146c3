#include "live_run_view.hpp"

#include "named_widget.hpp"

#include "log_panes.hpp"
#include "rank_memory_chart.hpp"
#include "clock_ticks.hpp"
#include "series_chart.hpp"
#include "system_chart.hpp"

#include "models/live_run_model.hpp"
#include "models/run_log_model.hpp"
#include "text/run_text.hpp"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace sb::gui {

using app::SeriesTable;

namespace {

QPen pen(QColor c, double width = 1.5, Qt::PenStyle style = Qt::SolidLine)
{
    QPen p(c);
    p.setWidthF(width);
    p.setStyle(style);
    return p;
}

// Columns of a live table as CSV, with the step first.
QByteArray tableCsv(const SeriesTable& t, const QList<QPair<const char*, int>>& columns)
{
    QByteArray out = "step";
    for (const auto& c : columns) out += ',' + QByteArray(c.first);
    out += '\n';
    for (qsizetype i = 0; i < t.size(); ++i) {
        out += QByteArray::number(t.x(i), 'g', 17);
        for (const auto& c : columns) {
            const double v = t.value(c.second, i);
            out += ',';
            if (!std::isnan(v)) out += QByteArray::number(v, 'g', 17);
        }
        out += '\n';
    }
    return out;
}

} // namespace

LiveRunView::LiveRunView(QWidget* parent)
    : Retranslated<QWidget>(parent), state_(named<QLabel>("runState")), progress_(named<QLabel>("runProgress")),
      hint_(named<QLabel>("chartHelp")), smoothing_(named<QSlider>("smoothingSlider", Qt::Horizontal)), smoothingLabel_(new QLabel), smoothingValue_(new QLabel),
      xAxis_(named<QComboBox>("liveXAxis")), xAxisLabel_(new QLabel), loss_(named<SeriesChart>("lossChart")),
      rate_(named<SeriesChart>("rateChart")), time_(named<SeriesChart>("stepTimeChart")),
      memory_(named<RankMemoryChart>("rankMemoryChart")), system_(new SystemChart), logs_(new LogPanes), charts_(new QWidget),
      splitter_(new QSplitter(Qt::Vertical))
{
    setObjectName(QStringLiteral("liveRunView"));
    // A long progress line wraps instead of widening the window (1366x768 screens);
    // how to use the charts is one short line whose tooltip says it all.
    progress_->setWordWrap(true);
    hint_->setCursor(Qt::WhatsThisCursor);
    QFont bold = state_->font();
    bold.setBold(true);
    state_->setFont(bold);
    loss_->setExportName(QStringLiteral("loss"));
    loss_->setLogScaleAllowed(true);
    rate_->setExportName(QStringLiteral("tokens-per-second"));
    time_->setExportName(QStringLiteral("step-time"));
    rate_->setYFromZero(true);
    time_->setYFromZero(true);
    time_->setRenderHint(QPainter::Antialiasing, false); // four filled bands: twice as fast, as sharp at pixel size
    // The X axis box below the loss chart names the charts' x: its height goes to the plots.
    for (SeriesChart* c : {loss_, rate_, time_}) c->setXTitleShown(false);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(60);

    QPalette muted = hint_->palette();
    muted.setColor(QPalette::WindowText, QColor(0x70, 0x70, 0x70));
    hint_->setPalette(muted);
    auto* top = new QHBoxLayout;
    top->addWidget(state_);
    top->addWidget(progress_, 1);
    top->addWidget(hint_);
    auto* smooth = new QHBoxLayout;
    smooth->addWidget(smoothingLabel_);
    smooth->addWidget(smoothing_, 1);
    smooth->addWidget(smoothingValue_);
    smooth->addSpacing(12);
    smooth->addWidget(xAxisLabel_);
    smooth->addWidget(xAxis_);
    xAxis_->addItem(QString());
    xAxis_->addItem(QString());
    xAxis_->addItem(QString());
    connect(xAxis_, &QComboBox::currentIndexChanged, this, [this] {
        addLines();
        for (SeriesChart* c : seriesCharts()) c->refreshNow();
    });
    auto* lossBox = new QWidget;
    auto* lossLayout = new QVBoxLayout(lossBox);
    lossLayout->setContentsMargins(0, 0, 0, 0);
    lossLayout->addWidget(loss_, 1);
    lossLayout->addLayout(smooth);
    auto* grid = new QGridLayout(charts_);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(lossBox, 0, 0);
    grid->addWidget(rate_, 0, 1);
    grid->addWidget(new MemorySystemTabs(memory_, system_), 1, 0);
    grid->addWidget(time_, 1, 1);
    splitter_->addWidget(charts_);
    splitter_->addWidget(logs_);
    // On a 1366x768 screen the charts keep their readable minimum and the log
    // its filter, tabs and Enlarge (which gives it the whole view).
    logs_->setMinimumHeight(64);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 1);
    // QSplitter lays out first by size hints, which left the log its minimum
    // even on a large screen: the stretch shares the height until the user
    // drags the handle.
    splitter_->installEventFilter(this);
    connect(splitter_, &QSplitter::splitterMoved, this, [this] { userSplit_ = true; });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(splitter_, 1);

    connect(smoothing_, &QSlider::valueChanged, this, [this](int v) {
        smoothingValue_->setText(QLocale().toString(v / 100.0, 'f', 2));
        if (live_) live_->setSmoothing(v / 100.0);
        loss_->scheduleRefresh();
        rate_->setSmoothing(v / 100.0);
    });
    connect(loss_, &SeriesChart::painted, this, &LiveRunView::onLossPainted);
    connect(logs_, &LogPanes::enlargeToggled, charts_, [this](bool large) { charts_->setVisible(!large); });
    for (SeriesChart* c : seriesCharts()) connect(c, &SeriesChart::languageChanged, this, &LiveRunView::retranslateUi);
    clock_.setInterval(1000);
    connect(&clock_, &QTimer::timeout, this, &LiveRunView::updateStatus);
    smoothingValue_->setText(QLocale().toString(0.6, 'f', 2));
    retranslateUi();
}

void LiveRunView::setRun(LiveRunModel* live, RunLogModel* logs, int worldSize, qint64 runId, const QString& runName)
{
    if (live_) disconnect(live_, nullptr, this, nullptr);
    live_ = live;
    runId_ = runId;
    runName_ = runName;
    hasRun_ = live != nullptr;
    note_.clear();
    latencies_.clear();
    lastPaintedStep_ = 0;
    for (SeriesChart* c : seriesCharts()) c->removeAll();
    memory_->setModel(live);
    system_->setSeries(live ? live->system() : nullptr);
    logs_->setModel(logs, worldSize);
    if (live) {
        live->setSmoothing(smoothing_->value() / 100.0);
        addLines();
        loss_->setCsvProvider([live] {
            return tableCsv(live->table(), {{"loss", LiveRunModel::Loss}, {"loss_smoothed", LiveRunModel::LossSmoothed},
                                            {"eval_loss", LiveRunModel::EvalLoss}, {"t", LiveRunModel::Time}});
        });
        rate_->setCsvProvider([live] { return tableCsv(live->table(), {{"tokens_per_s", LiveRunModel::TokensPerS}}); });
        time_->setCsvProvider([live] {
            return tableCsv(live->table(), {{"step_ms", LiveRunModel::StepMs}, {"forward_ms", LiveRunModel::ForwardMs},
                                            {"backward_ms", LiveRunModel::BackwardMs}, {"optimizer_ms", LiveRunModel::OptimizerMs},
                                            {"comm_exposed_ms", LiveRunModel::CommMs}});
        });
        connect(live, &LiveRunModel::stepAppended, this, [this] {
            updateClock();
            for (SeriesChart* c : seriesCharts()) c->scheduleRefresh();
        });
        connect(live, &LiveRunModel::modelReset, this, [this] {
            for (SeriesChart* c : seriesCharts()) c->scheduleRefresh();
        });
        clock_.start();
    } else {
        clock_.stop();
    }
    retranslateUi();
    for (SeriesChart* c : seriesCharts()) c->refreshNow();
}

void LiveRunView::setStatus(store::RunStatus status, const launch::CodedReason& reason)
{
    status_ = status;
    reason_ = reason;
    if (store::isFinal(status)) clock_.stop();
    updateStatus();
}

void LiveRunView::onLossPainted()
{
    if (!live_ || live_->table().isEmpty()) return;
    const double x = loss_->drawnXMax();
    if (std::isnan(x) || x <= lastPaintedStep_) return;
    const SeriesTable& t = live_->table();
    const auto [first, last] = t.rowsBetween(x, x);
    if (first >= last) return;
    lastPaintedStep_ = static_cast<int>(x);
    const double printed = t.value(LiveRunModel::Time, static_cast<qsizetype>(first));
    if (std::isnan(printed) || printed <= 0) return;
    latencies_ << QDateTime::currentMSecsSinceEpoch() - printed * 1000.0;
}

void LiveRunView::setNote(const QString& note)
{
    note_ = note;
    updateStatus();
}

QString LiveRunView::statusText() const { return state_->text() + QStringLiteral(" — ") + progress_->text(); }

void LiveRunView::updateStatus()
{
    if (!hasRun_) {
        state_->setText(tr("No run yet"));
        progress_->setText(tr("Launch the open plan (Launch, on the left or at the top right); its loss, throughput, memory and logs appear here."));
        return;
    }
    QPalette p = state_->palette();
    p.setColor(QPalette::WindowText, runStatusColor(store::statusName(status_)));
    state_->setPalette(p);
    state_->setText(runStatusText(status_));
    QStringList parts;
    parts << (runName_.isEmpty() ? tr("run %1").arg(runId_) : tr("run %1 (%2)").arg(runId_).arg(runName_));
    if (live_) {
        if (live_->totalSteps() > 0) parts << tr("step %1 of %2").arg(live_->lastStep()).arg(live_->totalSteps());
        else parts << tr("step %1").arg(live_->lastStep());
        if (!std::isnan(live_->lastLoss())) parts << tr("loss %1").arg(lossText(live_->lastLoss()));
        if (!std::isnan(live_->lastEvalLoss())) parts << tr("validation loss %1").arg(lossText(live_->lastEvalLoss()));
        const double eta = live_->etaSeconds();
        if (!store::isFinal(status_) && !std::isnan(eta)) parts << tr("ETA %1").arg(durationText(eta));
    }
    if (!reason_.isEmpty()) parts << runReasonText(reason_);
    if (!note_.isEmpty()) parts << note_;
    progress_->setText(parts.join(QStringLiteral(" · ")));
}

void LiveRunView::addLines()
{
    for (SeriesChart* c : seriesCharts()) c->removeAll();
    if (!live_) return;
    const bool byTime = xAxis_->currentIndex() >= 1; // seconds since the first step, read as such or as the clock
    const SeriesTable* t = byTime ? &live_->tableByTime() : &live_->table();
    QColor blue(0x1f, 0x5f, 0xa8);
    QColor faint = blue;
    faint.setAlpha(70);
    loss_->addLine(t, LiveRunModel::Loss, pen(faint, 1.0));
    loss_->addLine(t, LiveRunModel::LossSmoothed, pen(blue, 2.0));
    loss_->setPointsShown(loss_->addLine(t, LiveRunModel::EvalLoss, pen(QColor(0xd9, 0x6c, 0x00), 2.0)), true); // where taken
    const QColor green(0x2e, 0x8b, 0x3e);
    QColor faintGreen = green;
    faintGreen.setAlpha(70);
    rate_->setSmoothing(smoothing_->value() / 100.0);
    rate_->setSeriesInLegend(rate_->addLine(t, LiveRunModel::TokensPerS, pen(faintGreen, 1.0)), false);
    rate_->addSmoothedLine(t, LiveRunModel::TokensPerS, pen(green, 2.0));
    time_->addBand(t, LiveRunModel::ForwardMs, -1, QColor(0x7f, 0xb3, 0xe6));
    time_->addBand(t, LiveRunModel::UpToBackward, LiveRunModel::ForwardMs, QColor(0x1f, 0x5f, 0xa8));
    time_->addBand(t, LiveRunModel::UpToOptimizer, LiveRunModel::UpToBackward, QColor(0x9c, 0xcc, 0x65));
    time_->addBand(t, LiveRunModel::UpToComm, LiveRunModel::UpToOptimizer, QColor(0xe5, 0x73, 0x73));
    time_->addLine(t, LiveRunModel::StepMs, pen(QColor(0x44, 0x44, 0x44), 1.0, Qt::DashLine));
    // The hover says when a step ran, or which step ran then.
    for (SeriesChart* c : seriesCharts())
        c->setHoverXDetails([this, byTime](double x) { return hoverDetails(x, byTime); });
    for (SeriesChart* c : seriesCharts()) c->follow();
    updateClock();
    retranslateUi();
}

QString LiveRunView::hoverDetails(double x, bool byTime) const
{
    if (!live_) return {};
    const SeriesTable& t = byTime ? live_->tableByTime() : live_->table();
    const auto [first, last] = t.rowsBetween(x, x);
    if (first >= last) return {};
    const auto row = static_cast<qsizetype>(first);
    if (byTime) return tr("step %1").arg(live_->table().x(row));
    const double at = t.value(LiveRunModel::Time, row);
    if (!(at > 0)) return {};
    return tr("%1, %2 in").arg(clockText(at, QLocale()), durationText(at - live_->firstStepTime()));
}

bool LiveRunView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == splitter_ && event->type() == QEvent::Resize && !userSplit_ && charts_->isVisible()) {
        const int height = splitter_->height();
        splitter_->setSizes({height - height / 4, height / 4}); // the stretch factors' 3:1; minimums still hold
    }
    return Retranslated<QWidget>::eventFilter(watched, event);
}

void LiveRunView::updateClock()
{
    const double origin = live_ && xAxis_->currentIndex() == 2 ? live_->firstStepTime() : std::nan("");
    for (SeriesChart* c : seriesCharts()) c->setClockOrigin(origin);
}

void LiveRunView::retranslateUi()
{
    hint_->setText(tr("Chart controls"));
    hint_->setToolTip(tr("Hover for values; drag a box or turn the wheel to zoom, Shift+drag to pan, double-click to show all; "
                         "right-click for the log scale and exports"));
    xAxisLabel_->setText(tr("X axis"));
    xAxis_->setItemText(0, tr("step"));
    xAxis_->setItemText(1, tr("time since the first step"));
    xAxis_->setItemText(2, tr("wall-clock time"));
    const QString x = xAxis_->currentIndex() == 1 ? tr("Seconds") : xAxis_->currentIndex() == 2 ? tr("Time") : tr("Step");
    smoothingLabel_->setText(tr("Smoothing"));
    smoothing_->setToolTip(tr("Exponential moving average of the loss and the throughput, as TensorBoard smooths: 0 is none"));
    loss_->setTitle(tr("Loss"));
    loss_->setAxisTitles(x, tr("Loss"));
    rate_->setTitle(tr("Throughput"));
    rate_->setAxisTitles(x, tr("Tokens/s"));
    time_->setTitle(tr("Step time (rank 0)"));
    time_->setAxisTitles(x, tr("ms"));
    if (loss_->seriesCount() == 3) {
        loss_->setSeriesName(0, tr("Loss (raw)"));
        loss_->setSeriesName(1, tr("Loss (smoothed)"));
        loss_->setSeriesName(2, tr("Validation loss"));
    }
    if (rate_->seriesCount() == 2) {
        rate_->setSeriesName(0, tr("Tokens/s (all ranks, raw)"));
        rate_->setSeriesName(1, tr("Tokens/s (all ranks)"));
    }
    if (time_->seriesCount() == 5) {
        time_->setSeriesName(0, tr("Forward"));
        time_->setSeriesName(1, tr("Backward"));
        time_->setSeriesName(2, tr("Optimizer"));
        time_->setSeriesName(3, tr("Exposed communication"));
        time_->setSeriesName(4, tr("Step (measured)"));
    }
    updateStatus();
}

} // namespace sb::gui
