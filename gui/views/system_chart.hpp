// The System chart: per rank, against the time of day, one of the quantities
// the ranks sample every few seconds (the `system` events): CPU utilisation
// (% of one core), host RSS (MiB or GiB by range), and on CUDA the GPU's
// utilisation, power, temperature and SM clock (offered only once a rank sent
// them). MemorySystemTabs puts it in a tab beside the memory chart.
#pragma once

#include "retranslated.hpp"

#include <QTabWidget>
#include <QWidget>

class QComboBox;
class QLabel;

namespace sb::gui {

class SeriesChart;
class SystemSeries;

class SystemChart : public Retranslated<QWidget> {
    Q_OBJECT
public:
    enum Quantity { CpuUtil, HostRss, GpuUtil, GpuPower, GpuTemp, GpuClock };

    explicit SystemChart(QWidget* parent = nullptr);

    void setSeries(const SystemSeries* series);
    SeriesChart* chart() const { return chart_; }
    QComboBox* quantityBox() const { return quantity_; }
    // "Show [quantity]", for the caller to place (MemorySystemTabs: in the tab bar's corner).
    QWidget* controls() const { return controls_; }
    // The quantity drawn; the box offers only those some rank sent.
    Quantity quantity() const;
    void setQuantity(Quantity q);
    // A line per rank of the quantity shown (up to kMaxRanks).
    int lineCount() const;
    static constexpr int kMaxRanks = 64;

private:
    void onChanged();
    void fillQuantities();
    void addLines();
    void retranslateUi() override;
    int column() const;

    const SystemSeries* series_ = nullptr;
    QComboBox* quantity_;
    QLabel* quantityLabel_;
    QWidget* controls_;
    SeriesChart* chart_;
    QList<int> drawnRanks_;
    bool gib_ = false;
    int drawnQuantity_ = -1;
};

// The memory chart and the System chart in two tabs, titled in the current
// language; the System chart's quantity box in the tab bar's corner while it
// is shown, so that neither takes more height than the memory chart alone.
class MemorySystemTabs : public Retranslated<QTabWidget> {
    Q_OBJECT
public:
    MemorySystemTabs(QWidget* memory, SystemChart* system, QWidget* parent = nullptr);

private:
    void retranslateUi() override;
};

} // namespace sb::gui
