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

enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };

class Value {
public:
    Value() = default;
    Value(std::nullptr_t) {}
    Value(bool b) : type_(Type::Bool), flag_(b) {}
    Value(int v) : Value(static_cast<long long>(v)) {}
    Value(unsigned v) : Value(static_cast<long long>(v)) {}
    Value(long v) : Value(static_cast<long long>(v)) {}
    Value(long long v) : type_(Type::Number), flag_(true) { int_ = v; }
    Value(unsigned long v) : Value(static_cast<long long>(v)) {}
    Value(unsigned long long v) : Value(static_cast<long long>(v)) {}
    Value(double v) : type_(Type::Number) { num_ = v; }
    Value(const char* s) : Value(std::string(s)) {}
    Value(std::string s) : type_(Type::String), ptr_(std::make_shared<std::string>(std::move(s))) {}
    Value(std::string_view s) : Value(std::string(s)) {}
    Value(Array a) : type_(Type::Array), ptr_(std::make_shared<Array>(std::move(a))) {}
    Value(Object o) : type_(Type::Object), ptr_(std::make_shared<Object>(std::move(o))) {}

    static Value array() { return Value(Array{}); }
    static Value object() { return Value(Object{}); }

    Type type() const { return type_; }
    bool isNull() const { return type_ == Type::Null; }
    bool isBool() const { return type_ == Type::Bool; }
    bool isNumber() const { return type_ == Type::Number; }
    // True for a number written without fraction or exponent that fits int64.
    bool isInteger() const { return type_ == Type::Number && flag_; }
    bool isString() const { return type_ == Type::String; }
    bool isArray() const { return type_ == Type::Array; }
    bool isObject() const { return type_ == Type::Object; }

    bool asBool() const { return type_ == Type::Bool && flag_; }
    double asDouble() const;
    // A non-integer number truncates toward zero, saturating at the int64 range (NaN reads 0).
    std::int64_t asInt() const;
    const std::string& asString() const;
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

    // 32 bytes: a 64 MiB document can hold tens of millions of values.
    // Strings, arrays and objects live behind one shared pointer; copies share
    // them and a write through mutableArray/mutableObject clones a shared one.
    Type type_ = Type::Null;
    bool flag_ = false; // Bool: the value; Number: written as an int64
    union {
        double num_ = 0.0;
        std::int64_t int_;
    };
    std::shared_ptr<void> ptr_;
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
