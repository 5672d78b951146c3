// Devices a rank can run on, with the capacity the estimate is held against.
// The name is what a plan saves as mesh.device_name.
#pragma once

#include "plan/plan.hpp"

#include <QString>

#include <vector>

namespace sb::gui {

struct DevicePreset {
    const char* name;        // saved in the plan: "H100 80GB"
    Device device;
    double capacityGiB;      // default capacity per rank
    bool editableCapacity;   // CPU RAM and custom devices take any capacity
};

const std::vector<DevicePreset>& devicePresets();
QString devicePresetLabel(const DevicePreset& preset); // "NVIDIA H100 80 GB", translated for CPU RAM / custom
// The preset a mesh uses: by device name, else the custom entry of its kind.
int devicePresetIndex(const Mesh& mesh);
// The mesh with a preset applied (capacity reset to the preset's unless editable and already set).
Mesh withDevicePreset(const Mesh& mesh, int index);

} // namespace sb::gui
