#include "device_presets.hpp"

#include <QCoreApplication>

#include <cmath>

namespace sb::gui {

namespace {
struct DevicePresets {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::DevicePresets)
};
constexpr const char* kCustom = "custom";
constexpr const char* kCpu = "CPU RAM";
} // namespace

const std::vector<DevicePreset>& devicePresets()
{
    static const std::vector<DevicePreset> presets = {
        {"H100 80GB", Device::Cuda, 80, false},
        {"H200 141GB", Device::Cuda, 141, false},
        {"A100 40GB", Device::Cuda, 40, false},
        {"A100 80GB", Device::Cuda, 80, false},
        {kCpu, Device::Cpu, 16, true},
        {kCustom, Device::Cuda, 24, true},
    };
    return presets;
}

QString devicePresetLabel(const DevicePreset& p)
{
    const std::string name = p.name;
    if (name == kCpu) return DevicePresets::tr("CPU RAM");
    if (name == kCustom) return DevicePresets::tr("Custom GPU");
    if (name == "H100 80GB") return QStringLiteral("NVIDIA H100 80 GB");
    if (name == "H200 141GB") return QStringLiteral("NVIDIA H200 141 GB");
    if (name == "A100 40GB") return QStringLiteral("NVIDIA A100 40 GB");
    if (name == "A100 80GB") return QStringLiteral("NVIDIA A100 80 GB");
    return QString::fromStdString(name);
}

int devicePresetIndex(const Mesh& mesh)
{
    const auto& presets = devicePresets();
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (mesh.deviceName == presets[i].name && mesh.device == presets[i].device) return static_cast<int>(i);
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (presets[i].editableCapacity && presets[i].device == mesh.device) return static_cast<int>(i);
    return static_cast<int>(presets.size()) - 1;
}

Mesh withDevicePreset(const Mesh& mesh, int index)
{
    const auto& presets = devicePresets();
    if (index < 0 || index >= static_cast<int>(presets.size())) return mesh;
    const DevicePreset& p = presets[static_cast<std::size_t>(index)];
    Mesh out = mesh;
    const bool sameKind = devicePresetIndex(mesh) == index;
    out.device = p.device;
    out.deviceName = p.name;
    if (!(p.editableCapacity && sameKind))
        out.deviceMemoryBytes = static_cast<std::uint64_t>(std::llround(p.capacityGiB * static_cast<double>(kGiB)));
    return out;
}

} // namespace sb::gui
