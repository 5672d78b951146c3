#include "json_path.hpp"

namespace sb {

JsonPath JsonPath::key(std::string k) const
{
    JsonPath out = *this;
    out.steps_.push_back({std::move(k), 0, false});
    return out;
}

JsonPath JsonPath::index(std::size_t i) const
{
    JsonPath out = *this;
    out.steps_.push_back({{}, i, true});
    return out;
}

std::string JsonPath::str() const
{
    std::string out = "$";
    for (const Step& s : steps_) out += s.isIndex ? "[" + std::to_string(s.index) + "]" : "." + s.key;
    return out;
}

const std::string& JsonPath::keyAt(std::size_t i) const
{
    static const std::string none;
    return i < steps_.size() && !steps_[i].isIndex ? steps_[i].key : none;
}

std::optional<std::size_t> JsonPath::indexAt(std::size_t i) const
{
    if (i < steps_.size() && steps_[i].isIndex) return steps_[i].index;
    return std::nullopt;
}

} // namespace sb
