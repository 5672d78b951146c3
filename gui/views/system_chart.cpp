#include "system_chart.hpp"

#include "named_widget.hpp"

#include "series_chart.hpp"

#include "models/system_series.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sb::gui {

namespace {

// Host RSS reads in the unit the memory charts would pick for its largest value.
bool rssInGiB(const SystemSeries* series) { return series && isGiB(memoryAxisUnit(series->maxHostRss())); }

// The series' column of each quantity, in Quantity's order (host RSS: by range).
constexpr SystemSeries::Column kColumns[] = {SystemSeries::CpuUtil,  SystemSeries::HostRssMiB, SystemSeries::GpuUtil,
                                             SystemSeries::GpuPowerW, SystemSeries::GpuTempC,  SystemSeries::GpuSmClockMhz};

QPen rankPen(int i)
{
    static const QColor colors[] = {QColor(0x1f, 0x5f, 0xa8), QColor(0xd9, 0x6c, 0x00), QColor(0x2e, 0x8b, 0x3e),
                                    QColor(0xc6, 0x28, 0x28), QColor(0x6a, 0x3d, 0x9a), QColor(0x8c, 0x56, 0x4b),
                                    QColor(0xd6, 0x4f, 0xa0), QColor(0x55, 0x55, 0x55), QColor(0x9e, 0x9d, 0x24),
                                    QColor(0x17, 0xa2, 0xb8)};
    QPen p(colors[i % 10]);
    p.setWidthF(1.5);
    return p;
}

} // namespace

SystemChart::SystemChart(QWidget* parent)
    : Retranslated<QWidget>(parent), quantity_(named<QComboBox>("systemQuantity")), quantityLabel_(new QLabel),
      controls_(new QWidget(this)), chart_(named<SeriesChart>("systemChart"))
{
    chart_->setExportName(QStringLiteral("system"));
    chart_->setYFromZero(true);
    auto* bar = new QHBoxLayout(controls_);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(quantityLabel_);
    bar->addWidget(quantity_);
    controls_->hide(); // until placed
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_, 1);
    connect(quantity_, &QComboBox::currentIndexChanged, this, [this] { addLines(); });
    connect(chart_, &SeriesChart::languageChanged, this, &SystemChart::retranslateUi);
    chart_->setCsvProvider([this] { return series_ ? store::systemSamplesCsv(series_->samples()) : QByteArray(); });
    fillQuantities();
    retranslateUi();
}

void SystemChart::setSeries(const SystemSeries* series)
{
    if (series_) disconnect(series_, nullptr, this, nullptr);
    series_ = series;
    if (series_) {
        connect(series_, &SystemSeries::changed, this, &SystemChart::onChanged);
        // Its tables go with it: no line may outlive them.
        connect(series_, &QObject::destroyed, this, [this] { setSeries(nullptr); });
    }
    fillQuantities();
    addLines();
}

SystemChart::Quantity SystemChart::quantity() const
{
    return static_cast<Quantity>(quantity_->currentIndex() < 0 ? 0 : quantity_->currentData().toInt());
}

void SystemChart::setQuantity(Quantity q)
{
    const int i = quantity_->findData(static_cast<int>(q));
    if (i >= 0) quantity_->setCurrentIndex(i);
}

int SystemChart::lineCount() const { return chart_->seriesCount(); }

int SystemChart::column() const
{
    if (quantity() == HostRss && gib_) return SystemSeries::HostRssGiB;
    return kColumns[quantity()];
}

void SystemChart::onChanged()
{
    fillQuantities();
    const bool gib = rssInGiB(series_);
    const QList<int> ranks = series_ ? series_->ranks().mid(0, kMaxRanks) : QList<int>();
    if (ranks != drawnRanks_ || gib != gib_ || drawnQuantity_ != quantity()) addLines(); // the lines change
    else chart_->scheduleRefresh();
}

// The box offers CPU and host RSS always, the GPU's quantities once some rank sent them.
void SystemChart::fillQuantities()
{
    QList<int> offered = {CpuUtil, HostRss};
    for (int q = GpuUtil; q <= GpuClock; ++q)
        if (series_ && series_->has(kColumns[q])) offered << q;
    if (quantity_->count() == offered.size()) return;
    const QSignalBlocker quiet(quantity_);
    const int shown = quantity_->currentIndex() < 0 ? CpuUtil : quantity_->currentData().toInt();
    quantity_->clear();
    for (int q : offered) quantity_->addItem(QString(), q);
    quantity_->setCurrentIndex(std::max(0, static_cast<int>(offered.indexOf(shown))));
    retranslateUi();
}

void SystemChart::addLines()
{
    chart_->removeAll();
    drawnRanks_.clear();
    gib_ = rssInGiB(series_);
    drawnQuantity_ = quantity();
    if (series_) {
        drawnRanks_ = series_->ranks().mid(0, kMaxRanks);
        for (int i = 0; i < drawnRanks_.size(); ++i) chart_->addLine(series_->table(drawnRanks_[i]), column(), rankPen(i));
    }
    chart_->setClockOrigin(series_ ? series_->origin() : std::nan(""));
    chart_->follow();
    retranslateUi();
    chart_->refreshNow();
}

void SystemChart::retranslateUi()
{
    quantityLabel_->setText(tr("Show"));
    const QString names[] = {tr("CPU utilisation"), tr("Host memory (RSS)"), tr("GPU utilisation"),
                             tr("GPU power"),       tr("GPU temperature"),   tr("GPU SM clock")};
    const QString units[] = {tr("% of one core"), gib_ ? tr("GiB") : tr("MiB"), tr("%"), tr("W"), tr("°C"), tr("MHz")};
    for (int i = 0; i < quantity_->count(); ++i) quantity_->setItemText(i, names[quantity_->itemData(i).toInt()]);
    const int q = quantity();
    if (series_ && !series_->isEmpty())
        chart_->setTitle(tr("System: %1 per rank").arg(names[q]));
    else
        chart_->setTitle(tr("System: no samples (the ranks send them every few seconds; SB_SYSTEM_SAMPLE_S sets how often)"));
    chart_->setAxisTitles(tr("Time"), units[q]);
    for (int i = 0; i < drawnRanks_.size() && i < chart_->seriesCount(); ++i) chart_->setSeriesName(i, tr("rank %1").arg(drawnRanks_[i]));
}

MemorySystemTabs::MemorySystemTabs(QWidget* memory, SystemChart* system, QWidget* parent) : Retranslated<QTabWidget>(parent)
{
    setObjectName(QStringLiteral("memorySystemTabs"));
    setDocumentMode(true);
    addTab(memory, QString());
    addTab(system, QString());
    setCornerWidget(system->controls(), Qt::TopRightCorner);
    auto showControls = [this, system] { system->controls()->setVisible(currentWidget() == system); };
    connect(this, &QTabWidget::currentChanged, this, showControls);
    showControls();
    retranslateUi();
}

void MemorySystemTabs::retranslateUi()
{
    setTabText(0, tr("Memory"));
    setTabText(1, tr("System"));
    setTabToolTip(1, tr("Each rank's CPU utilisation and host memory, and on CUDA its GPU's utilisation, power, temperature and SM clock"));
}

} // namespace sb::gui
