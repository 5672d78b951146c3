// Charts as files. The memory charts: both stacked (per rank above, timeline
// below) as a PNG (at twice the screen resolution) or an SVG (vectors, via
// QSvgGenerator), and the per-rank breakdown as CSV (estimateCsv). Any other
// chart on its own, with its data as CSV.
#pragma once

#include <QString>

namespace sb::gui {

class ChartViewBase;
class MemoryModel;
class MemoryView;

// Each returns an error text, or an empty string on success.
QString exportChartsPng(MemoryView& view, const QString& path);
QString exportChartsSvg(MemoryView& view, const QString& path);
QString exportBreakdownCsv(const MemoryModel& model, const QString& path);
// One chart: as it is on screen (PNG at twice the resolution, SVG as vectors),
// or its data (ChartViewBase::csv()).
QString exportChartPng(ChartViewBase& chart, const QString& path);
QString exportChartSvg(ChartViewBase& chart, const QString& path);
QString exportChartCsv(const ChartViewBase& chart, const QString& path);
// Writes `bytes` atomically (QSaveFile).
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace sb::gui
