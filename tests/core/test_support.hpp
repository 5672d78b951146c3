// Shared helpers of the core suites: where the data folders are, reading
// files and tab-separated tables, std::string <-> QString.
#pragma once

#include "estimate/estimate.hpp"
#include "plan/plan_json.hpp"

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QtGlobal>

#include <algorithm>
#include <string>

namespace sbtest {

inline QString q(const std::string& s) { return QString::fromStdString(s); }

inline QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("SB_SOURCE_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(SB_TEST_SOURCE_DIR) : fromEnv;
}

inline QString binDir()
{
    const QString fromEnv = qEnvironmentVariable("SB_BIN_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(SB_TEST_BIN_DIR) : fromEnv;
}

inline QString dataPath(const QString& relative) { return sourceDir() + QStringLiteral("/tests/core/data/") + relative; }

inline QByteArray readBytes(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

inline std::string readText(const QString& path) { return readBytes(path).toStdString(); }

inline bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Rows of a tab-separated table; blank lines and lines starting with '#' are skipped.
inline QList<QStringList> readTable(const QString& path)
{
    QList<QStringList> rows;
    const QString text = QString::fromUtf8(readBytes(path));
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        rows.push_back(line.split(QLatin1Char('\t')));
    }
    return rows;
}

// A preset plan, validated; fails the calling test on problems.
inline sb::LoadedPlan presetPlan(const std::string& preset)
{
    auto cfg = sb::presetConfig(preset);
    if (!cfg) qFatal("unknown preset %s", preset.c_str());
    return sb::validateLoaded(sb::PlanReadResult{sb::defaultPlan(*cfg), {}});
}

inline QString problemsText(const sb::Problems& ps)
{
    QString out;
    for (const sb::Problem& p : ps) out += q(sb::formatProblem(p)) + QLatin1Char('\n');
    return out;
}

inline std::uint64_t modelState(const sb::MemBreakdown& b)
{
    return b[sb::MemCategory::ShardedParams] + b[sb::MemCategory::ShardedGrads] + b[sb::MemCategory::OptimizerState];
}

// What a rank holds through the whole step: sharded parameters and AdamW's
// state (sharded gradients are held only from each unit's reduce to the
// optimizer step).
inline std::uint64_t persistentState(const sb::MemBreakdown& b)
{
    return b[sb::MemCategory::ShardedParams] + b[sb::MemCategory::OptimizerState];
}

// Highest value of one category over the worst rank's timeline.
inline std::uint64_t timelineMax(const sb::Estimate& e, sb::MemCategory c)
{
    std::uint64_t m = 0;
    for (const sb::TimelinePoint& p : e.timeline) m = std::max(m, p.memory[c]);
    return m;
}

} // namespace sbtest
