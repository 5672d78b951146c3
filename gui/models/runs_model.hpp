// The run history as a table, one row per run, newest first. The rows come
// from the store's run table at once; the columns that need more reading
// (plan and its fields, tokens/s, peak memory, validation loss) fill in as
// HistoryLoader delivers them. SortRole gives each column's value for
// sorting; ValueRole its value for comparing runs (a number for numeric
// columns, the text for the others, invalid where there is none).
#pragma once

#include "column_table_model.hpp"
#include "history/history_loader.hpp"

#include <QHash>
#include <QSet>

namespace sb::gui {

class RunsModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, NameColumn, TagsColumn, StatusColumn, ReasonColumn, WorldColumn, PlanColumn,
                  ReshardColumn, ParamDtypeColumn, ReduceDtypeColumn, OffloadColumn, MicroBatchColumn,
                  GlobalBatchColumn, LrColumn, StartColumn, DurationColumn, LossColumn, EvalLossColumn, RateColumn,
                  PeakColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, RunIdRole, StatusRole, StatusColorRole, ValueRole };

    explicit RunsModel(QObject* parent = nullptr);

    // A column's name in settings and in filter terms ("world", "lr"...), and back (-1: none).
    static QString columnKey(int column);
    static int columnOfKey(const QString& key);
    // ValueRole is a number (else a text) in these columns.
    static bool isNumeric(int column);
    // The plan's fields and what the run reached, in the order the parallel coordinates draw them.
    static QList<int> planFieldColumns();
    static QList<int> outcomeColumns();

    void setRuns(const QList<store::RunRow>& runs);
    void addDetails(const QHash<qint64, app::RunDetails>& details);
    const store::RunRow& run(int row) const { return runs_[row]; }
    int rowOfRun(qint64 id) const;
    bool hasDetails(qint64 id) const { return details_.contains(id); }
    // Finished runs whose details are kept across reloads (they no longer change).
    QSet<qint64> runsWithDetails() const;
    // A detached run that has not ended: it can be attached to.
    bool isAttachable(qint64 id) const;
    // The detached run this workbench follows (-1: none); its status says so.
    void setAttachedRun(qint64 id);
    qint64 attachedRun() const { return attachedRun_; }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override { return static_cast<int>(runs_.size()); }
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override; // runs_model_fields.cpp
    QVariant display(int row, Column column) const;
    QVariant sortValue(int row, Column column) const;
    QVariant value(int row, Column column) const;
    // The plan-field columns (runs_model_fields.cpp).
    static QVariant fieldText(const app::RunDetails& d, Column column);
    static QVariant fieldValue(const app::RunDetails& d, Column column);

    QList<store::RunRow> runs_;
    QList<bool> abandoned_;
    QHash<qint64, app::RunDetails> details_;
    QHash<qint64, int> rowOf_;
    qint64 attachedRun_ = -1;
};

} // namespace sb::gui

#include "runs_filter_model.hpp"
