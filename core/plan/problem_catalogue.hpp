// Reading the message catalogue (problem_code.hpp): a code's name and
// template, the lookup back from a name, and the English filling.
#pragma once

#include "problem.hpp"

#include "util/catalogue.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// "plan.reshard_k", "reshard_after_forward %1 does not divide the shard group of %2 ranks"
using ProblemTemplate = CatalogueRow<ProblemCode>;

// Every row, in the order of the enum.
const std::vector<ProblemTemplate>& problemCatalogue();
const ProblemTemplate& problemTemplate(ProblemCode code);
std::optional<ProblemCode> problemCodeNamed(std::string_view name);

// The highest %N in a template (0 when it has none): how many arguments it takes.
int placeholderCount(std::string_view text);
// Replaces %1..%9 in one pass (an argument that contains "%2" stays as is).
std::string fillTemplate(std::string_view text, const std::vector<std::string>& args);
// An argument as the English sentence writes it.
std::string englishArg(const ProblemArg& arg);
// `text` (an English template of any catalogue) filled with `args` in English.
std::string fillEnglish(std::string_view text, const std::vector<ProblemArg>& args);

} // namespace sb
