#include "plan_diff.hpp"

#include "text/format.hpp"
#include "text/labels.hpp"

#include <QCoreApplication>
#include <QLocale>

#include <functional>
#include <set>

namespace sb::gui {

namespace {

struct PlanDiffText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::PlanDiffText)
};

QString yesNo(bool b) { return b ? PlanDiffText::tr("yes") : PlanDiffText::tr("no"); }
QString dtypeText(const std::optional<DType>& d)
{
    return d ? QString::fromLatin1(dtypeName(*d)) : PlanDiffText::tr("the parameter's own");
}
QString listText(const std::vector<std::string>& v)
{
    if (v.empty()) return PlanDiffText::tr("none");
    QStringList out;
    for (const std::string& s : v) out << QString::fromStdString(s);
    return out.join(QStringLiteral(", "));
}
QString number(double v) { return QLocale().toString(v, 'g', 6); }
QString count(std::int64_t v) { return formatCount(v); }
QString unitName(const std::string& m) { return m.empty() ? PlanDiffText::tr("(root)") : QString::fromStdString(m); }

class Differ {
public:
    explicit Differ(const std::vector<Plan>& plans) : plans_(plans) {}

    void field(PlanDifference::Section section, const QString& item, const std::function<QString(const Plan&)>& value)
    {
        QStringList values;
        for (const Plan& p : plans_) values << value(p);
        add(section, item, {}, values);
    }
    void add(PlanDifference::Section section, const QString& item, const QString& detail, const QStringList& values)
    {
        if (plans_.size() == 1) { // one run: its whole plan
            out.push_back({section, item, detail, values});
            return;
        }
        for (const QString& v : values)
            if (v != values.front()) {
                out.push_back({section, item, detail, values});
                return;
            }
    }
    std::vector<PlanDifference> out;

private:
    const std::vector<Plan>& plans_;
};

} // namespace

QString planDiffSectionName(PlanDifference::Section section)
{
    switch (section) {
    case PlanDifference::Model: return PlanDiffText::tr("Model");
    case PlanDifference::Mesh: return PlanDiffText::tr("Mesh");
    case PlanDifference::Training: return PlanDiffText::tr("Training");
    case PlanDifference::Units: return PlanDiffText::tr("Shard units");
    case PlanDifference::Policy: return PlanDiffText::tr("Policy");
    }
    return {};
}

