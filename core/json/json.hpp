// A small JSON value, parser and writer for the Qt-free, Torch-agnostic core.
// The core must build on a GPU node with only a compiler, CMake and LibTorch,
// so it carries its own JSON. Objects keep insertion order so that saved
// plans diff cleanly; the parser never throws and reports line:column.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sb::json {

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;

enum class Type { Null, Bool, Number, String, Array, Object };

class Value {
public:
    Value() = default;
    Value(std::nullptr_t) {}
    Value(bool b) : type_(Type::Bool), bool_(b) {}
    Value(int v) : Value(static_cast<long long>(v)) {}
    Value(unsigned v) : Value(static_cast<long long>(v)) {}
    Value(long v) : Value(static_cast<long long>(v)) {}
    Value(long long v) : type_(Type::Number), num_(static_cast<double>(v)), int_(v), isInt_(true) {}
    Value(unsigned long v) : Value(static_cast<long long>(v)) {}
    Value(unsigned long long v) : Value(static_cast<long long>(v)) {}
    Value(double v) : type_(Type::Number), num_(v) {}
    Value(const char* s) : type_(Type::String), str_(s) {}
    Value(std::string s) : type_(Type::String), str_(std::move(s)) {}
    Value(std::string_view s) : type_(Type::String), str_(s) {}
    Value(Array a) : type_(Type::Array), arr_(std::make_shared<Array>(std::move(a))) {}
    Value(Object o) : type_(Type::Object), obj_(std::make_shared<Object>(std::move(o))) {}

    static Value array() { return Value(Array{}); }
    static Value object() { return Value(Object{}); }

    Type type() const { return type_; }
    bool isNull() const { return type_ == Type::Null; }
    bool isBool() const { return type_ == Type::Bool; }
    bool isNumber() const { return type_ == Type::Number; }
    // True for a number written without fraction or exponent that fits int64.
    bool isInteger() const { return type_ == Type::Number && isInt_; }
    bool isString() const { return type_ == Type::String; }
    bool isArray() const { return type_ == Type::Array; }
    bool isObject() const { return type_ == Type::Object; }

    bool asBool() const { return bool_; }
    double asDouble() const { return num_; }
    std::int64_t asInt() const { return isInt_ ? int_ : static_cast<std::int64_t>(num_); }
    const std::string& asString() const { return str_; }
    const Array& asArray() const;
    const Object& asObject() const;
    Array& mutableArray();
    Object& mutableObject();

    // Object access: find returns nullptr when absent or not an object.
    const Value* find(std::string_view key) const;
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    // Inserts or replaces, keeping the position of an existing key.
    Value& set(std::string_view key, Value v);
    void push(Value v) { mutableArray().push_back(std::move(v)); }
    std::size_t size() const;

    bool operator==(const Value& other) const;
    bool operator!=(const Value& other) const { return !(*this == other); }

    // indent < 0: compact one-line form; otherwise pretty with that indent.
    std::string dump(int indent = -1) const;

private:
    void dumpTo(std::string& out, int indent, int depth) const;

    Type type_ = Type::Null;
    bool bool_ = false;
    double num_ = 0.0;
    std::int64_t int_ = 0;
    bool isInt_ = false;
    std::string str_;
    std::shared_ptr<Array> arr_;
    std::shared_ptr<Object> obj_;
};

struct ParseError {
    int line = 0;
    int column = 0;
    std::string message;
    std::string toString() const;
};

struct ParseResult {
    std::optional<Value> value;
    ParseError error;
    explicit operator bool() const { return value.has_value(); }
};

// Parses one JSON document (RFC 8259). Nesting deeper than maxDepth is an error.
ParseResult parse(std::string_view text, int maxDepth = 256);

// Writes a string with JSON escaping (quotes included).
void appendQuoted(std::string& out, std::string_view s);

// Formats a double the shortest way that reads back to the same value.
std::string formatNumber(double v);

} // namespace sb::json
