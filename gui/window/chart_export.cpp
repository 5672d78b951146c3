#include "chart_export.hpp"

#include "models/memory_model.hpp"
#include "views/memory_view.hpp"
#include "views/rank_chart.hpp"
#include "views/timeline_chart.hpp"
#include "views/chart_view_base.hpp"

#include "estimate/estimate_report.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QChart>

namespace sb::gui {

namespace {

struct ChartExport {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::ChartExport)
};

QSize stackedSize(MemoryView& view)
{
    const QSize a = view.rankChart()->size();
    const QSize b = view.timelineChart()->size();
    return {std::max(a.width(), b.width()), a.height() + b.height()};
}

void renderStacked(MemoryView& view, QPainter& painter)
{
    RankChart* rank = view.rankChart();
    TimelineChart* timeline = view.timelineChart();
    const QSize size = stackedSize(view);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    rank->render(&painter, QRectF(0, 0, size.width(), rank->height()), rank->viewport()->rect());
    timeline->render(&painter, QRectF(0, rank->height(), size.width(), timeline->height()),
                     timeline->viewport()->rect());
}

} // namespace

QString writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return ChartExport::tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QString exportChartsPng(MemoryView& view, const QString& path)
{
    const QSize size = stackedSize(view);
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderStacked(view, painter);
    }
    if (!image.save(path, "PNG")) return ChartExport::tr("Cannot write the image %1").arg(path);
    return {};
}

QString exportChartsSvg(MemoryView& view, const QString& path)
{
    const QSize size = stackedSize(view);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(ChartExport::tr("shardbench memory estimate"));
    svg.setDescription(ChartExport::tr("Peak memory per rank and memory through one training step"));
    QPainter painter;
    if (!painter.begin(&svg)) return ChartExport::tr("Cannot write the drawing %1").arg(path);
    renderStacked(view, painter);
    painter.end();
    return {};
}

QString exportChartPng(ChartViewBase& chart, const QString& path)
{
    const QSize size = chart.size();
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        chart.render(&painter, QRectF(QPointF(0, 0), size), chart.viewport()->rect());
    }
    if (!image.save(path, "PNG")) return ChartExport::tr("Cannot write the image %1").arg(path);
    return {};
}

QString exportChartSvg(ChartViewBase& chart, const QString& path)
{
    const QSize size = chart.size();
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(chart.chart()->title());
    QPainter painter;
    if (!painter.begin(&svg)) return ChartExport::tr("Cannot write the drawing %1").arg(path);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    chart.render(&painter, QRectF(QPointF(0, 0), size), chart.viewport()->rect());
    painter.end();
    return {};
}

QString exportChartCsv(const ChartViewBase& chart, const QString& path)
{
    if (!chart.hasCsv()) return ChartExport::tr("This chart has no data to export yet.");
    return writeFileAtomically(path, chart.csv());
}

QString exportBreakdownCsv(const MemoryModel& model, const QString& path)
{
    if (!model.hasEstimate()) return ChartExport::tr("The plan has errors, so there is no estimate to export.");
    return writeFileAtomically(path, QByteArray::fromStdString(estimateCsv(model.estimate())));
}

} // namespace sb::gui
