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
// The launcher's run-settings codes (launch/run_config_problems.hpp), context
// "sb::gui::RunConfigText", in the order of that catalogue.
const std::vector<ProblemTextTemplate>& runConfigTextTemplates();

} // namespace sb::gui
