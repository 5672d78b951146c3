#include "json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace sb::json {

namespace {
const Array kEmptyArray;
const Object kEmptyObject;
const std::string kEmptyString;
} // namespace

template <typename T>
struct Value::Payload : Value::Node {
    explicit Payload(T d) : data(std::move(d)) {}
    T data;
};

Value::Value(std::string s) : type_(Type::String) { bits_.node = new Payload<std::string>(std::move(s)); }
Value::Value(Array a) : type_(Type::Array) { bits_.node = new Payload<Array>(std::move(a)); }
Value::Value(Object o) : type_(Type::Object) { bits_.node = new Payload<Object>(std::move(o)); }

void Value::destroyNode() noexcept
{
    switch (type_) {
    case Type::String: delete static_cast<Payload<std::string>*>(bits_.node); break;
    case Type::Array: delete static_cast<Payload<Array>*>(bits_.node); break;
    case Type::Object: delete static_cast<Payload<Object>*>(bits_.node); break;
    default: break;
    }
}

const std::string& Value::asString() const
{
    return type_ == Type::String ? static_cast<const Payload<std::string>*>(bits_.node)->data : kEmptyString;
}
const Array& Value::asArray() const
{
    return type_ == Type::Array ? static_cast<const Payload<Array>*>(bits_.node)->data : kEmptyArray;
}
const Object& Value::asObject() const
{
    return type_ == Type::Object ? static_cast<const Payload<Object>*>(bits_.node)->data : kEmptyObject;
}

// Copies share containers; a write through a shared one clones it first.
Array& Value::mutableArray()
{
    if (type_ != Type::Array || bits_.node->refs.load(std::memory_order_acquire) > 1) *this = Value(Array(asArray()));
    return static_cast<Payload<Array>*>(bits_.node)->data;
}

Object& Value::mutableObject()
{
    if (type_ != Type::Object || bits_.node->refs.load(std::memory_order_acquire) > 1) *this = Value(Object(asObject()));
    return static_cast<Payload<Object>*>(bits_.node)->data;
}

double Value::asDouble() const
{
    if (type_ != Type::Number) return 0.0;
    return flag_ ? static_cast<double>(bits_.integer) : bits_.number;
}

std::int64_t Value::asInt() const
{
    if (type_ != Type::Number) return 0;
    if (flag_) return bits_.integer;
    const double d = bits_.number;
    constexpr double kTwo63 = 9223372036854775808.0; // converting anything at or past it is undefined
    if (!(d > -kTwo63)) return d < 0 ? std::numeric_limits<std::int64_t>::min() : 0;
    if (d >= kTwo63) return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(d);
}

const Value* Value::find(std::string_view key) const
{
    if (type_ != Type::Object) return nullptr;
    for (const auto& [k, v] : asObject())
        if (k == key) return &v;
    return nullptr;
}

Value& Value::set(std::string_view key, Value v)
{
    Object& o = mutableObject();
    for (auto& [k, existing] : o)
        if (k == key) return existing = std::move(v);
    o.emplace_back(std::string(key), std::move(v));
    return o.back().second;
}

std::size_t Value::size() const
{
    if (type_ == Type::Array) return asArray().size();
    if (type_ == Type::Object) return asObject().size();
    return 0;
}

bool Value::operator==(const Value& other) const
{
    if (type_ != other.type_) return false;
    switch (type_) {
    case Type::Null: return true;
    case Type::Bool: return flag_ == other.flag_;
    case Type::Number:
        if (flag_ && other.flag_) return bits_.integer == other.bits_.integer;
        return asDouble() == other.asDouble();
    case Type::String: return asString() == other.asString();
    case Type::Array: return asArray() == other.asArray();
    case Type::Object: return asObject() == other.asObject();
    }
    return false;
}

std::string formatNumber(double v)
{
    if (!std::isfinite(v)) return "null"; // JSON has no inf/nan
    char buf[32];
    for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

void appendQuoted(std::string& out, std::string_view s)
{
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

std::string Value::dump(int indent) const
{
    std::string out;
    dumpTo(out, indent, 0);
    return out;
}

void Value::dumpTo(std::string& out, int indent, int depth) const
{
    auto newline = [&](int d) {
        if (indent < 0) return;
        out += '\n';
        out.append(static_cast<std::size_t>(indent * d), ' ');
    };
    switch (type_) {
    case Type::Null: out += "null"; break;
    case Type::Bool: out += flag_ ? "true" : "false"; break;
    case Type::Number: out += flag_ ? std::to_string(bits_.integer) : formatNumber(bits_.number); break;
    case Type::String: appendQuoted(out, asString()); break;
    case Type::Array: {
        const Array& a = asArray();
        if (a.empty()) { out += "[]"; break; }
        // Short arrays of scalars (shapes, betas) stay on one line.
        bool flat = a.size() <= 8;
        for (const Value& v : a) flat = flat && !v.isArray() && !v.isObject();
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (i) out += (flat && indent >= 0) ? ", " : ",";
            if (!flat) newline(depth + 1);
            a[i].dumpTo(out, indent, depth + 1);
        }
        if (!flat) newline(depth);
        out += ']';
        break;
    }
    case Type::Object: {
        const Object& o = asObject();
        if (o.empty()) { out += "{}"; break; }
        out += '{';
        for (std::size_t i = 0; i < o.size(); ++i) {
            if (i) out += ',';
            newline(depth + 1);
            appendQuoted(out, o[i].first);
            out += indent >= 0 ? ": " : ":";
            o[i].second.dumpTo(out, indent, depth + 1);
        }
        newline(depth);
        out += '}';
        break;
    }
    }
}

} // namespace sb::json
