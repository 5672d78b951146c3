#include "system_series.hpp"

#include <algorithm>
#include <cmath>

namespace sb::gui {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = kMiB * 1024.0;
} // namespace

SystemSeries::SystemSeries(QObject* parent) : QObject(parent) {}

void SystemSeries::clear()
{
    tables_.clear();
    samples_.clear();
    origin_ = std::nan("");
    maxRss_ = -1;
    seen_ = 0;
    Q_EMIT changed();
}

void SystemSeries::add(const store::SystemSample& s)
{
    append(s);
    Q_EMIT changed();
}

void SystemSeries::addAll(const QList<store::SystemSample>& samples)
{
    // A stored run's rows come rank by rank: the x origin is the earliest of all.
    if (samples_.isEmpty() && !samples.isEmpty()) {
        origin_ = samples.front().t;
        for (const store::SystemSample& s : samples) origin_ = std::min(origin_, s.t);
    }
    for (const store::SystemSample& s : samples) append(s);
    Q_EMIT changed();
}

void SystemSeries::append(const store::SystemSample& s)
{
    if (s.rank < 0 || !std::isfinite(s.t)) return;
    if (samples_.isEmpty() && !std::isfinite(origin_)) origin_ = s.t;
    samples_ << s;
    double row[ColumnCount];
    for (std::size_t i = 0; i < store::kSystemFields.size(); ++i) row[i] = store::kSystemFields[i].valueOf(s);
    row[HostRssMiB] = s.hostRss >= 0 ? s.hostRss / kMiB : std::nan("");
    row[HostRssGiB] = s.hostRss >= 0 ? s.hostRss / kGiB : std::nan("");
    for (int c = 0; c < ColumnCount; ++c)
        if (!std::isnan(row[c])) seen_ |= 1u << c;
    maxRss_ = std::max(maxRss_, s.hostRss);
    std::unique_ptr<app::SeriesTable>& t = tables_[s.rank];
    if (!t) t = std::make_unique<app::SeriesTable>(ColumnCount);
    // x never goes back within a rank (a clock step, a restarted attempt's first sample).
    const double x = t->isEmpty() ? s.t - origin_ : std::max(t->xs().back(), s.t - origin_);
    t->append(x, row);
}

QList<int> SystemSeries::ranks() const
{
    QList<int> out;
    for (const auto& [rank, table] : tables_) out << rank;
    return out;
}

const app::SeriesTable* SystemSeries::table(int rank) const
{
    const auto it = tables_.find(rank);
    return it == tables_.end() ? nullptr : it->second.get();
}

double SystemSeries::origin() const { return samples_.isEmpty() ? std::nan("") : origin_; }

bool SystemSeries::has(Column column) const { return (seen_ >> column) & 1u; }

} // namespace sb::gui
