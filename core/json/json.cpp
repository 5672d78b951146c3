#include "json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sb::json {

namespace {
const Array kEmptyArray;
const Object kEmptyObject;
} // namespace

const Array& Value::asArray() const { return arr_ ? *arr_ : kEmptyArray; }
const Object& Value::asObject() const { return obj_ ? *obj_ : kEmptyObject; }

// Copies share containers; a write through a shared one clones it first.
Array& Value::mutableArray()
{
    if (type_ != Type::Array) *this = Value(Array{});
    if (arr_.use_count() > 1) arr_ = std::make_shared<Array>(*arr_);
    return *arr_;
}

Object& Value::mutableObject()
{
    if (type_ != Type::Object) *this = Value(Object{});
    if (obj_.use_count() > 1) obj_ = std::make_shared<Object>(*obj_);
    return *obj_;
}

const Value* Value::find(std::string_view key) const
{
    if (type_ != Type::Object) return nullptr;
    for (const auto& [k, v] : *obj_)
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
    if (type_ == Type::Array) return arr_->size();
    if (type_ == Type::Object) return obj_->size();
    return 0;
}

bool Value::operator==(const Value& other) const
{
    if (type_ != other.type_) return false;
    switch (type_) {
    case Type::Null: return true;
    case Type::Bool: return bool_ == other.bool_;
    case Type::Number:
        if (isInt_ && other.isInt_) return int_ == other.int_;
        return num_ == other.num_;
    case Type::String: return str_ == other.str_;
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
    case Type::Bool: out += bool_ ? "true" : "false"; break;
    case Type::Number: out += isInt_ ? std::to_string(int_) : formatNumber(num_); break;
    case Type::String: appendQuoted(out, str_); break;
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

std::string ParseError::toString() const
{
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

namespace {

class Parser {
public:
    Parser(std::string_view text, int maxDepth) : s_(text), maxDepth_(maxDepth) {}

    ParseResult run()
    {
        ParseResult r;
        skipSpace();
        Value v;
        if (!parseValue(v, 0)) {
            r.error = error_;
            return r;
        }
        skipSpace();
        if (pos_ != s_.size()) {
            fail("unexpected text after the JSON document");
            r.error = error_;
            return r;
        }
        r.value = std::move(v);
        return r;
    }

private:
    bool fail(std::string msg)
    {
        if (!failed_) {
            failed_ = true;
            int line = 1, col = 1;
            for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
                if (s_[i] == '\n') { ++line; col = 1; } else { ++col; }
            }
            error_ = {line, col, std::move(msg)};
        }
        return false;
    }

    void skipSpace()
    {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
            ++pos_;
    }

    bool literal(std::string_view word)
    {
        if (s_.substr(pos_, word.size()) != word) return fail("invalid literal");
        pos_ += word.size();
        return true;
    }

    bool parseValue(Value& out, int depth)
    {
        if (depth > maxDepth_) return fail("nesting deeper than " + std::to_string(maxDepth_) + " levels");
        if (pos_ >= s_.size()) return fail("unexpected end of input");
        char c = s_[pos_];
        switch (c) {
        case 'n': out = Value(); return literal("null");
        case 't': out = Value(true); return literal("true");
        case 'f': out = Value(false); return literal("false");
        case '"': {
            std::string str;
            if (!parseString(str)) return false;
            out = Value(std::move(str));
            return true;
        }
        case '[': return parseArray(out, depth);
        case '{': return parseObject(out, depth);
        default:
            if (c == '-' || (c >= '0' && c <= '9')) return parseNumber(out);
            return fail(std::string("unexpected character '") + c + "'");
        }
    }

    bool parseArray(Value& out, int depth)
    {
        ++pos_;
        Array arr;
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == ']') { ++pos_; out = Value(std::move(arr)); return true; }
        while (true) {
            skipSpace();
            Value v;
            if (!parseValue(v, depth + 1)) return false;
            arr.push_back(std::move(v));
            skipSpace();
            if (pos_ >= s_.size()) return fail("unterminated array");
            if (s_[pos_] == ',') { ++pos_; continue; }
            if (s_[pos_] == ']') { ++pos_; break; }
            return fail("expected ',' or ']' in array");
        }
        out = Value(std::move(arr));
        return true;
    }

    bool parseObject(Value& out, int depth)
    {
        ++pos_;
        Object obj;
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; out = Value(std::move(obj)); return true; }
        while (true) {
            skipSpace();
            if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a quoted key in object");
            std::string key;
            if (!parseString(key)) return false;
            skipSpace();
            if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':' after key \"" + key + "\"");
            ++pos_;
            skipSpace();
            Value v;
            if (!parseValue(v, depth + 1)) return false;
            bool replaced = false;
            for (auto& [k, existing] : obj) // a repeated key: the last one wins, as in most readers
                if (k == key) { existing = std::move(v); replaced = true; break; }
            if (!replaced) obj.emplace_back(std::move(key), std::move(v));
            skipSpace();
            if (pos_ >= s_.size()) return fail("unterminated object");
            if (s_[pos_] == ',') { ++pos_; continue; }
            if (s_[pos_] == '}') { ++pos_; break; }
            return fail("expected ',' or '}' in object");
        }
        out = Value(std::move(obj));
        return true;
    }

    static void appendUtf8(std::string& out, std::uint32_t cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(std::uint32_t& cp)
    {
        if (pos_ + 4 > s_.size()) return fail("truncated \\u escape");
        cp = 0;
        for (int i = 0; i < 4; ++i) {
            char h = s_[pos_];
            cp <<= 4;
            if (h >= '0' && h <= '9') cp |= static_cast<std::uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f') cp |= static_cast<std::uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F') cp |= static_cast<std::uint32_t>(h - 'A' + 10);
            else return fail("invalid hex digit in \\u escape"); // reported at the digit
            ++pos_;
        }
        return true;
    }

    bool parseString(std::string& out)
    {
        ++pos_; // opening quote
        while (true) {
            if (pos_ >= s_.size()) return fail("unterminated string");
            char c = s_[pos_];
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string"); // at the character
            ++pos_;
            if (c == '"') return true;
            if (c != '\\') { out += c; continue; }
            if (pos_ >= s_.size()) return fail("unterminated escape");
            char e = s_[pos_++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    std::uint32_t lo = 0;
                    if (pos_ + 2 > s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u')
                        return fail("unpaired surrogate in \\u escape");
                    pos_ += 2;
                    if (!hex4(lo)) return false;
                    if (lo < 0xDC00 || lo > 0xDFFF) return fail("invalid low surrogate in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail("unpaired surrogate in \\u escape");
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                --pos_; // report at the escape's letter
                return fail(std::string("invalid escape '\\") + e + "'");
            }
        }
    }

    bool parseNumber(Value& out)
    {
        std::size_t start = pos_;
        bool integral = true;
        if (s_[pos_] == '-') ++pos_;
        if (pos_ >= s_.size()) return fail("invalid number");
        if (s_[pos_] == '0') {
            ++pos_;
        } else if (s_[pos_] >= '1' && s_[pos_] <= '9') {
            while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
        } else {
            return fail("invalid number");
        }
        if (pos_ < s_.size() && s_[pos_] == '.') {
            integral = false;
            ++pos_;
            if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return fail("digit expected after '.'");
            while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
        }
        if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
            integral = false;
            ++pos_;
            if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
            if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') return fail("digit expected in exponent");
            while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
        }
        std::string text(s_.substr(start, pos_ - start));
        if (integral) {
            long long v = 0;
            auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec == std::errc() && ptr == text.data() + text.size()) {
                out = Value(v);
                return true;
            }
        }
        out = Value(std::strtod(text.c_str(), nullptr));
        return true;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    int maxDepth_;
    bool failed_ = false;
    ParseError error_;
};

} // namespace

ParseResult parse(std::string_view text, int maxDepth)
{
    return Parser(text, maxDepth).run();
}

} // namespace sb::json
