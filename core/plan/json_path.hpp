// Where in a plan (or module tree) a problem lies, as steps rather than text:
// "$.units[2].reshard_after_forward" is key units, index 2, key
// reshard_after_forward. Readers look at the steps; str() is for people.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace sb {

class JsonPath {
public:
    struct Step {
        std::string key;        // empty for an index step
        std::size_t index = 0;
        bool isIndex = false;
        bool operator==(const Step& o) const { return isIndex == o.isIndex && key == o.key && index == o.index; }
    };

    JsonPath() = default; // "$", the document itself

    JsonPath key(std::string k) const;
    JsonPath index(std::size_t i) const;

    std::string str() const;
    const std::vector<Step>& steps() const { return steps_; }
    // The key of step i, or "" when there is no such step or it is an index.
    const std::string& keyAt(std::size_t i) const;
    // The index of step i when it is one.
    std::optional<std::size_t> indexAt(std::size_t i) const;

    bool operator==(const JsonPath& o) const { return steps_ == o.steps_; }
    bool operator!=(const JsonPath& o) const { return !(*this == o); }

private:
    std::vector<Step> steps_;
};

} // namespace sb
