#include "parallel_axes.hpp"

#include <QAbstractItemModel>
#include <QCollator>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sb::gui {

namespace {
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The axis of `column`, or one with no column when no run has a value there.
ParallelAxis readAxis(const QAbstractItemModel& model, int column, int valueRole)
{
    ParallelAxis axis;
    axis.title = model.headerData(column, Qt::Horizontal).toString();
    double low = std::numeric_limits<double>::infinity(), high = -low;
    bool any = false;
    QSet<QString> seen; // the categories so far, found without a scan of the list (thousands of runs)
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex i = model.index(row, column);
        const QVariant v = i.data(valueRole);
        if (!v.isValid()) continue;
        any = true;
        if (v.typeId() != QMetaType::Double) axis.numeric = false;
        if (!seen.contains(v.toString())) {
            seen.insert(v.toString());
            axis.categories << v.toString();
        }
        if (v.toDouble() < low) axis.lowText = i.data().toString();
        if (v.toDouble() > high) axis.highText = i.data().toString();
        low = std::min(low, v.toDouble());
        high = std::max(high, v.toDouble());
    }
    if (!any) return axis;
    axis.column = column;
    axis.low = low;
    axis.high = high;
    if (axis.numeric) {
        axis.categories.clear();
    } else {
        QCollator collator;
        collator.setNumericMode(true); // "k = 2" before "k = 10"
        std::sort(axis.categories.begin(), axis.categories.end(), collator);
    }
    return axis;
}
} // namespace

double ParallelAxis::positionOfNumber(double v) const
{
    if (!std::isfinite(v)) return kNone;
    return high > low ? (v - low) / (high - low) : 0.5;
}

double ParallelAxis::positionOfCategory(int i) const
{
    if (i < 0) return kNone;
    return categories.size() > 1 ? static_cast<double>(i) / (categories.size() - 1) : 0.5;
}

ParallelData readParallelData(const QAbstractItemModel& model, const QList<int>& columns, int valueRole, int idRole, int shadeColumn)
{
    ParallelData data;
    for (int column : columns)
        if (ParallelAxis axis = readAxis(model, column, valueRole); axis.column >= 0) data.axes << axis;
    const ParallelAxis shade = readAxis(model, shadeColumn, valueRole);
    // Each text axis' categories by their index, looked up once a run.
    QList<QHash<QString, int>> categoryIndex;
    for (const ParallelAxis& a : data.axes) {
        QHash<QString, int> index;
        for (int i = 0; i < a.categories.size(); ++i) index.insert(a.categories[i], i);
        categoryIndex << index;
    }
    for (int row = 0; row < model.rowCount(); ++row) {
        data.runs << model.index(row, 0).data(idRole).toLongLong();
        QVector<double> line;
        for (int k = 0; k < data.axes.size(); ++k) {
            const ParallelAxis& a = data.axes[k];
            const QVariant v = model.index(row, a.column).data(valueRole);
            line << (!v.isValid() ? kNone
                     : a.numeric  ? a.positionOfNumber(v.toDouble())
                                  : a.positionOfCategory(categoryIndex[k].value(v.toString(), -1)));
        }
        data.positions << line;
        const QVariant s = model.index(row, shadeColumn).data(valueRole);
        data.shade << (shade.column >= 0 && s.isValid() ? shade.positionOfNumber(s.toDouble()) : kNone);
    }
    return data;
}

} // namespace sb::gui
