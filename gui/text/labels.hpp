// Translated names and fixed colours for the core's enums and presets, so
// every view says and paints the same thing.
#pragma once

#include "estimate/estimate.hpp"
#include "plan/plan.hpp"

#include <QColor>
#include <QString>

namespace sb::gui {

QString categoryLabel(MemCategory c);
QString categoryDescription(MemCategory c);
QColor categoryColor(MemCategory c);
QColor overCapacityColor();
QColor capacityColor();

// "GPT-2 small, 12 layers, 768 wide" for a preset name; the name itself when unknown.
QString presetDescription(const std::string& preset);
QString archLabel(Arch arch);

// How a policy value reads in the tree: "default", "True", "False", "k = 4".
QString reshardLabel(const Reshard& r);

} // namespace sb::gui
