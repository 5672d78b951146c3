#include "mesh_panel.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "models/device_presets.hpp"
#include "text/format.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>

namespace sb::gui {

namespace {

QSpinBox* countBox(const char* name, int max)
{
    auto* box = new QSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(1, max);
    box->setKeyboardTracking(false);
    box->setGroupSeparatorShown(true);
    return box;
}

} // namespace

MeshPanel::MeshPanel(PlanDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), nodes_(countBox("nodes", kMaxWorldSize)),
      procs_(countBox("procs_per_node", 1024)), replicate_(countBox("replicate", kMaxWorldSize)),
      device_(new QComboBox), capacity_(new QDoubleSpinBox), info_(new QLabel)
{
    setObjectName(QStringLiteral("meshPanel"));
    device_->setObjectName(QStringLiteral("device"));
    device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device_->setMinimumContentsLength(14);
    capacity_->setObjectName(QStringLiteral("device_memory_gib"));
    capacity_->setRange(0.5, 1e6);
    capacity_->setDecimals(1);
    capacity_->setKeyboardTracking(false);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    QWidget* fields[5] = {nodes_, procs_, replicate_, device_, capacity_};
    for (int i = 0; i < 5; ++i) {
        labels_[i] = new QLabel;
        form->addRow(labels_[i], fields[i]);
    }
    info_->setWordWrap(true);
    form->addRow(info_);
    connect(nodes_, &QSpinBox::valueChanged, this, [this] { edited(MergeNodes); });
    connect(procs_, &QSpinBox::valueChanged, this, [this] { edited(MergeProcsPerNode); });
    connect(replicate_, &QSpinBox::valueChanged, this, [this] { edited(MergeReplicate); });
    connect(capacity_, &QDoubleSpinBox::valueChanged, this, [this] { edited(MergeDeviceMemory); });
    connect(device_, &QComboBox::activated, this, &MeshPanel::deviceChosen);
    connect(document_, &PlanDocument::meshChanged, this, &MeshPanel::refresh);
    retranslateUi();
}

void MeshPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
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
    const QSignalBlocker b1(nodes_), b2(procs_), b3(replicate_), b4(device_), b5(capacity_);
    nodes_->setValue(m.nodes);
    procs_->setValue(m.procsPerNode);
    replicate_->setValue(m.replicate);
    const int preset = devicePresetIndex(m);
    device_->setCurrentIndex(preset);
    capacity_->setValue(toGiB(m.deviceMemoryBytes));
    capacity_->setEnabled(devicePresets()[static_cast<std::size_t>(preset)].editableCapacity);
    info_->setText(tr("World size %1, shard group %2 ranks").arg(formatCount(m.worldSize()), formatCount(m.shardSize())));
}

void MeshPanel::edited(int mergeKey)
{
    Mesh m = document_->plan().mesh;
    m.nodes = nodes_->value();
    m.procsPerNode = procs_->value();
    m.replicate = replicate_->value();
    m.deviceMemoryBytes = static_cast<std::uint64_t>(std::llround(capacity_->value() * static_cast<double>(kGiB)));
    if (!editMesh(*document_, m, mergeKey)) refresh();
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
