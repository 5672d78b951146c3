// A small command-line reader: positional arguments and --flag [value] or
// --flag=value options, with every misuse reported as a sentence. The one
// parser of shardbench-cli, shardbench-core and shardbench-supervise.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sb::cli {

class Args {
public:
    // `valued` lists options that take a value; `flags` those that do not.
    Args(std::vector<std::string> argv, std::set<std::string> valued, std::set<std::string> flags);

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    // The argument that was not understood (an unknown option, or one missing
    // its value) when that is the error; empty otherwise.
    const std::string& badArgument() const { return badArgument_; }
    const std::vector<std::string>& positional() const { return positional_; }
    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const;
    // All values of an option given several times (--host a --host b).
    std::vector<std::string> values(const std::string& name) const;

    // Typed reads: on a bad value they record an error and return the fallback.
    long long integer(const std::string& name, long long fallback, long long min, long long max);
    double number(const std::string& name, double fallback);

private:
    std::multimap<std::string, std::string> values_;
    std::vector<std::string> positional_;
    std::string error_;
    std::string badArgument_;
};

} // namespace sb::cli
