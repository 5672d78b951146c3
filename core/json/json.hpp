// A small JSON value, parser and writer for the Qt-free, Torch-agnostic core.
// The core must build on a GPU node with only a compiler, CMake and LibTorch,
// so it carries its own JSON. Objects keep insertion order so that saved
// plans diff cleanly; the parser never throws and reports line:column.
#pragma once

#include <atomic>
#include <cstdint>
#include <map> // kept for files that relied on it through this header
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
    Value(long long v) : type_(Type::Number), flag_(true) { bits_.integer = v; }
    Value(unsigned long v) : Value(static_cast<long long>(v)) {}
    Value(unsigned long long v) : Value(static_cast<long long>(v)) {}
    Value(double v) : type_(Type::Number) { bits_.number = v; }
    Value(const char* s) : Value(std::string(s)) {}
    Value(std::string s);
    Value(std::string_view s) : Value(std::string(s)) {}
    Value(Array a);
    Value(Object o);
    // Inline: copies and moves are the reader's and vector's hot path.
    Value(const Value& other) noexcept : type_(other.type_), flag_(other.flag_), bits_(other.bits_)
    {
        if (hasNode()) bits_.node->refs.fetch_add(1, std::memory_order_relaxed);
    }
    Value(Value&& other) noexcept : type_(other.type_), flag_(other.flag_), bits_(other.bits_) { other.type_ = Type::Null; }
    Value& operator=(const Value& other) noexcept { return *this = Value(other); }
    Value& operator=(Value&& other) noexcept
    {
        if (this != &other) {
            release();
            type_ = other.type_;
            flag_ = other.flag_;
            bits_ = other.bits_;
            other.type_ = Type::Null;
        }
        return *this;
    }
    ~Value() { release(); }

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

    // 16 bytes: a 64 MiB document can hold tens of millions of values.
    // Strings, arrays and objects live in a reference-counted node; copies
    // share it and a write through mutableArray/mutableObject clones a shared one.
    struct Node {
        std::atomic<std::size_t> refs{1};
    };
    template <typename T> struct Payload;
    bool hasNode() const { return type_ >= Type::String; }
    void release() noexcept
    {
        if (hasNode() && bits_.node->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) destroyNode();
    }
    void destroyNode() noexcept; // the last reference went away

    Type type_ = Type::Null;
    bool flag_ = false; // Bool: the value; Number: written as an int64
    union Bits {
        double number;
        std::int64_t integer;
        Node* node;
    } bits_{};
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
