#include "plan_tree_model.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"
#include "text/problem_location.hpp"
#include "text/problem_text.hpp"

#include "document/plan_document.hpp"
#include "plan/resolve.hpp"

#include <QApplication>
#include <QFont>
#include <QPalette>
#include <QStyle>

namespace sb::gui {

namespace {

constexpr quintptr kParamBit = quintptr(1) << (sizeof(quintptr) * 8 - 1);

bool isCheckColumn(int column)
{
    return column == PlanTreeModel::UnitColumn || column == PlanTreeModel::OffloadColumn ||
           column == PlanTreeModel::CheckpointColumn;
}

QString dtypeText(DType t) { return QString::fromLatin1(dtypeName(t)); }

} // namespace

bool PlanTreeModel::RowState::operator==(const RowState& o) const
{
    return policy == o.policy && (policy < 0 || unit == o.unit) && owner == o.owner && paramDtype == o.paramDtype &&
           reduceDtype == o.reduceDtype && severity == o.severity && problems == o.problems && kept == o.kept;
}

PlanTreeModel::PlanTreeModel(PlanDocument* document, QObject* parent)
    : QAbstractItemModel(parent), document_(document),
      errorIcon_(QApplication::style()->standardIcon(QStyle::SP_MessageBoxCritical)),
      warningIcon_(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning))
{
    connect(document_, &PlanDocument::modelReset, this, &PlanTreeModel::resetFromDocument);
    connect(document_, &PlanDocument::problemsChanged, this, &PlanTreeModel::refreshRows);
    resetFromDocument();
}

std::optional<PolicyField> PlanTreeModel::policyField(int column)
{
    switch (column) {
    case UnitColumn: return PolicyField::Unit;
    case ReshardColumn: return PolicyField::Reshard;
    case ParamDtypeColumn: return PolicyField::ParamDtype;
    case ReduceDtypeColumn: return PolicyField::ReduceDtype;
    case OutputDtypeColumn: return PolicyField::OutputDtype;
    case OffloadColumn: return PolicyField::Offload;
    case CheckpointColumn: return PolicyField::Checkpointing;
    case ForwardPrefetchColumn: return PolicyField::ForwardPrefetch;
    case BackwardPrefetchColumn: return PolicyField::BackwardPrefetch;
    default: return std::nullopt;
    }
}

int PlanTreeModel::columnOf(PolicyField field)
{
    for (int c = 0; c < ColumnCount; ++c)
        if (policyField(c) == field) return c;
    return -1;
}

void PlanTreeModel::resetFromDocument()
{
    beginResetModel();
    tree_ = document_->sharedTree();
    const ModuleTree& t = *tree_;
    const std::size_t nm = t.modules().size();
    childRow_.assign(nm, 0);
    paramRow_.assign(t.params().size(), 0);
    subtreeParams_.assign(nm, 0);
    for (std::size_t m = 0; m < nm; ++m) {
        const Module& mod = t.modules()[m];
        for (std::size_t j = 0; j < mod.params.size(); ++j) paramRow_[static_cast<std::size_t>(mod.params[j])] = static_cast<int>(j);
        for (std::size_t j = 0; j < mod.children.size(); ++j)
            childRow_[static_cast<std::size_t>(mod.children[j])] = static_cast<int>(mod.params.size() + j);
    }
    // Unique parameters per subtree: a tied alias counts once, at its owner.
    for (std::size_t m = nm; m-- > 0;) {
        for (int p : t.modules()[m].params)
            if (t.param(p).tiedTo < 0) subtreeParams_[m] += t.param(p).numel();
        if (t.modules()[m].parent >= 0) subtreeParams_[static_cast<std::size_t>(t.modules()[m].parent)] += subtreeParams_[m];
    }
    rows_ = computeRows();
    endResetModel();
}

