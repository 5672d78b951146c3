// Runs in words and numbers, in the current language: statuses, durations,
// rates, the one-line summary of a plan.
#pragma once

#include "launch/failure_analysis.hpp"
#include "store/run_reader.hpp"
#include "store/run_status.hpp"

#include <QColor>
#include <QString>
#include <QStringList>

#include <vector>

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

// A run's reason in the current language: the failure catalogue's code
// (core/plan/failure_reason.hpp) filled with its arguments; a reason with no
// code, or one this build does not know, is shown as recorded (English).
// A failed run's restarts before it gave up are worded after the reason.
QString runReasonText(const launch::CodedReason& reason);
// A stored run's reason (with its restarts when it failed).
QString runReasonText(const store::RunRow& run);

// The failure catalogue's templates, marked for translation (context
// sb::gui::FailureText): a hand-kept copy, row for row, that
// tests/gui/tst_gui_problems.cpp compares with the core's list.
struct FailureTextTemplate {
    const char* code;
    const char* text;
};
const std::vector<FailureTextTemplate>& failureTextTemplates();

} // namespace sb::gui
