#include "args.hpp"

#include <cmath>
#include <cstdlib>

namespace sb::cli {

Args::Args(std::vector<std::string> argv, std::set<std::string> valued, std::set<std::string> flags)
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() > 1 && a[0] == '-' && a != "-") {
            std::string name = a;
            std::optional<std::string> inlineValue;
            if (auto eq = a.find('='); eq != std::string::npos) {
                name = a.substr(0, eq);
                inlineValue = a.substr(eq + 1);
            }
            if (valued.count(name)) {
                if (inlineValue) {
                    values_.emplace(name, *inlineValue);
                } else if (i + 1 < argv.size()) {
                    values_.emplace(name, argv[++i]);
                } else {
                    error_ = "option " + name + " needs a value";
                    badArgument_ = a;
                    return;
                }
            } else if (flags.count(name) && !inlineValue) {
                values_.emplace(name, "");
            } else {
                error_ = "unknown option " + name;
                badArgument_ = a;
                return;
            }
        } else {
            positional_.push_back(a);
        }
    }
}

std::optional<std::string> Args::value(const std::string& name) const
{
    auto range = values_.equal_range(name);
    if (range.first == range.second) return std::nullopt;
    return std::prev(range.second)->second; // the last one wins
}

std::vector<std::string> Args::values(const std::string& name) const
{
    std::vector<std::string> out;
    auto range = values_.equal_range(name);
    for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
    return out;
}

long long Args::integer(const std::string& name, long long fallback, long long min, long long max)
{
    auto v = value(name);
    if (!v) return fallback;
    char* end = nullptr;
    long long n = std::strtoll(v->c_str(), &end, 10);
    if (v->empty() || *end != '\0' || n < min || n > max) {
        if (error_.empty())
            error_ = name + " must be an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got \"" + *v + "\"";
        return fallback;
    }
    return n;
}

double Args::number(const std::string& name, double fallback)
{
    auto v = value(name);
    if (!v) return fallback;
    char* end = nullptr;
    double d = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0' || !std::isfinite(d)) {
        if (error_.empty()) error_ = name + " must be a number, got \"" + *v + "\"";
        return fallback;
    }
    return d;
}

} // namespace sb::cli