std::vector<PlanTreeModel::RowState> PlanTreeModel::computeRows() const
{
    const Plan& plan = document_->plan();
    const ModuleTree& t = *tree_;
    std::vector<RowState> rows(t.modules().size());
    const ResolvedPlan r = resolvePlan(plan, t);
    for (std::size_t i = 0; i < plan.units.size(); ++i) {
        const int m = t.findModule(plan.units[i].module);
        if (m < 0 || rows[static_cast<std::size_t>(m)].policy >= 0) continue;
        rows[static_cast<std::size_t>(m)].policy = static_cast<int>(i);
        rows[static_cast<std::size_t>(m)].unit = plan.units[i];
    }
    for (std::size_t m = 0; m < rows.size() && m < r.moduleUnit.size(); ++m) {
        const int u = r.moduleUnit[m];
        if (u < 0) continue;
        const ResolvedUnit& ru = r.units[static_cast<std::size_t>(u)];
        rows[m].owner = ru.module;
        rows[m].paramDtype = ru.paramDtype;
        rows[m].reduceDtype = ru.reduceDtype;
    }
    const Problems& problems = document_->problems();
    for (std::size_t i = 0; i < problems.size(); ++i) {
        const ProblemLocation loc = locateProblem(problems[i].path, plan, t);
        if (loc.kind != ProblemLocation::Unit || loc.module < 0) continue;
        RowState& row = rows[static_cast<std::size_t>(loc.module)];
        row.severity = std::max(row.severity, problems[i].severity == Severity::Error ? 2 : 1);
        row.problems.push_back(static_cast<int>(i));
    }
    // A policy value of the file the plan could not hold is shown in its cell as written.
    const KeptValues& kept = document_->keptValues();
    for (std::size_t i = 0; i < kept.size(); ++i) {
        const JsonPath& path = document_->keptPath(i);
        if (!path.indexAt(1)) continue;
        const int m = t.findModule(plan.units[*path.indexAt(1)].module);
        const int column = keptColumn(path);
        if (m >= 0 && column >= 0) rows[static_cast<std::size_t>(m)].kept[column] = static_cast<int>(i);
    }
    return rows;
}

void PlanTreeModel::refreshRows()
{
    if (tree_ != document_->sharedTree()) return; // a reset is on its way
    std::vector<RowState> next = computeRows();
    for (std::size_t m = 0; m < next.size(); ++m) {
        if (next[m] == rows_[m]) continue;
        rows_[m] = std::move(next[m]);
        const int mi = static_cast<int>(m);
        Q_EMIT dataChanged(indexOfModule(mi, 0), indexOfModule(mi, ColumnCount - 1));
    }
}

int PlanTreeModel::moduleOf(const QModelIndex& index) const
{
    if (!index.isValid() || (index.internalId() & kParamBit)) return -1;
    return static_cast<int>(index.internalId());
}

int PlanTreeModel::paramOf(const QModelIndex& index) const
{
    if (!index.isValid() || !(index.internalId() & kParamBit)) return -1;
    return static_cast<int>(index.internalId() & ~kParamBit);
}

int PlanTreeModel::rowOfModule(int module) const { return module == 0 ? 0 : childRow_[static_cast<std::size_t>(module)]; }

QModelIndex PlanTreeModel::indexOfModule(int module, int column) const
{
    if (module < 0 || module >= static_cast<int>(rows_.size())) return {};
    return createIndex(rowOfModule(module), column, static_cast<quintptr>(module));
}

bool PlanTreeModel::isUnit(int module) const
{
    return module >= 0 && module < static_cast<int>(rows_.size()) && rows_[static_cast<std::size_t>(module)].policy >= 0;
}

int PlanTreeModel::problemSeverity(int module) const
{
    return module >= 0 && module < static_cast<int>(rows_.size()) ? rows_[static_cast<std::size_t>(module)].severity : 0;
}

QModelIndex PlanTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();
    const int pm = moduleOf(parent);
    if (pm < 0) return {};
    const Module& m = tree_->module(pm);
    const int nParams = static_cast<int>(m.params.size());
    if (row < nParams) return createIndex(row, column, static_cast<quintptr>(m.params[static_cast<std::size_t>(row)]) | kParamBit);
    if (row - nParams < static_cast<int>(m.children.size()))
        return createIndex(row, column, static_cast<quintptr>(m.children[static_cast<std::size_t>(row - nParams)]));
    return {};
}

QModelIndex PlanTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid()) return {};
    if (const int p = paramOf(child); p >= 0) return indexOfModule(tree_->param(p).module);
    const int m = moduleOf(child);
    return m > 0 ? indexOfModule(tree_->module(m).parent) : QModelIndex();
}

int PlanTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid()) return 1;
    if (parent.column() != 0) return 0;
    const int m = moduleOf(parent);
    if (m < 0) return 0;
    return static_cast<int>(tree_->module(m).params.size() + tree_->module(m).children.size());
}

int PlanTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

Qt::ItemFlags PlanTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const int m = moduleOf(index);
    if (m < 0) return f | Qt::ItemNeverHasChildren;
    const int c = index.column();
    if (c == UnitColumn) return m == 0 ? f : f | Qt::ItemIsUserCheckable;
    if (!isUnit(m) || !policyField(c)) return f;
    return isCheckColumn(c) ? f | Qt::ItemIsUserCheckable : f | Qt::ItemIsEditable;
}

