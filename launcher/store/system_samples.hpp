// The store's rows of `system` events (protocol::System): a rank's CPU
// utilisation and host RSS, and its GPU's counters, every few seconds, in the
// table system_samples (schema 10). The value columns are the protocol's one
// table (SB_SYSTEM_FIELDS, events.hpp), which the writer, the reader and
// `shardbench-cli metrics --system` iterate.
#pragma once

#include "protocol/events.hpp"

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
#define SB_SYSTEM_FIELD_real(member) &SystemSample::member, nullptr
#define SB_SYSTEM_FIELD_whole(member) nullptr, &SystemSample::member
#define SB_SYSTEM_FIELD_ROW(name, member, kind) SystemField{name, SB_SYSTEM_FIELD_##kind(member)},
inline constexpr std::array kSystemFields{SB_SYSTEM_FIELDS(SB_SYSTEM_FIELD_ROW)};
#undef SB_SYSTEM_FIELD_ROW
#undef SB_SYSTEM_FIELD_whole
#undef SB_SYSTEM_FIELD_real

// "cpu_util, host_rss, ..." in the table's order.
QString systemColumnList();
// The samples as CSV: attempt, rank, t, then every value column (empty: absent).
QByteArray systemSamplesCsv(const QList<SystemSample>& samples);

} // namespace sb::store
