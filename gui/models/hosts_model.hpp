// The Cluster table: this machine, then every known host (SSH config aliases
// and hosts added by hand), with the outcome of its latest connection test.
// Only the GPU count is edited here (the ranks to run on the host). The
// Engine column is what a test found of the engine it tested for: the core,
// or the Python with PyTorch.
#pragma once

#include "column_table_model.hpp"
#include "hosts/host_probe.hpp"

#include <QHash>

#include <optional>

namespace sb::app {
class HostCatalog;
} // namespace sb::app

namespace sb::gui {

class HostsModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { HostColumn, AddressColumn, UserColumn, PortColumn, KeyColumn, GpusColumn, SourceColumn,
                  ReachableColumn, LoginColumn, GpusSeenColumn, EngineColumn, DetailsColumn, ColumnCount };
    // For the state delegate: what a check column shows.
    enum CheckState { Untested, Testing, Passed, Failed, NotApplicable };
    static constexpr int CheckStateRole = Qt::UserRole + 1;
    static constexpr int StatusColorRole = Qt::UserRole + 2; // for StatusDelegate

    explicit HostsModel(app::HostCatalog* catalog, QObject* parent = nullptr);

    // Row 0 is this machine; the others are the catalog's hosts in order.
    bool isLocal(int row) const { return row == 0; }
    QString hostName(int row) const; // "" for this machine
    bool isManual(int row) const;    // added by hand (can be edited and removed)
    int rowOfHost(const QString& name) const;
    std::optional<app::HostProbeResult> result(int row) const;

    void setTesting(const QString& host, bool testing); // "" = this machine
    void setResult(const QString& host, const app::HostProbeResult& result);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override;
    CheckState checkState(int row, Column column) const;
    // The Engine cell of a host whose engine failed the test: what it lacks, in short.
    static QString engineFailureText(const app::HostProbeResult& r);
    void rowChanged(int row);

    app::HostCatalog* catalog_;
    QHash<QString, app::HostProbeResult> results_;
    QHash<QString, bool> testing_;
};

} // namespace sb::gui