QVariant PlanTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid()) return {};
    if (const int p = paramOf(index); p >= 0) return paramData(p, index.column(), role);
    return moduleData(moduleOf(index), index.column(), role);
}

QVariant PlanTreeModel::paramData(int param, int column, int role) const
{
    const Param& p = tree_->param(param);
    if (role == Qt::ForegroundRole) return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
    if (role == Qt::TextAlignmentRole && column == ParamsColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(p.path);
        if (p.tiedTo >= 0) tip += u'\n' + tr("Tied to %1").arg(QString::fromStdString(tree_->param(p.tiedTo).path));
        return tip;
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case NameColumn: {
        const std::string& mp = tree_->module(p.module).path;
        return QString::fromStdString(mp.empty() ? p.path : p.path.substr(mp.size() + 1));
    }
    case TypeColumn: return p.tiedTo >= 0 ? tr("%1, tied").arg(dtypeText(p.dtype)) : dtypeText(p.dtype);
    case ParamsColumn: return formatCount(p.numel());
    case ShapeColumn: return formatShape(p.shape);
    default: return {};
    }
}

QVariant PlanTreeModel::moduleData(int module, int column, int role) const
{
    const Module& m = tree_->module(module);
    const RowState& row = rows_[static_cast<std::size_t>(module)];
    if (column >= UnitColumn) return policyData(row, module, column, role);
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn) return module == 0 ? tr("(root)") : QString::fromStdString(m.name);
        if (column == TypeColumn) return QString::fromStdString(m.type);
        if (column == ParamsColumn) return formatCount(subtreeParams_[static_cast<std::size_t>(module)]);
        return {};
    case Qt::DecorationRole:
        if (column != NameColumn || row.severity == 0) return {};
        return row.severity == 2 ? errorIcon_ : warningIcon_;
    case Qt::BackgroundRole:
        if (row.severity == 2) return QColor(255, 228, 228);
        if (row.severity == 1) return QColor(255, 246, 214);
        return {};
    case Qt::FontRole:
        if (column == NameColumn && row.policy >= 0) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return column == ParamsColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole: {
        QString tip = module == 0 ? tr("The root module") : QString::fromStdString(m.path);
        for (int i : row.problems)
            tip += u'\n' + problemText(document_->problems()[static_cast<std::size_t>(i)]);
        return tip;
    }
    default: return {};
    }
}

int PlanTreeModel::keptColumn(const JsonPath& path)
{
    const std::string& key = path.keyAt(2);
    const std::string& inner = path.keyAt(3);
    if (key == "reshard_after_forward") return ReshardColumn;
    if (key == "offload") return OffloadColumn;
    if (key == "activation_checkpointing") return CheckpointColumn;
    if (key == "forward_prefetch") return ForwardPrefetchColumn;
    if (key == "backward_prefetch") return BackwardPrefetchColumn;
    if (key == "mixed_precision")
        return inner == "param_dtype" ? ParamDtypeColumn : inner == "reduce_dtype" ? ReduceDtypeColumn
             : inner == "output_dtype" ? OutputDtypeColumn : -1;
    return -1;
}

