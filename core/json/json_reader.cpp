// The JSON reader: one pass over the input, linear in its size (objects
// find repeated keys through KeyIndex), strict per RFC 8259 plus refusals
// most readers skip: repeated keys, invalid UTF-8, numbers past the double
// range (docs/robustness.md).
#include "json.hpp"
#include "key_index.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sb::json {

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
    bool fail(std::string msg) { return failAt(pos_, std::move(msg)); }

    // Line and column of byte offset `at`; a column counts characters (UTF-8
    // sequences), as an editor shows them. Runs only on an error (again when
    // an enclosing object reports an earlier repeated key instead).
    bool failAt(std::size_t at, std::string msg)
    {
        if (!failed_) {
            failed_ = true;
            errorAt_ = at;
            int line = 1, col = 1;
            for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
                const unsigned char c = static_cast<unsigned char>(s_[i]);
                if (c == '\n') { ++line; col = 1; }
                else if ((c & 0xC0) != 0x80) ++col;
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
            return fail("unexpected character " + describeByte(c));
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
        KeyIndex seen(obj);
        // A large object's repeated keys are found when it ends; stopping
        // earlier still reports a repeat before the later problem.
        auto stop = [&](bool reported) {
            if (const std::size_t at = seen.firstRepeatOffset(); at != KeyIndex::kNone) {
                if (!failed_ || at < errorAt_) { failed_ = false; failAt(at, duplicateKeyMessage(at)); }
                return false;
            }
            return reported;
        };
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == '}') { ++pos_; out = Value(std::move(obj)); return true; }
        while (true) {
            skipSpace();
            if (pos_ >= s_.size() || s_[pos_] != '"') return stop(fail("expected a quoted key in object"));
            const std::size_t keyAt = pos_;
            std::string key;
            if (!parseString(key)) return stop(false);
            skipSpace();
            if (pos_ >= s_.size() || s_[pos_] != ':') return stop(fail("expected ':' after key " + quotedForMessage(key)));
            ++pos_;
            skipSpace();
            obj.emplace_back(std::move(key), Value());
            // A repeated key is refused: readers disagree on which one wins,
            // so the bytes stored and the values used could differ.
            if (!seen.addLast(keyAt)) return failAt(keyAt, "duplicate key " + quotedForMessage(obj.back().first));
            if (!parseValue(obj.back().second, depth + 1)) return stop(false);
            skipSpace();
            if (pos_ >= s_.size()) return stop(fail("unterminated object"));
            if (s_[pos_] == ',') { ++pos_; continue; }
            if (s_[pos_] == '}') { ++pos_; break; }
            return stop(fail("expected ',' or '}' in object"));
        }
        if (!stop(true)) return false;
        out = Value(std::move(obj));
        return true;
    }

    // The message for the repeated key whose opening quote is at `at`.
    std::string duplicateKeyMessage(std::size_t at)
    {
        const std::size_t saved = pos_;
        pos_ = at;
        std::string key;
        parseString(key); // read before, so it parses again
        pos_ = saved;
        return "duplicate key " + quotedForMessage(key);
    }

    // A key as it appears in a message: quoted, escaped, at most ~80 bytes.
    static std::string quotedForMessage(const std::string& key)
    {
        constexpr std::size_t kMax = 80;
        if (key.size() <= kMax) {
            std::string out;
            appendQuoted(out, key);
            return out;
        }
        std::size_t cut = kMax;
        while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut; // whole characters only
        std::string out;
        appendQuoted(out, std::string_view(key).substr(0, cut));
        out.insert(out.size() - 1, "...");
        return out;
    }

    static std::string describeByte(char c)
    {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F) return std::string("'") + c + "'";
        char buf[16];
        std::snprintf(buf, sizeof buf, "(byte 0x%02X)", u);
        return buf;
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

    // Length of the well-formed UTF-8 sequence starting at `at` (RFC 3629:
    // no overlong forms, no surrogates, nothing above U+10FFFF), or 0.
    std::size_t utf8Length(std::size_t at) const
    {
        auto byte = [&](std::size_t i) { return i < s_.size() ? static_cast<unsigned char>(s_[i]) : 0u; };
        const unsigned c = byte(at);
        unsigned lo = 0x80, hi = 0xBF;
        std::size_t n = 0;
        if (c >= 0xC2 && c <= 0xDF) n = 2;
        else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return 0;
        const unsigned second = byte(at + 1);
        if (second < lo || second > hi) return 0;
        for (std::size_t i = 2; i < n; ++i)
            if ((byte(at + i) & 0xC0) != 0x80) return 0;
        return n;
    }

    bool parseString(std::string& out)
    {
        ++pos_; // opening quote
        while (true) {
            // Copy the run of plain ASCII at once.
            const std::size_t runStart = pos_;
            while (pos_ < s_.size()) {
                const unsigned char u = static_cast<unsigned char>(s_[pos_]);
                if (u < 0x20 || u >= 0x80 || u == '"' || u == '\\') break;
                ++pos_;
            }
            out.append(s_.data() + runStart, pos_ - runStart);
            if (pos_ >= s_.size()) return fail("unterminated string");
            char c = s_[pos_];
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string"); // at the character
            if (static_cast<unsigned char>(c) >= 0x80) {
                const std::size_t n = utf8Length(pos_);
                if (n == 0) return fail("invalid UTF-8 in string " + describeByte(c)); // at the sequence's first byte
                out.append(s_.data() + pos_, n);
                pos_ += n;
                continue;
            }
            ++pos_;
            if (c == '"') return true;
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
        const char* first = s_.data() + start;
        const char* last = s_.data() + pos_;
        if (integral) {
            long long v = 0;
            auto [ptr, ec] = std::from_chars(first, last, v);
            if (ec == std::errc() && ptr == last) {
                out = Value(v);
                return true;
            }
        }
        double d = 0;
        auto [ptr, ec] = std::from_chars(first, last, d);
        if (ec != std::errc() || ptr != last) d = std::strtod(std::string(first, last).c_str(), nullptr); // under- or overflow
        // JSON has no infinity: a number past the double range is refused, not read as one.
        if (std::isinf(d)) return failAt(start, "number out of range");
        out = Value(d);
        return true;
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    int maxDepth_;
    bool failed_ = false;
    std::size_t errorAt_ = 0; // byte offset of error_
    ParseError error_;
};

} // namespace

ParseResult parse(std::string_view text, int maxDepth)
{
    return Parser(text, maxDepth).run();
}

} // namespace sb::json
