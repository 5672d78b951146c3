#include "problem_catalogue.hpp"

#include <algorithm>
#include <cstdio>

namespace sb {

const std::vector<ProblemTemplate>& problemCatalogue()
{
    using Code = ProblemCode;
    static const std::vector<ProblemTemplate> rows{SB_PROBLEM_CATALOGUE(SB_CATALOGUE_ROW)};
    return rows;
}

const ProblemTemplate& problemTemplate(ProblemCode code)
{
    return catalogueRow(problemCatalogue(), code);
}

std::optional<ProblemCode> problemCodeNamed(std::string_view name)
{
    return codeNamed(problemCatalogue(), name);
}

int placeholderCount(std::string_view text)
{
    int n = 0;
    for (std::size_t i = 0; i + 1 < text.size(); ++i)
        if (text[i] == '%' && text[i + 1] >= '1' && text[i + 1] <= '9') n = std::max(n, text[i + 1] - '0');
    return n;
}

std::string fillTemplate(std::string_view text, const std::vector<std::string>& args)
{
    std::string out;
    out.reserve(text.size() + 32);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 1 < text.size() && text[i + 1] >= '1' && text[i + 1] <= '9') {
            const std::size_t n = static_cast<std::size_t>(text[i + 1] - '0');
            if (n <= args.size()) {
                out += args[n - 1];
                ++i;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

std::string englishArg(const ProblemArg& arg)
{
    switch (arg.kind()) {
    case ProblemArg::Kind::Integer: return std::to_string(arg.integer());
    case ProblemArg::Kind::Real: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2e", arg.real());
        return buf;
    }
    case ProblemArg::Kind::Text: return arg.text();
    case ProblemArg::Kind::Unit: return arg.text().empty() ? "the root" : "\"" + arg.text() + "\"";
    }
    return {};
}

ProblemArg ProblemArg::unit(std::string module)
{
    ProblemArg a(std::move(module));
    a.kind_ = Kind::Unit;
    return a;
}

std::string Problem::codeName() const { return problemTemplate(code).name; }

std::string fillEnglish(std::string_view text, const std::vector<ProblemArg>& args)
{
    std::vector<std::string> english;
    english.reserve(args.size());
    for (const ProblemArg& a : args) english.push_back(englishArg(a));
    return fillTemplate(text, english);
}

std::string Problem::message() const { return fillEnglish(problemTemplate(code).text, args); }

std::string formatProblem(const Problem& p)
{
    return std::string(p.severity == Severity::Error ? "error: " : "warning: ") + p.path.str() + ": " + p.message();
}

} // namespace sb