QVariant PlanTreeModel::policyData(const RowState& row, int module, int column, int role) const
{
    if (const auto k = row.kept.find(column); k != row.kept.end() && row.policy >= 0) {
        const KeptValue& kept = document_->keptValues()[static_cast<std::size_t>(k->second)];
        if (role == Qt::DisplayRole) return QString::fromStdString(kept.raw.dump());
        if (role == Qt::ForegroundRole) return QColor(0xb7, 0x1c, 0x1c);
        if (role == Qt::ToolTipRole) return problemText(kept.problem);
        if (role == Qt::CheckStateRole) return {};
    }
    const bool unit = row.policy >= 0;
    if (column == UnitColumn) {
        if (role == Qt::CheckStateRole) return unit ? Qt::Checked : Qt::Unchecked;
        if (role == Qt::ToolTipRole) {
            if (module == 0) return tr("The root is always a unit: it owns every parameter no other unit takes");
            if (unit) return tr("A shard unit (fully_shard is applied to this module)");
            const std::string& owner = tree_->module(row.owner).path;
            return tr("Sharded with unit %1").arg(owner.empty() ? tr("(root)") : QString::fromStdString(owner));
        }
        return {};
    }
    if (!unit) return {};
    const UnitPolicy& u = row.unit;
    const auto field = policyField(column);
    if (role == Qt::EditRole) return policyValue(u, *field);
    if (role == Qt::CheckStateRole && isCheckColumn(column))
        return policyValue(u, *field).toBool() ? Qt::Checked : Qt::Unchecked;
    const bool unset = (column == ReshardColumn && u.reshard.kind == Reshard::Default) ||
                       (column == ParamDtypeColumn && !u.mp.paramDtype) ||
                       (column == ReduceDtypeColumn && !u.mp.reduceDtype) ||
                       (column == OutputDtypeColumn && !u.mp.outputDtype);
    if (role == Qt::ForegroundRole && unset) return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
    if (role == Qt::ToolTipRole) {
        switch (column) {
        case ReshardColumn:
            if (u.reshard.kind != Reshard::Default) return {};
            return module == 0 ? tr("Default: the root keeps its parameters after forward (False)")
                               : tr("Default: free the parameters after forward (True)");
        case ParamDtypeColumn: return unset ? tr("Not set: the parameters' own dtype") : QVariant();
        case ReduceDtypeColumn: return unset ? tr("Not set: gradients are reduced in the parameter dtype") : QVariant();
        case OutputDtypeColumn: return unset ? tr("Not set: outputs are not cast") : QVariant();
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case ReshardColumn: return reshardLabel(u.reshard);
    case ParamDtypeColumn: return dtypeText(u.mp.paramDtype.value_or(row.paramDtype));
    case ReduceDtypeColumn: return dtypeText(u.mp.reduceDtype.value_or(row.reduceDtype));
    case OutputDtypeColumn: return u.mp.outputDtype ? dtypeText(*u.mp.outputDtype) : QStringLiteral("None");
    case ForwardPrefetchColumn:
    case BackwardPrefetchColumn: return policyValue(u, *field).toStringList().join(QStringLiteral(", "));
    default: return {};
    }
}

QVariant PlanTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn: return tr("Module");
        case TypeColumn: return tr("Type");
        case ParamsColumn: return tr("Parameters");
        case ShapeColumn: return tr("Shape");
        case UnitColumn: return tr("Unit");
        case ReshardColumn: return tr("Reshard");
        case ParamDtypeColumn: return tr("Param dtype");
        case ReduceDtypeColumn: return tr("Reduce dtype");
        case OutputDtypeColumn: return tr("Output dtype");
        case OffloadColumn: return tr("Offload");
        case CheckpointColumn: return tr("Checkpoint");
        case ForwardPrefetchColumn: return tr("Forward prefetch");
        case BackwardPrefetchColumn: return tr("Backward prefetch");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case UnitColumn: return tr("Shard unit: fully_shard is applied to this module");
        case ReshardColumn: return tr("reshard_after_forward: default, True, False, or an integer k (keep a 1/k copy)");
        case ParamDtypeColumn: return tr("MixedPrecisionPolicy.param_dtype: the dtype gathered parameters compute in");
        case ReduceDtypeColumn: return tr("MixedPrecisionPolicy.reduce_dtype: the dtype gradients are reduced in");
        case OutputDtypeColumn: return tr("MixedPrecisionPolicy.output_dtype: the dtype the unit's outputs are cast to");
        case OffloadColumn: return tr("CPUOffloadPolicy: sharded parameters, gradients and optimizer state on the host");
        case CheckpointColumn: return tr("Activation checkpointing: keep only the unit's input and recompute in backward");
        case ForwardPrefetchColumn: return tr("Units to all-gather early in forward (comma-separated)");
        case BackwardPrefetchColumn: return tr("Units to all-gather early in backward (comma-separated)");
        default: return {};
        }
    }
    return {};
}

bool PlanTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole && role != Qt::CheckStateRole) return false;
    return setCells({index}, value);
}

bool PlanTreeModel::setCells(const QModelIndexList& indexes, const QVariant& value)
{
    if (indexes.isEmpty()) return false;
    const int column = indexes.first().column();
    const auto field = policyField(column);
    if (!field) return false;
    std::vector<int> modules;
    for (const QModelIndex& i : indexes) {
        const int m = moduleOf(i);
        if (m >= 0 && i.column() == column && (flags(i) & (Qt::ItemIsEditable | Qt::ItemIsUserCheckable))) modules.push_back(m);
    }
    if (modules.empty()) return false;
    QVariant v = value;
    if (isCheckColumn(column) && value.userType() != QMetaType::Bool) v = value.toInt() == Qt::Checked;
    if ((*field == PolicyField::ForwardPrefetch || *field == PolicyField::BackwardPrefetch) &&
        value.userType() == QMetaType::QString)
        v = value.toString().split(u',', Qt::SkipEmptyParts);
    return editPolicy(*document_, modules, *field, v);
}

void PlanTreeModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    Q_EMIT layoutAboutToBeChanged();
    Q_EMIT layoutChanged();
}

} // namespace sb::gui
