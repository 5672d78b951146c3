// ParallelCoordinates' painting: titles above the axes (wrapped, never
// elided), each axis's values beside it, the runs' lines, the brushes.
#include "parallel_coordinates.hpp"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPaintEvent>

#include <cmath>

namespace sb::gui {

namespace {
// Blue (lowest final loss) to red (highest), as matplotlib's coolwarm ends.
QColor shadeColor(double shade)
{
    if (!std::isfinite(shade)) return QColor(150, 150, 150);
    const QColor low(59, 76, 192), high(180, 4, 38);
    auto mix = [shade](int a, int b) { return static_cast<int>(a + (b - a) * shade); };
    return QColor(mix(low.red(), high.red()), mix(low.green(), high.green()), mix(low.blue(), high.blue()));
}

// A number in three digits and a k, M or G: for a label too wide for its axis's room.
QString compactNumber(double v)
{
    static const char* const units[] = {"", " k", " M", " G", " T"};
    int unit = 0;
    while (std::abs(v) >= 1000 && unit < 4) {
        v /= 1000;
        ++unit;
    }
    return QLocale().toString(v, 'g', 3) + QLatin1String(units[unit]);
}

// The column's text of an axis's end, shortened to fit `room`: without a note in
// brackets ("3.01 GiB (rank 7)"), else as a compact number.
QString fitted(const QFontMetrics& fm, const QString& text, double value, int room)
{
    if (fm.horizontalAdvance(text) <= room) return text;
    const QString plain = text.section(QStringLiteral(" ("), 0, 0);
    return fm.horizontalAdvance(plain) <= room ? plain : compactNumber(value);
}

// A value's label beside its axis, on a light backing so lines do not hide it.
void drawLabel(QPainter& p, int x, int y, const QString& text)
{
    const QRect box = p.fontMetrics().boundingRect(text).translated(x + 4, y + p.fontMetrics().ascent() / 2);
    QColor backing = p.background().color();
    backing.setAlpha(210);
    p.fillRect(box.adjusted(-2, 0, 2, 0), backing);
    p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
}
} // namespace

void ParallelCoordinates::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setBackground(palette().base());
    if (data_.runs.isEmpty() || data_.axes.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No run to draw yet: each run the table lists appears here as a line once its plan has been read."));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing);
    paintLines(p);
    paintAxes(p);
    paintBrushes(p);
    p.setPen(palette().color(QPalette::Text));
    const QRect legend(kMargin, plotBottom() + kMargin, width() - 2 * kMargin, height() - plotBottom() - kMargin);
    p.drawText(legend, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               tr("Colour: final loss, blue the lowest, red the highest, grey none. Click a line to select its run "
                  "(Ctrl+click adds it); drag along an axis to select the runs in a range."));
}

void ParallelCoordinates::paintLines(QPainter& p) const
{
    const bool anySelected = !selected_.isEmpty();
    auto draw = [&](int line, bool selected) {
        QColor color = shadeColor(data_.shade[line]);
        color.setAlpha(selected ? 255 : anySelected ? 40 : 150);
        p.setPen(QPen(color, selected ? 2.6 : 1.2));
        QPainterPath path;
        bool open = false;
        for (int a = 0; a < data_.axes.size(); ++a) {
            const std::optional<QPoint> at = pointOf(data_.runs[line], a);
            if (!at) {
                open = false; // no value here: the line breaks
                continue;
            }
            open ? path.lineTo(*at) : path.moveTo(*at);
            open = true;
        }
        p.drawPath(path);
    };
    for (int line = 0; line < data_.runs.size(); ++line)
        if (!selected_.contains(data_.runs[line])) draw(line, false);
    for (int line = 0; line < data_.runs.size(); ++line)
        if (selected_.contains(data_.runs[line])) draw(line, true);
}

void ParallelCoordinates::paintAxes(QPainter& p) const
{
    const int wrap = std::max(axisSpacing() - 8, widestWord());
    for (int a = 0; a < data_.axes.size(); ++a) {
        const ParallelAxis& axis = data_.axes[a];
        const int x = axisX(a);
        p.setPen(QPen(palette().color(QPalette::Text), 1.4));
        p.drawLine(x, plotTop(), x, plotBottom());
        // The first title starts at the left edge; the others are centred on their axis.
        QRect title(x - wrap / 2, kMargin, wrap, titleHeight());
        if (title.left() < 0) title.moveLeft(0);
        if (title.right() > width()) title.moveRight(width());
        p.drawText(title, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, axis.title);
        p.setPen(palette().color(QPalette::Text));
        if (axis.numeric) {
            const int room = a + 1 < data_.axes.size() ? axisSpacing() - 10 : kRightLabels - 6;
            drawLabel(p, x, yOf(axis.high > axis.low ? 1.0 : 0.5), fitted(p.fontMetrics(), axis.highText, axis.high, room));
            if (axis.high > axis.low) drawLabel(p, x, yOf(0.0), fitted(p.fontMetrics(), axis.lowText, axis.low, room));
            continue;
        }
        // Text values: every one when they fit, else every k-th.
        const int room = std::max(1, (plotBottom() - plotTop()) / (fontMetrics().height() + 2));
        const int every = static_cast<int>((axis.categories.size() + room - 1) / room);
        for (int i = 0; i < axis.categories.size(); i += std::max(1, every))
            drawLabel(p, x, yOf(axis.positionOfCategory(i)), axis.categories[i]);
    }
}

void ParallelCoordinates::paintBrushes(QPainter& p) const
{
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(60);
    p.setPen(palette().color(QPalette::Highlight));
    p.setBrush(fill);
    for (int a = 0; a < data_.axes.size(); ++a) {
        const auto brush = brushes_.find(data_.axes[a].column);
        if (brush != brushes_.end()) p.drawRect(QRect(QPoint(axisX(a) - 7, yOf(brush->second)), QPoint(axisX(a) + 7, yOf(brush->first))));
    }
    if (dragAxis_ >= 0) p.drawRect(QRect(QPoint(axisX(dragAxis_) - 7, pressAt_.y()), QPoint(axisX(dragAxis_) + 7, dragTo_.y())).normalized());
}

} // namespace sb::gui
