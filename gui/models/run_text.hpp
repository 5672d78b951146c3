// Runs in words and numbers, in the current language: statuses, durations,
// rates, the one-line summary of a plan.
#pragma once

#include "store/run_status.hpp"

#include <QColor>
#include <QString>

namespace sb::gui {

// "running", "completed"... The store's name when unknown; `abandoned` marks
// a run whose launcher is gone; a `detached` run that has not ended runs on
// its cluster without this workbench (shardbench-cli attach RUN follows it).
// `attached`: a detached run this workbench follows.
QString runStatusText(const QString& storedStatus, bool abandoned = false, bool detached = false, bool attached = false);
QString runStatusText(store::RunStatus status);
QColor runStatusColor(const QString& storedStatus, bool abandoned = false);
QString durationText(double seconds);      // "42 s", "3 min 05 s", "2 h 04 min"
QString timeText(double unixSeconds);      // the date and time in the locale's short format
QString rateText(double tokensPerSecond);  // "12,345 tokens/s"
QString lossText(double loss);             // "4.1234"
// "transformer, 3 units, 1 × 2 ranks"
QString planSummaryText(const QString& preset, int units, int nodes, int procsPerNode, int replicate);

} // namespace sb::gui