std::vector<PlanDifference> diffPlans(const std::vector<Plan>& plans)
{
    Differ d(plans);
    if (plans.empty()) return {};
    using S = PlanDifference;
    d.field(S::Model, PlanDiffText::tr("preset"), [](const Plan& p) { return QString::fromStdString(p.model.preset); });
    d.field(S::Model, PlanDiffText::tr("architecture"), [](const Plan& p) { return archLabel(p.model.arch); });
    d.field(S::Model, PlanDiffText::tr("vocabulary"), [](const Plan& p) { return count(p.model.vocabSize); });
    d.field(S::Model, PlanDiffText::tr("width"), [](const Plan& p) { return count(p.model.dim); });
    d.field(S::Model, PlanDiffText::tr("layers"), [](const Plan& p) { return count(p.model.nLayers); });
    d.field(S::Model, PlanDiffText::tr("heads"), [](const Plan& p) { return count(p.model.nHeads); });
    d.field(S::Model, PlanDiffText::tr("key/value heads"), [](const Plan& p) { return count(p.model.nKvHeads); });
    d.field(S::Model, PlanDiffText::tr("MLP width"), [](const Plan& p) { return count(p.model.ffnHidden); });
    d.field(S::Model, PlanDiffText::tr("longest sequence"), [](const Plan& p) { return count(p.model.maxSeqLen); });
    d.field(S::Model, PlanDiffText::tr("parameter dtype"), [](const Plan& p) { return QString::fromLatin1(dtypeName(p.model.dtype)); });
    d.field(S::Mesh, PlanDiffText::tr("nodes"), [](const Plan& p) { return count(p.mesh.nodes); });
    d.field(S::Mesh, PlanDiffText::tr("processes per node"), [](const Plan& p) { return count(p.mesh.procsPerNode); });
    d.field(S::Mesh, PlanDiffText::tr("replicas (HSDP)"), [](const Plan& p) { return count(p.mesh.replicate); });
    d.field(S::Mesh, PlanDiffText::tr("device"), [](const Plan& p) { return QString::fromStdString(p.mesh.deviceName); });
    d.field(S::Mesh, PlanDiffText::tr("memory per rank"), [](const Plan& p) { return formatBytes(p.mesh.deviceMemoryBytes); });
    d.field(S::Training, PlanDiffText::tr("micro-batch"), [](const Plan& p) { return count(p.training.microBatch); });
    d.field(S::Training, PlanDiffText::tr("sequence length"), [](const Plan& p) { return count(p.training.seqLen); });
    d.field(S::Training, PlanDiffText::tr("accumulation steps"), [](const Plan& p) { return count(p.training.gradAccum); });
    d.field(S::Training, PlanDiffText::tr("steps"), [](const Plan& p) { return count(p.training.steps); });
    d.field(S::Training, PlanDiffText::tr("seed"), [](const Plan& p) { return QString::number(p.training.seed); });
    d.field(S::Training, PlanDiffText::tr("gradient clipping"), [](const Plan& p) { return number(p.training.gradClip); });
    d.field(S::Training, PlanDiffText::tr("learning rate"), [](const Plan& p) { return number(p.training.optimizer.lr); });
    d.field(S::Training, PlanDiffText::tr("schedule"), [](const Plan& p) { return QString::fromStdString(p.training.optimizer.schedule); });
    d.field(S::Training, PlanDiffText::tr("warm-up steps"), [](const Plan& p) { return count(p.training.optimizer.warmupSteps); });
    d.field(S::Training, PlanDiffText::tr("weight decay"), [](const Plan& p) { return number(p.training.optimizer.weightDecay); });
    d.field(S::Training, PlanDiffText::tr("data"), [](const Plan& p) {
        switch (p.training.data.kind) {
        case DataConfig::Synthetic: return PlanDiffText::tr("synthetic");
        case DataConfig::Tokens: return PlanDiffText::tr("tokens: %1").arg(QString::fromStdString(p.training.data.path));
        case DataConfig::Text: return PlanDiffText::tr("text: %1").arg(QString::fromStdString(p.training.data.path));
        }
        return QString();
    });
    d.field(S::Training, PlanDiffText::tr("checkpoint folder"), [](const Plan& p) { return QString::fromStdString(p.training.checkpoint.dir); });
    d.field(S::Training, PlanDiffText::tr("checkpoint every"), [](const Plan& p) { return count(p.training.checkpoint.interval); });

    // Units: every module that is a unit in some plan.
    std::set<std::string> modules;
    for (const Plan& p : plans)
        for (const UnitPolicy& u : p.units) modules.insert(u.module);
    for (const std::string& m : modules) {
        QStringList present;
        bool everywhere = true;
        for (const Plan& p : plans) {
            const bool is = p.findUnit(m) != nullptr;
            everywhere = everywhere && is;
            present << (is ? PlanDiffText::tr("unit") : PlanDiffText::tr("not a unit"));
        }
        if (!everywhere) {
            d.add(S::Units, unitName(m), {}, present);
            continue;
        }
        auto policy = [&](const QString& name, const std::function<QString(const UnitPolicy&)>& value) {
            QStringList values;
            for (const Plan& p : plans) values << value(*p.findUnit(m));
            d.add(S::Policy, unitName(m), name, values);
        };
        policy(PlanDiffText::tr("reshard after forward"), [](const UnitPolicy& u) { return reshardLabel(u.reshard); });
        policy(PlanDiffText::tr("param dtype"), [](const UnitPolicy& u) { return dtypeText(u.mp.paramDtype); });
        policy(PlanDiffText::tr("reduce dtype"), [](const UnitPolicy& u) { return dtypeText(u.mp.reduceDtype); });
        policy(PlanDiffText::tr("output dtype"), [](const UnitPolicy& u) { return dtypeText(u.mp.outputDtype); });
        policy(PlanDiffText::tr("cast forward inputs"), [](const UnitPolicy& u) { return yesNo(u.mp.castForwardInputs); });
        policy(PlanDiffText::tr("CPU offload"), [](const UnitPolicy& u) { return yesNo(u.offload); });
        policy(PlanDiffText::tr("activation checkpointing"), [](const UnitPolicy& u) { return yesNo(u.ac == Checkpointing::Full); });
        policy(PlanDiffText::tr("forward prefetch"), [](const UnitPolicy& u) { return listText(u.forwardPrefetch); });
        policy(PlanDiffText::tr("backward prefetch"), [](const UnitPolicy& u) { return listText(u.backwardPrefetch); });
        policy(PlanDiffText::tr("ignored parameters"), [](const UnitPolicy& u) { return listText(u.ignoredParams); });
    }
    return d.out;
}

} // namespace sb::gui
