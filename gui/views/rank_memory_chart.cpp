#include "rank_memory_chart.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetrics>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sb::gui {

RankMemoryChart::RankMemoryChart(QWidget* parent)
    : ChartViewBase(parent), bars_(new QBarSeries), current_(new QBarSet(QString())), peak_(new QBarSet(QString())),
      estimate_(new QLineSeries), xAxis_(new QBarCategoryAxis), yAxis_(new QValueAxis)
{
    current_->setColor(QColor(0x7f, 0xb3, 0xe6));
    peak_->setColor(QColor(0x1f, 0x5f, 0xa8));
    bars_->append(current_);
    bars_->append(peak_);
    QPen pen(capacityColor());
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(2);
    estimate_->setPen(pen);
    QChart* c = chart();
    c->addSeries(bars_);
    c->addSeries(estimate_);
    c->addAxis(xAxis_, Qt::AlignBottom);
    c->addAxis(yAxis_, Qt::AlignLeft);
    bars_->attachAxis(xAxis_);
    bars_->attachAxis(yAxis_);
    estimate_->attachAxis(xAxis_);
    estimate_->attachAxis(yAxis_);
    yAxis_->setLabelFormat(QStringLiteral("%.1f"));
    refreshTimer_.setSingleShot(true);
    refreshTimer_.setInterval(100);
    connect(&refreshTimer_, &QTimer::timeout, this, &RankMemoryChart::refreshNow);
    setExportName(QStringLiteral("memory-per-rank"));
    retranslate();
}

void RankMemoryChart::setModel(const LiveRunModel* model)
{
    if (model_) disconnect(model_, nullptr, this, nullptr);
    model_ = model;
    if (model_) {
        connect(model_, &LiveRunModel::ranksChanged, this, &RankMemoryChart::scheduleRefresh);
        connect(model_, &LiveRunModel::modelReset, this, &RankMemoryChart::refreshNow);
    }
    refreshNow();
}

void RankMemoryChart::scheduleRefresh()
{
    if (!refreshTimer_.isActive()) refreshTimer_.start();
}

void RankMemoryChart::refreshNow()
{
    refreshTimer_.stop();
    const QList<LiveRunModel::RankMemory> ranks = model_ ? model_->ranks().mid(0, kMaxRanks) : QList<LiveRunModel::RankMemory>();
    qint64 top = 0;
    measuredPeak_ = predictedPeak_ = -1;
    for (const LiveRunModel::RankMemory& r : ranks) {
        top = std::max({top, r.current, r.peak, r.predicted});
        measuredPeak_ = std::max(measuredPeak_, r.peak);
        predictedPeak_ = std::max(predictedPeak_, r.predicted);
    }
    unit_ = memoryAxisUnit(top);
    QStringList labels;
    QList<qreal> current, peak;
    QList<QPointF> estimate;
    for (int i = 0; i < ranks.size(); ++i) {
        const LiveRunModel::RankMemory& r = ranks[i];
        labels << QString::number(r.rank);
        current << (r.current >= 0 ? r.current / unit_ : 0.0);
        peak << (r.peak >= 0 ? r.peak / unit_ : 0.0);
        if (r.predicted >= 0) estimate << QPointF(i - 0.45, r.predicted / unit_) << QPointF(i + 0.45, r.predicted / unit_);
    }
    if (labels != xAxis_->categories()) {
        xAxis_->clear();
        xAxis_->append(labels);
    }
    current_->remove(0, current_->count());
    current_->append(current);
    peak_->remove(0, peak_->count());
    peak_->append(peak);
    estimate_->replace(estimate);
    yAxis_->setRange(0, std::max(1.0, top / unit_ * 1.1));
    yAxis_->applyNiceNumbers();
    ratio_ = measuredPeak_ > 0 && predictedPeak_ > 0 ? static_cast<double>(measuredPeak_) / predictedPeak_ : std::nan("");
    updateTitle();
}

void RankMemoryChart::updateTitle()
{
    yAxis_->setTitleText(isGiB(unit_) ? tr("GiB") : tr("MiB"));
    const QString more = model_ && model_->ranks().size() > kMaxRanks ? tr(" (first %1 ranks)").arg(kMaxRanks) : QString();
    if (!(measuredPeak_ > 0 && predictedPeak_ > 0)) {
        chart()->setTitle(tr("Memory per rank") + more);
        return;
    }
    const double diff = (ratio_ - 1.0) * 100.0;
    const QString measured = formatBytes(static_cast<std::uint64_t>(measuredPeak_));
    const QString estimated = formatBytes(static_cast<std::uint64_t>(predictedPeak_));
    const QString sign = diff >= 0 ? QStringLiteral("+") : QString();
    const QString percent = QLocale().toString(diff, 'f', 1);
    const QString title = tr("Memory per rank: peak %1 measured, %2 estimated (%3%4 %)").arg(measured, estimated, sign, percent) + more;
    // A chart narrower than the whole sentence (a laptop's Run tab) drops what its tab already says.
    const int room = width() - 24;
    chart()->setTitle(QFontMetrics(chart()->titleFont()).horizontalAdvance(title) <= room
                          ? title
                          : tr("Peak %1 measured, %2 estimated (%3%4 %)").arg(measured, estimated, sign, percent) + more);
}

void RankMemoryChart::resizeEvent(QResizeEvent* event)
{
    ChartViewBase::resizeEvent(event);
    updateTitle();
}

void RankMemoryChart::retranslate()
{
    current_->setLabel(tr("Current"));
    peak_->setLabel(tr("Peak (measured)"));
    estimate_->setName(tr("Peak (estimated for this plan)"));
    xAxis_->setTitleText(tr("Rank"));
    updateTitle();
}

bool RankMemoryChart::hasCsv() const { return model_ && !model_->ranks().isEmpty(); }

QByteArray RankMemoryChart::csv() const
{
    QByteArray out = "rank,current_bytes,peak_bytes,estimated_peak_bytes,last_step\n";
    if (!model_) return out;
    auto num = [](qint64 v) { return v >= 0 ? QByteArray::number(v) : QByteArray(); };
    for (const LiveRunModel::RankMemory& r : model_->ranks())
        out += QByteArray::number(r.rank) + ',' + num(r.current) + ',' + num(r.peak) + ',' + num(r.predicted) + ',' +
               QByteArray::number(r.lastStep) + '\n';
    return out;
}

} // namespace sb::gui
