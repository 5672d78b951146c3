#pragma once
// Typed reads of one field of a JSON object, for the protocol's readers
// (events, state.json, the follow stream, the signal reply): nullopt when the
// key is missing or holds another type. Integers come through
// json::Value::asInt(), saturated at the int64 range, never a cast out of range.

#include "json/json.hpp"

#include <optional>
#include <string>

namespace sb::protocol {

inline std::optional<long long> optInt(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    if (!v || !v->isNumber()) return std::nullopt;
    return v->asInt();
}

inline std::optional<double> optNumber(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    if (!v || !v->isNumber()) return std::nullopt;
    return v->asDouble();
}

inline std::optional<std::string> optString(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    if (!v || !v->isString()) return std::nullopt;
    return v->asString();
}

inline std::optional<bool> optBool(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    if (!v || !v->isBool()) return std::nullopt;
    return v->asBool();
}

} // namespace sb::protocol
