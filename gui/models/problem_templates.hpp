// The templates of the core's problem codes, as the GUI translates them
// (context "sb::gui::ProblemText"), in the order of the core's catalogue.
#pragma once

#include <vector>

namespace sb::gui {

struct ProblemTextTemplate {
    const char* code; // "plan.reshard_k"
    const char* text; // the English template, the translation's source
};

const std::vector<ProblemTextTemplate>& problemTextTemplates();

} // namespace sb::gui
