#include "mesh_panel.hpp"

#include "number_field.hpp"
#include "plan_fields.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "models/device_presets.hpp"
#include "plan/plan_limits.hpp"
#include "text/format.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>

#include <cmath>

namespace sb::gui {

namespace {

int merge(const char* key)
{
    const QLatin1String k(key);
    return k == QLatin1String("nodes") ? MergeNodes : k == QLatin1String("procs_per_node") ? MergeProcsPerNode
         : k == QLatin1String("replicate") ? MergeReplicate : MergeDeviceMemory;
}

} // namespace

MeshPanel::MeshPanel(PlanDocument* document, QWidget* parent)
    : Retranslated<QWidget>(parent), document_(document), notes_(new FieldNotes), fields_(new PlanFields(document, notes_, this)),
      nodes_(new NumberField("nodes", NumberField::Integer, 1, plan_limits::kMaxNodes)),
      procs_(new NumberField("procs_per_node", NumberField::Integer, 1, plan_limits::kMaxProcsPerNode)),
      replicate_(new NumberField("replicate", NumberField::Integer, 1, plan_limits::kMaxReplicate)), device_(new QComboBox),
      capacity_(new NumberField("device_memory_gib", NumberField::Real, 0, plan_limits::kMaxMemoryGiB)), info_(new QLabel)
{
    setObjectName(QStringLiteral("meshPanel"));
    device_->setObjectName(QStringLiteral("device"));
    device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device_->setMinimumContentsLength(14);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(notes_);
    QWidget* fields[5] = {nodes_, procs_, replicate_, device_, capacity_};
    for (int i = 0; i < 5; ++i) {
        labels_[i] = new QLabel;
        form->addRow(labels_[i], fields[i]);
    }
    info_->setWordWrap(true);
    form->addRow(info_);
    const JsonPath mesh = JsonPath().key("mesh");
    using Get = double (*)(const Plan&);
    using Set = void (*)(Mesh&, double);
    const struct {
        NumberField* field;
        QLabel* caption;
        Get get;
        Set set;
    } bound[] = {
        {nodes_, labels_[0], [](const Plan& p) { return double(p.mesh.nodes); }, [](Mesh& m, double v) { m.nodes = int(v); }},
        {procs_, labels_[1], [](const Plan& p) { return double(p.mesh.procsPerNode); }, [](Mesh& m, double v) { m.procsPerNode = int(v); }},
        {replicate_, labels_[2], [](const Plan& p) { return double(p.mesh.replicate); }, [](Mesh& m, double v) { m.replicate = int(v); }},
        {capacity_, labels_[4], [](const Plan& p) { return toGiB(p.mesh.deviceMemoryBytes); },
         [](Mesh& m, double v) { m.deviceMemoryBytes = static_cast<std::uint64_t>(std::llround(v * static_cast<double>(kGiB))); }},
    };
    for (const auto& b : bound) {
        const int key = merge(b.field->objectName().toLatin1().constData());
        fields_->bind(b.field, b.caption, mesh.key(b.field->objectName().toStdString()), b.get,
                      [this, set = b.set, key](double v, const JsonPath& path) {
                          Mesh m = document_->plan().mesh;
                          set(m, v);
                          if (!editMesh(*document_, m, key, {path})) refresh();
                      });
    }
    connect(device_, &QComboBox::activated, this, &MeshPanel::deviceChosen);
    // Once per applied change (problemsChanged follows every one, a mesh change included).
    connect(document_, &PlanDocument::problemsChanged, this, &MeshPanel::refresh);
    retranslateUi();
}

void MeshPanel::retranslateUi()
{
    labels_[0]->setText(tr("Nodes"));
    labels_[1]->setText(tr("GPUs per node"));
    labels_[2]->setText(tr("Replicate (HSDP)"));
    labels_[3]->setText(tr("Device"));
    labels_[4]->setText(tr("Memory per rank"));
    replicate_->setToolTip(tr("Replicas of the model; each shards over world size / replicate ranks"));
    capacity_->setSuffix(tr(" GiB"));
    const QSignalBlocker block(device_);
    device_->clear();
    for (const DevicePreset& p : devicePresets()) device_->addItem(devicePresetLabel(p));
    refresh();
}

void MeshPanel::refresh()
{
    const Mesh& m = document_->plan().mesh;
    fields_->refresh();
    const QSignalBlocker block(device_);
    const int preset = devicePresetIndex(m);
    device_->setCurrentIndex(preset);
    const JsonPath device = JsonPath().key("mesh").key("device");
    markInvalid(device_, problemsAt(*document_, device)); // a kept value's problem is among them
    capacity_->setEnabled(devicePresets()[static_cast<std::size_t>(preset)].editableCapacity);
    info_->setText(tr("World size %1, shard group %2 ranks").arg(formatCount(m.worldSize()), formatCount(m.shardSize())));
}

void MeshPanel::deviceChosen(int index)
{
    if (!editMesh(*document_, withDevicePreset(document_->plan().mesh, index))) refresh();
}

bool MeshPanel::focusField(const QString& field)
{
    QWidget* w = field == u"procs_per_node" ? static_cast<QWidget*>(procs_)
               : field == u"replicate"      ? static_cast<QWidget*>(replicate_)
               : field == u"device_memory_gib" ? static_cast<QWidget*>(capacity_)
               : field == u"device" || field == u"device_name" ? static_cast<QWidget*>(device_)
                                                              : static_cast<QWidget*>(nodes_);
    w->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace sb::gui
