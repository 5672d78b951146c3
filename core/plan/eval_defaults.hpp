// How many batches the validation loss takes where a plan asks for one
// without saying how many: an "eval" object in a plan file, `plan
// --val-data-path`, a validation file typed in the workbench. (Not in
// plan.hpp, which nearly every file includes.)
#pragma once

namespace sb {

inline constexpr int kDefaultEvalBatches = 8;

} // namespace sb
