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

std::string firstControlChar(const std::string& text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        char buf[16];
        if (c == '\n') return "\\n";
        if (c == '\t') continue; // white space: it ends no line and starts no escape sequence
        if (c == '\r') return "\\r";
        if (c < 0x20 || c == 0x7f) {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            return buf;
        }
        // C1 controls, U+0080..U+009F: 0xC2 0x80..0x9F in UTF-8 (U+009B is a CSI to some terminals).
        if (c == 0xc2 && i + 1 < text.size()) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            if (next >= 0x80 && next <= 0x9f) {
                std::snprintf(buf, sizeof buf, "\\u%04x", next);
                return buf;
            }
        }
    }
    return {};
}

void checkPrintable(const std::string& text, const JsonPath& at, const std::string& key, Problems& ps)
{
    if (const std::string c = firstControlChar(text); !c.empty())
        ps.push_back({Severity::Error, at, ProblemCode::PlanControlChar, {key, c}});
}

} // namespace sb
