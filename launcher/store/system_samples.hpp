// The store's rows of `system` events (protocol::System): a rank's CPU
// utilisation and host RSS, and its GPU's counters, every few seconds, in the
// table system_samples (schema 10). One table of the value columns, which the
// writer, the reader and `shardbench-cli metrics --system` iterate.
#pragma once

#include <QList>
#include <QString>

#include <array>
#include <limits>

namespace sb::store {

struct SystemSample {
    qint64 runId = -1;
    int rank = -1;
    int attempt = 0;
    double t = 0; // unix seconds
    // NaN (reals) or -1 (host_rss): not sent; NULL in the store.
    double cpuUtil = std::numeric_limits<double>::quiet_NaN();
    qint64 hostRss = -1;
    double gpuUtil = std::numeric_limits<double>::quiet_NaN();
    double gpuPowerW = std::numeric_limits<double>::quiet_NaN();
    double gpuTempC = std::numeric_limits<double>::quiet_NaN();
    double gpuSmClockMhz = std::numeric_limits<double>::quiet_NaN();
    QString src; // ingested from a run directory: "FILE:OFFSET", unique per run
};

// A value column: its name (the event's field and the store's column) and
// the member holding it, a real or (host_rss) a byte count.
struct SystemField {
    const char* name;
    double SystemSample::*real;
    qint64 SystemSample::*count;
    // The value as a double; NaN when absent.
    double valueOf(const SystemSample& s) const
    {
        if (real) return s.*real;
        return s.*count < 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(s.*count);
    }
};
inline constexpr std::array<SystemField, 6> kSystemFields{{
    {"cpu_util", &SystemSample::cpuUtil, nullptr},
    {"host_rss", nullptr, &SystemSample::hostRss},
    {"gpu_util", &SystemSample::gpuUtil, nullptr},
    {"gpu_power_w", &SystemSample::gpuPowerW, nullptr},
    {"gpu_temp_c", &SystemSample::gpuTempC, nullptr},
    {"gpu_sm_clock_mhz", &SystemSample::gpuSmClockMhz, nullptr},
}};

// "cpu_util, host_rss, ..." in the table's order.
QString systemColumnList();
// The samples as CSV: attempt, rank, t, then every value column (empty: absent).
QByteArray systemSamplesCsv(const QList<SystemSample>& samples);

} // namespace sb::store
