// Each rank's system samples (the `system` events: CPU utilisation, host RSS
// and the GPU's counters, store/system_samples.hpp) as charts draw them: a
// SeriesTable per rank against the seconds since the run's first sample. Fed
// live (the supervisor's events, an attached run's ingest) or from the store.
#pragma once

#include "history/series_table.hpp"
#include "store/system_samples.hpp"

#include <QList>
#include <QObject>

#include <limits>
#include <map>
#include <memory>

namespace sb::gui {

class SystemSeries : public QObject {
    Q_OBJECT
public:
    // The columns of every rank's table: store::kSystemFields' order, host RSS in MiB and in GiB.
    enum Column { CpuUtil, HostRssMiB, GpuUtil, GpuPowerW, GpuTempC, GpuSmClockMhz, HostRssGiB, ColumnCount };

    explicit SystemSeries(QObject* parent = nullptr);

    void clear();
    void add(const store::SystemSample& sample);
    // Many at once (a stored run), with one changed().
    void addAll(const QList<store::SystemSample>& samples);

    QList<int> ranks() const;
    // The rank's table (nullptr when it sent none); x: seconds since origin().
    const app::SeriesTable* table(int rank) const;
    // Unix seconds of the first sample (the x origin); NaN before it.
    double origin() const;
    bool isEmpty() const { return samples_.isEmpty(); }
    // Whether any rank reported `column` (the GPU's only on CUDA).
    bool has(Column column) const;
    // The highest host RSS so far, in bytes (-1: none).
    qint64 maxHostRss() const { return maxRss_; }
    const QList<store::SystemSample>& samples() const { return samples_; }

Q_SIGNALS:
    void changed();

private:
    void append(const store::SystemSample& sample);

    std::map<int, std::unique_ptr<app::SeriesTable>> tables_;
    QList<store::SystemSample> samples_;
    double origin_ = std::numeric_limits<double>::quiet_NaN();
    qint64 maxRss_ = -1;
    unsigned seen_ = 0; // bit per column that some sample had
};

} // namespace sb::gui
