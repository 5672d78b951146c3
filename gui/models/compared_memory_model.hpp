// Compare's memory table: one row per rank and compared run (a rank's runs
// together), the rank's measured peak, the estimate for that run's own plan
// and world size, and how far apart the two are in percent.
#pragma once

#include "column_table_model.hpp"
#include "history/compare_loader.hpp"

#include <QStringList>

namespace sb::gui {

class ComparedMemoryModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { RankColumn, RunColumn, MeasuredColumn, EstimatedColumn, DifferenceColumn, ColumnCount };
    // The number behind a cell: bytes (qint64) or percent (double); invalid where it is unknown.
    enum Role { ValueRole = Qt::UserRole + 1 };

    explicit ComparedMemoryModel(QObject* parent = nullptr);

    // `labels` names the runs, in the same order.
    void setRuns(const QList<app::ComparedRun>& runs, const QStringList& labels);
    // The run (an index into the runs given) and its rank a row shows.
    int runOfRow(int row) const { return rows_[row].run; }
    const app::RankPeak& peakOfRow(int row) const;

    // "+3.1 %", "-0.4 %" in the current locale.
    static QString differenceText(double percent);
    // A peak as it reads in the table: its size, or why there is none.
    static QString measuredText(const app::RankPeak& peak);
    static QString estimatedText(const app::RankPeak& peak);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override { return static_cast<int>(rows_.size()); }
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override;

    struct Row {
        int run;
        int rank; // an index into that run's ranks
    };
    QList<app::ComparedRun> runs_;
    QStringList labels_;
    QList<Row> rows_;
};

} // namespace sb::gui
