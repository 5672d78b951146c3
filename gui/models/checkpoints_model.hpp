// The checkpoints of one run as a table. Verification results are kept per
// folder for the session, so they survive a reload of the list.
#pragma once

#include "checkpoints/checkpoint_catalog.hpp"

#include "column_table_model.hpp"

#include <QHash>

namespace sb::gui {

class CheckpointsModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { StepColumn, TimeColumn, SizeColumn, WorldColumn, KindColumn, StatusColumn, PathColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, StatusColorRole };

    explicit CheckpointsModel(QObject* parent = nullptr);

    void setCheckpoints(qint64 runId, const QList<app::CheckpointEntry>& entries);
    qint64 runId() const { return runId_; }
    const app::CheckpointEntry& entry(int row) const { return entries_[row]; }
    int rowOfPath(const QString& path) const;
    // After a verification: Verified (error "") or Corrupt.
    void setVerified(const QString& path, const QString& error);

    static QString statusText(app::CheckpointEntry::Status status);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    int rows() const override { return static_cast<int>(entries_.size()); }
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override;

    struct Verification {
        QString error;
    };
    void applyVerification(app::CheckpointEntry& e) const;

    qint64 runId_ = -1;
    QList<app::CheckpointEntry> entries_;
    QHash<QString, Verification> verified_;
};

} // namespace sb::gui
