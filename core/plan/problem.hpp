// A problem found in a plan or model: where (a structured JSON path), a
// stable code, and typed arguments. The sentence is not stored: it is the
// code's template in the catalogue (problem_catalogue.hpp) filled with the
// arguments, in English for the CLI and the core, translated by the GUI.
#pragma once

#include "json_path.hpp"
#include "problem_code.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace sb {

enum class Severity { Error, Warning };

// One %N value of a problem's template.
class ProblemArg {
public:
    enum class Kind {
        Integer,
        Real,  // written with three significant digits, "1.23e+20"
        Text,  // written as is (a name, a key, a JSON value as written)
        Unit,  // a shard unit by module path: "the root" for "", else the path in double quotes
    };

    template <typename Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
    ProblemArg(Int v) : kind_(Kind::Integer), integer_(static_cast<std::int64_t>(v)) {}
    ProblemArg(double v) : kind_(Kind::Real), real_(v) {}
    ProblemArg(std::string v) : kind_(Kind::Text), text_(std::move(v)) {}
    ProblemArg(const char* v) : kind_(Kind::Text), text_(v) {}
    static ProblemArg unit(std::string module);

    Kind kind() const { return kind_; }
    std::int64_t integer() const { return integer_; }
    double real() const { return real_; }
    const std::string& text() const { return text_; } // Text, or Unit's module path

private:
    Kind kind_;
    std::int64_t integer_ = 0;
    double real_ = 0;
    std::string text_;
};

struct Problem {
    Severity severity = Severity::Error;
    JsonPath path;
    ProblemCode code = ProblemCode::PlanSyntax;
    std::vector<ProblemArg> args;

    std::string codeName() const;  // "plan.reshard_k": what the GUI and files key on
    std::string message() const;   // the English sentence the CLI prints
};

using Problems = std::vector<Problem>;

inline bool hasErrors(const Problems& ps)
{
    for (const Problem& p : ps)
        if (p.severity == Severity::Error) return true;
    return false;
}

// "error: $.mesh.replicate: replicate degree 3 does not divide world size 8"
std::string formatProblem(const Problem& p);

// The first control character of a UTF-8 text (C0 but the tab, DEL or C1),
// escaped for a message ("\n", "\x1b", "\u009b"); "" when it has none.
std::string firstControlChar(const std::string& text);
// Names and paths of a plan are one line of printable text wherever they go (a
// batch script's comment, a terminal, a log line): plan.control_char at `at`
// for the field `key` when `text` has a control character.
void checkPrintable(const std::string& text, const JsonPath& at, const std::string& key, Problems& ps);

} // namespace sb
