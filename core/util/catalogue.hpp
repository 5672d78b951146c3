// The shape every message catalogue here shares (plan/problem_code.hpp,
// plan/failure_reason.hpp, launch/run_config_problems.hpp,
// run/preflight_codes.hpp): one X-macro list of X(enumerator, name, English
// template), expanded into an enum class and into a table of rows in the
// enum's order; a row is found by its code or by its name.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace sb {

template <class Code>
struct CatalogueRow {
    Code code;
    const char* name; // "run.master_port": what the store and the translations key on
    const char* text; // the English template, %1..%9 for the arguments
};

template <class Code>
const CatalogueRow<Code>& catalogueRow(const std::vector<CatalogueRow<Code>>& rows, Code code)
{
    return rows[static_cast<std::size_t>(code)];
}

template <class Code>
std::optional<Code> codeNamed(const std::vector<CatalogueRow<Code>>& rows, std::string_view name)
{
    for (const CatalogueRow<Code>& row : rows)
        if (name == row.name) return row.code;
    return std::nullopt;
}

} // namespace sb

// Expands a catalogue's list inside `enum class Code { ... }`.
#define SB_CATALOGUE_ENUMERATOR(enumerator, name, text) enumerator,
// Expands it inside the braces of a std::vector<CatalogueRow<Code>>, with
// `Code` naming the enum where it is expanded (a `using Code = ...;`).
#define SB_CATALOGUE_ROW(enumerator, name, text) {Code::enumerator, name, text},
