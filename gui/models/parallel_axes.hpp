// What the parallel-coordinates view draws, read from the Runs table's
// (filtered) model: one axis per column that some run has a value in, and
// per run its position on each axis, from 0 (bottom) to 1 (top). Numeric
// axes run from the lowest value to the highest (a single value sits in the
// middle); text axes place their values in order at equal steps.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

class QAbstractItemModel;

namespace sb::gui {

struct ParallelAxis {
    int column = -1;
    QString title;
    bool numeric = true;
    double low = 0, high = 0;   // numeric
    QString lowText, highText;  // numeric: the column's text at both ends
    QStringList categories;     // text, bottom to top

    double positionOfNumber(double v) const;
    double positionOfCategory(int i) const;
};

struct ParallelData {
    QList<ParallelAxis> axes;
    QList<qint64> runs;               // one line per run, in the model's order
    QList<QVector<double>> positions; // [line][axis]; NaN where the run has no value
    QList<double> shade;              // [line] the colour's value (0 best final loss, 1 worst), NaN none
};

// valueRole gives the numbers and texts (RunsModel::ValueRole), idRole the run.
ParallelData readParallelData(const QAbstractItemModel& model, const QList<int>& columns, int valueRole, int idRole, int shadeColumn);

} // namespace sb::gui
