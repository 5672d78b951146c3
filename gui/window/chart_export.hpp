// The memory charts as files: both charts stacked (per rank above, timeline
// below) as a PNG (at twice the screen resolution) or an SVG (vectors, via
// QSvgGenerator), and the per-rank breakdown as CSV (estimateCsv).
#pragma once

#include <QString>

namespace sb::gui {

class MemoryModel;
class MemoryView;

// Each returns an error text, or an empty string on success.
QString exportChartsPng(MemoryView& view, const QString& path);
QString exportChartsSvg(MemoryView& view, const QString& path);
QString exportBreakdownCsv(const MemoryModel& model, const QString& path);
// Writes `bytes` atomically (QSaveFile).
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace sb::gui
