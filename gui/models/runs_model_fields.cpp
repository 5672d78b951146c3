// RunsModel's columns by name, and the columns read from a run's plan
// (reshard after forward, dtypes, offload, batch, learning rate).
#include "runs_model.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"

#include <QLocale>

#include <array>

namespace sb::gui {

namespace {
// Stable names: saved in settings (hidden columns) and typed in filter terms.
constexpr std::array<const char*, RunsModel::ColumnCount> kKeys = {
    "run", "name", "tags", "status", "reason", "world", "plan", "reshard", "param", "reduce", "offload",
    "micro", "batch", "lr", "started", "duration", "loss", "eval", "rate", "peak"};

QString mixedText() { return RunsModel::tr("mixed"); }

QString dtypeText(const app::UnitsValue<std::optional<DType>>& d)
{
    if (d.mixed) return mixedText();
    return d.value ? QString::fromLatin1(dtypeName(*d.value)) : RunsModel::tr("own");
}
} // namespace

QString RunsModel::columnKey(int column)
{
    return column >= 0 && column < ColumnCount ? QString::fromLatin1(kKeys[static_cast<std::size_t>(column)]) : QString();
}

int RunsModel::columnOfKey(const QString& key)
{
    for (int c = 0; c < ColumnCount; ++c)
        if (key.compare(QLatin1String(kKeys[static_cast<std::size_t>(c)]), Qt::CaseInsensitive) == 0) return c;
    return -1;
}

bool RunsModel::isNumeric(int column)
{
    switch (column) {
    case IdColumn: case WorldColumn: case MicroBatchColumn: case GlobalBatchColumn: case LrColumn: case StartColumn:
    case DurationColumn: case LossColumn: case EvalLossColumn: case RateColumn: case PeakColumn: return true;
    default: return false;
    }
}

QList<int> RunsModel::planFieldColumns()
{
    return {WorldColumn, ReshardColumn, ParamDtypeColumn, ReduceDtypeColumn, OffloadColumn, MicroBatchColumn, GlobalBatchColumn, LrColumn};
}

QList<int> RunsModel::outcomeColumns() { return {LossColumn, EvalLossColumn, RateColumn, PeakColumn}; }

QVariant RunsModel::fieldText(const app::RunDetails& d, Column column)
{
    const app::RunPlanFields& f = d.fields;
    if (!f.read) return {};
    switch (column) {
    case ReshardColumn: return f.reshard.mixed ? mixedText() : reshardLabel(f.reshard.value);
    case ParamDtypeColumn: return dtypeText(f.paramDtype);
    case ReduceDtypeColumn: return dtypeText(f.reduceDtype);
    case OffloadColumn: return f.offload.mixed ? mixedText() : f.offload.value ? tr("yes") : tr("no");
    case MicroBatchColumn: return QLocale().toString(f.microBatch);
    case GlobalBatchColumn: return formatCount(f.globalBatchTokens);
    case LrColumn: return QLocale().toString(f.lr, 'g', 3);
    default: return {};
    }
}

QVariant RunsModel::fieldValue(const app::RunDetails& d, Column column)
{
    switch (column) {
    case MicroBatchColumn: return static_cast<double>(d.fields.microBatch);
    case GlobalBatchColumn: return static_cast<double>(d.fields.globalBatchTokens);
    case LrColumn: return d.fields.lr;
    default: return {};
    }
}

QString RunsModel::columnTitle(int column) const
{
    switch (static_cast<Column>(column)) {
    case IdColumn: return tr("Run");
    case NameColumn: return tr("Name");
    case TagsColumn: return tr("Tags");
    case StatusColumn: return tr("Status");
    case ReasonColumn: return tr("Reason");
    case WorldColumn: return tr("World size");
    case PlanColumn: return tr("Plan");
    case ReshardColumn: return tr("Reshard");
    case ParamDtypeColumn: return tr("Param dtype");
    case ReduceDtypeColumn: return tr("Reduce dtype");
    case OffloadColumn: return tr("CPU offload");
    case MicroBatchColumn: return tr("Micro-batch");
    case GlobalBatchColumn: return tr("Global batch (tokens)");
    case LrColumn: return tr("Learning rate");
    case StartColumn: return tr("Started");
    case DurationColumn: return tr("Duration");
    case LossColumn: return tr("Final loss");
    case EvalLossColumn: return tr("Eval loss");
    case RateColumn: return tr("Tokens/s");
    case PeakColumn: return tr("Peak memory per rank");
    case ColumnCount: break;
    }
    return {};
}

} // namespace sb::gui
