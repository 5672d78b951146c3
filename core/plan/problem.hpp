// A problem found in a plan or model: where (a JSON path such as
// "$.units[2].reshard_after_forward"), a stable code, and a plain sentence.
// The GUI keys translations on the code; the CLI prints the sentence.
#pragma once

#include <string>
#include <vector>

namespace sb {

enum class Severity { Error, Warning };

struct Problem {
    Severity severity = Severity::Error;
    std::string path;
    std::string code;
    std::string message;
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

} // namespace sb
