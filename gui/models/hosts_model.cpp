#include "hosts_model.hpp"

#include "hosts/python_probe.hpp"

#include "text/connection_text.hpp"

#include "hosts/host_catalog.hpp"

#include <QColor>

namespace sb::gui {

using app::HostCatalog;
using app::HostEntry;
using app::HostProbeResult;

HostsModel::HostsModel(HostCatalog* catalog, QObject* parent) : ColumnTableModel(parent), catalog_(catalog)
{
    connect(catalog_, &HostCatalog::changed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

QString HostsModel::hostName(int row) const
{
    return row <= 0 || row > catalog_->hosts().size() ? QString() : catalog_->hosts()[row - 1].name;
}

bool HostsModel::isManual(int row) const
{
    return row > 0 && row <= catalog_->hosts().size() && catalog_->hosts()[row - 1].source == HostEntry::Manual;
}

int HostsModel::rowOfHost(const QString& name) const
{
    if (name.isEmpty()) return 0;
    const int i = catalog_->indexOf(name);
    return i < 0 ? -1 : i + 1;
}

std::optional<HostProbeResult> HostsModel::result(int row) const
{
    const auto it = results_.find(hostName(row));
    if (it == results_.end()) return std::nullopt;
    return *it;
}

void HostsModel::rowChanged(int row)
{
    if (row >= 0) Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void HostsModel::setTesting(const QString& host, bool testing)
{
    testing_[host] = testing;
    rowChanged(rowOfHost(host));
}

void HostsModel::setResult(const QString& host, const HostProbeResult& result)
{
    results_[host] = result;
    testing_[host] = false;
    rowChanged(rowOfHost(host));
}

int HostsModel::rows() const { return static_cast<int>(catalog_->hosts().size()) + 1; }

HostsModel::CheckState HostsModel::checkState(int row, Column column) const
{
    const QString name = hostName(row);
    if (testing_.value(name)) return Testing;
    const auto it = results_.find(name);
    if (it == results_.end()) return Untested;
    const HostProbeResult& r = *it;
    if (r.failure == HostProbeResult::Cancelled) return Untested;
    switch (column) {
    case ReachableColumn: return isLocal(row) ? NotApplicable : r.reachable ? Passed : Failed;
    case LoginColumn:
        if (isLocal(row)) return NotApplicable;
        return r.authenticated ? Passed : r.reachable ? Failed : Untested;
    case GpusSeenColumn: return r.authenticated ? (r.gpus.isEmpty() ? NotApplicable : Passed) : Untested;
    case EngineColumn:
        if (r.ok() && !(r.coreVersion.isEmpty() && r.pythonVersion.isEmpty())) return Passed;
        if (engineProblem(r)) return Failed;
        return Untested;
    default: return NotApplicable;
    }
}

QString HostsModel::engineFailureText(const HostProbeResult& r)
{
    switch (r.failure) {
    case HostProbeResult::CoreMissing:
    case HostProbeResult::PythonMissing: return tr("not found");
    case HostProbeResult::TorchMissing: return tr("no PyTorch");
    case HostProbeResult::TorchTooOld: return tr("PyTorch %1: too old").arg(r.torchVersion);
    case HostProbeResult::TorchWithoutCuda:
        return (r.torchCuda ? tr("PyTorch %1: no NCCL") : tr("PyTorch %1: no CUDA")).arg(r.torchVersion);
    default: return tr("not working");
    }
}

QVariant HostsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const int row = index.row();
    const auto column = static_cast<Column>(index.column());
    const HostEntry* host = isLocal(row) ? nullptr : &catalog_->hosts()[row - 1];
    const std::optional<HostProbeResult> r = result(row);
    if (role == CheckStateRole) return static_cast<int>(checkState(row, column));
    if (role == StatusColorRole) {
        if (column != ReachableColumn && column != LoginColumn && column != GpusSeenColumn && column != EngineColumn) return {};
        switch (checkState(row, column)) {
        case Testing: return QColor(0x1f, 0x6f, 0xc5);
        case Passed: return QColor(0x2e, 0x8b, 0x3e);
        case Failed: return QColor(0xc6, 0x28, 0x28);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (!r) return {};
        QString tip = probeSummaryText(*r);
        if (!r->keyFingerprint.isEmpty()) tip += u'\n' + r->keyType + u' ' + r->keyFingerprint;
        return tip;
    }
    if (role == Qt::EditRole && column == GpusColumn && host) return host->gpus;
    if (role != Qt::DisplayRole) return {};
    const CheckState state = checkState(row, column);
    switch (column) {
    case HostColumn: return host ? host->name : tr("This machine");
    case AddressColumn:
        if (!host) return QStringLiteral("localhost");
        return r && !r->address.isEmpty() ? r->address : host->hostname.isEmpty() ? host->name : host->hostname;
    case UserColumn: return host ? (r && !r->user.isEmpty() ? r->user : host->user) : QString();
    case PortColumn:
        if (!host) return {};
        return r && r->port > 0 ? r->port : host->port > 0 ? host->port : 22;
    case KeyColumn: return host ? host->identityFile : QString();
    case GpusColumn:
        if (!host) return {};
        return host->gpus > 0 ? QString::number(host->gpus) : tr("plan's");
    case SourceColumn:
        if (!host) return tr("local");
        return host->source == HostEntry::Manual ? tr("added by hand") : tr("SSH config");
    case ReachableColumn:
        if (state == Testing) return tr("testing…");
        if (state == Passed) return tr("yes");
        if (state == Failed) return tr("no");
        return {};
    case LoginColumn:
        if (state == Testing) return tr("testing…");
        if (state == Passed) return r && !r->user.isEmpty() ? tr("as %1").arg(r->user) : tr("yes");
        if (state == Failed && r) {
            switch (r->failure) {
            case HostProbeResult::HostKeyRefused: return tr("key refused");
            case HostProbeResult::HostKeyChanged:
            case HostProbeResult::HostKeyOtherType: return tr("key changed");
            default: return tr("no");
            }
        }
        return {};
    case GpusSeenColumn:
        if (state == Testing) return tr("testing…");
        return r && r->authenticated ? probeGpuText(*r) : QString();
    case EngineColumn:
        if (state == Testing) return tr("testing…");
        if (state == Failed && r) return engineFailureText(*r);
        return r ? probeEngineText(*r) : QString();
    case DetailsColumn:
        if (testing_.value(hostName(row))) return tr("testing…");
        return r ? (r->ok() ? probeSummaryText(*r) : probeFailureText(*r)) : QString();
    case ColumnCount: break;
    }
    return {};
}

bool HostsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != GpusColumn || isLocal(index.row())) return false;
    bool ok = false;
    const int gpus = value.toInt(&ok);
    if (!ok || gpus < 0 || gpus > 4096) return false;
    catalog_->setGpus(hostName(index.row()), gpus);
    return true;
}

Qt::ItemFlags HostsModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == GpusColumn && !isLocal(index.row())) f |= Qt::ItemIsEditable;
    return f;
}

QString HostsModel::columnTitle(int column) const
{
    switch (static_cast<Column>(column)) {
    case HostColumn: return tr("Host");
    case AddressColumn: return tr("Address");
    case UserColumn: return tr("User");
    case PortColumn: return tr("Port");
    case KeyColumn: return tr("Key file");
    case GpusColumn: return tr("Ranks (GPUs)");
    case SourceColumn: return tr("From");
    case ReachableColumn: return tr("Reachable");
    case LoginColumn: return tr("Logged in");
    case GpusSeenColumn: return tr("GPUs seen");
    case EngineColumn: return tr("Engine");
    case DetailsColumn: return tr("Details");
    case ColumnCount: break;
    }
    return {};
}

} // namespace sb::gui
