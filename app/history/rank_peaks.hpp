// Every rank's measured peak memory beside the estimator's peak for the plan
// the run recorded: the one place a stored run's estimate per rank comes from
// (the Run page and Compare both read it here).
#pragma once

#include "store/run_reader.hpp"

#include <QList>
#include <QString>

#include <vector>

namespace sb::app {

struct RankPeak {
    int rank = 0;
    qint64 measured = -1;  // the highest memory the rank reported; -1: it reported none
    qint64 estimated = -1; // the estimator's peak for the run's plan; -1: the plan does not validate

    // The measurement over (+) or under (-) the estimate in percent; NaN unless both are known.
    double differencePercent() const;
};

// The recorded plan's estimated peak per rank, in rank order (empty when the
// plan does not validate), and, where `steps` is given, its length in steps.
std::vector<qint64> estimatedPeaks(const QString& planJson, int* steps = nullptr);

// One entry per rank, 0 to the run's world size (or the plan's, if larger).
QList<RankPeak> readRankPeaks(store::RunReader& reader, const store::RunRow& row);

} // namespace sb::app
