#include "parallel_coordinates.hpp"

#include "models/runs_model.hpp"

#include <QAbstractItemModel>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::gui {

namespace {
constexpr int kPickDistance = 6;

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len = QPointF::dotProduct(ab, ab);
    const double t = len > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}
} // namespace

ParallelCoordinates::ParallelCoordinates(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("parallelCoordinates"));
    setMouseTracking(false);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void ParallelCoordinates::setModel(QAbstractItemModel* model, const QList<int>& columns, int shadeColumn)
{
    if (model_) disconnect(model_, nullptr, this, nullptr);
    model_ = model;
    columns_ = columns;
    shadeColumn_ = shadeColumn;
    connect(model_, &QAbstractItemModel::modelReset, this, &ParallelCoordinates::reload);
    connect(model_, &QAbstractItemModel::layoutChanged, this, &ParallelCoordinates::reload);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ParallelCoordinates::reload);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &ParallelCoordinates::reload);
    connect(model_, &QAbstractItemModel::dataChanged, this, &ParallelCoordinates::reload);
    connect(model_, &QAbstractItemModel::headerDataChanged, this, &ParallelCoordinates::reload);
    reload();
}

void ParallelCoordinates::reload()
{
    data_ = model_ ? readParallelData(*model_, columns_, RunsModel::ValueRole, RunsModel::RunIdRole, shadeColumn_) : ParallelData{};
    QSet<int> shown;
    for (const ParallelAxis& a : data_.axes) shown.insert(a.column);
    for (auto it = brushes_.begin(); it != brushes_.end();) it = shown.contains(it.key()) ? std::next(it) : brushes_.erase(it);
    updateGeometry();
    update();
}

void ParallelCoordinates::setSelectedRuns(const QSet<qint64>& runs)
{
    if (runs == selected_) return;
    selected_ = runs;
    update();
}

int ParallelCoordinates::axisSpacing() const
{
    const int n = static_cast<int>(data_.axes.size());
    return n > 1 ? (width() - 2 * kMargin - kRightLabels) / (n - 1) : width() - 2 * kMargin - kRightLabels;
}

int ParallelCoordinates::axisX(int axis) const { return kMargin + axis * axisSpacing(); }

int ParallelCoordinates::widestWord() const
{
    int widest = 0;
    for (const ParallelAxis& a : data_.axes)
        for (const QString& word : a.title.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
            widest = std::max(widest, fontMetrics().horizontalAdvance(word));
    return widest;
}

int ParallelCoordinates::titleHeight() const
{
    int height = fontMetrics().height();
    const int wrap = std::max(axisSpacing() - 8, widestWord());
    for (const ParallelAxis& a : data_.axes)
        height = std::max(height, fontMetrics().boundingRect(QRect(0, 0, wrap, 1000), Qt::AlignHCenter | Qt::TextWordWrap, a.title).height());
    return height;
}

int ParallelCoordinates::plotTop() const { return kMargin + titleHeight() + kMargin; }

int ParallelCoordinates::plotBottom() const { return height() - kMargin - 2 * fontMetrics().height() - kMargin; }

int ParallelCoordinates::yOf(double position) const { return plotBottom() - static_cast<int>(std::lround(position * (plotBottom() - plotTop()))); }

double ParallelCoordinates::positionAtY(int y) const
{
    const int span = std::max(1, plotBottom() - plotTop());
    return std::clamp(static_cast<double>(plotBottom() - y) / span, 0.0, 1.0);
}

std::optional<QPoint> ParallelCoordinates::pointOf(qint64 run, int axis) const
{
    const qsizetype line = data_.runs.indexOf(run);
    if (line < 0 || axis < 0 || axis >= data_.axes.size() || std::isnan(data_.positions[line][axis])) return std::nullopt;
    return QPoint(axisX(axis), yOf(data_.positions[line][axis]));
}

QSize ParallelCoordinates::minimumSizeHint() const
{
    // Every title readable: the space between axes is at least its longest word.
    const int n = static_cast<int>(data_.axes.size());
    return {2 * kMargin + kRightLabels + std::max(0, n - 1) * (widestWord() + 12), 240};
}

QSize ParallelCoordinates::sizeHint() const { return {900, 420}; }

int ParallelCoordinates::axisAt(const QPoint& at) const
{
    if (at.y() < plotTop() - 6 || at.y() > plotBottom() + 6) return -1;
    for (int a = 0; a < data_.axes.size(); ++a)
        if (std::abs(at.x() - axisX(a)) <= 8) return a;
    return -1;
}

qint64 ParallelCoordinates::lineAt(const QPoint& at) const
{
    double best = kPickDistance;
    qint64 found = -1;
    for (int line = 0; line < data_.runs.size(); ++line)
        for (int a = 0; a + 1 < data_.axes.size(); ++a) {
            const std::optional<QPoint> p = pointOf(data_.runs[line], a), q = pointOf(data_.runs[line], a + 1);
            if (!p || !q) continue;
            const double d = distanceToSegment(at, *p, *q);
            // Ties go to a selected run: it is drawn on top.
            if (d < best || (d == best && selected_.contains(data_.runs[line]))) {
                best = d;
                found = data_.runs[line];
            }
        }
    return found;
}

QList<qint64> ParallelCoordinates::brushedRuns() const
{
    QList<qint64> out;
    for (int line = 0; line < data_.runs.size(); ++line) {
        bool inside = true;
        for (int a = 0; a < data_.axes.size() && inside; ++a) {
            const auto brush = brushes_.find(data_.axes[a].column);
            if (brush == brushes_.end()) continue;
            const double v = data_.positions[line][a];
            inside = !std::isnan(v) && v >= brush->first - 1e-9 && v <= brush->second + 1e-9;
        }
        if (inside) out << data_.runs[line];
    }
    return out;
}

void ParallelCoordinates::mousePressEvent(QMouseEvent* event)
{
    pressAt_ = dragTo_ = event->position().toPoint();
    dragAxis_ = event->button() == Qt::LeftButton ? axisAt(pressAt_) : -1;
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent* event)
{
    if (dragAxis_ < 0) return;
    dragTo_ = event->position().toPoint();
    update();
}

void ParallelCoordinates::mouseReleaseEvent(QMouseEvent* event)
{
    const QPoint at = event->position().toPoint();
    const int axis = dragAxis_;
    dragAxis_ = -1;
    if (axis >= 0 && std::abs(at.y() - pressAt_.y()) >= 4) {
        const double a = positionAtY(pressAt_.y()), b = positionAtY(at.y());
        brushes_.insert(data_.axes[axis].column, qMakePair(std::min(a, b), std::max(a, b)));
        update();
        Q_EMIT runsPicked(brushedRuns(), false);
        return;
    }
    brushes_.clear();
    update();
    const qint64 run = lineAt(at);
    Q_EMIT runsPicked(run >= 0 ? QList<qint64>{run} : QList<qint64>{}, run >= 0 && (event->modifiers() & Qt::ControlModifier));
}

void ParallelCoordinates::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::LanguageChange) {
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace sb::gui
