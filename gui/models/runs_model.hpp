// The run history as a table, one row per run, newest first. The rows come
// from the store's run table at once; the columns that need more reading
// (plan, tokens/s, peak memory) fill in as HistoryLoader delivers them.
// SortRole gives each column's raw value, for RunsFilterProxy.
#pragma once

#include "history/history_loader.hpp"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QSortFilterProxyModel>

namespace sb::gui {

class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, NameColumn, TagsColumn, StatusColumn, ReasonColumn, WorldColumn, PlanColumn, StartColumn,
                  DurationColumn, LossColumn, RateColumn, PeakColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, RunIdRole, StatusRole, StatusColorRole };

    explicit RunsModel(QObject* parent = nullptr);

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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void retranslate();

private:
    QVariant display(int row, Column column) const;
    QVariant sortValue(int row, Column column) const;

    QList<store::RunRow> runs_;
    QList<bool> abandoned_;
    QHash<qint64, app::RunDetails> details_;
    QHash<qint64, int> rowOf_;
    qint64 attachedRun_ = -1;
};

// Sorting by raw values, and a filter on the text of the name, status,
// reason and plan, plus the status itself.
class RunsFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsFilterProxy(QObject* parent = nullptr);
    void setText(const QString& text);
    // "" shows every status.
    void setStatus(const QString& storedStatus);
    QString status() const { return status_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString text_;
    QString status_;
};

} // namespace sb::gui
