#include "step_line.hpp"

#include "step_fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace sb::protocol {

namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

// The envelope's fields and the step's row fields, then the core's metrics
// (stepFields(), in table order) from index kFirstMetric on.
enum Field { Type, Rank, T, StepF, Steps, V, kFirstMetric };
constexpr int kMaxFields = 64;

struct Key {
    const char* name;
    std::size_t len;
};

std::vector<Key> makeKeys()
{
    std::vector<Key> keys;
    for (const char* n : {"type", "rank", "t", "step", "steps", "v"}) keys.push_back({n, std::strlen(n)});
    for (const StepField& f : stepFields()) keys.push_back({f.name(), std::strlen(f.name())});
    if (keys.size() > kMaxFields) keys.resize(kMaxFields); // the general reader still takes the rest
    return keys;
}

const std::vector<Key>& keys()
{
    static const std::vector<Key> k = makeKeys();
    return k;
}

int fieldOf(const char* key, std::size_t n)
{
    const std::vector<Key>& k = keys();
    for (std::size_t i = 0; i < k.size(); ++i)
        if (k[i].len == n && std::memcmp(k[i].name, key, n) == 0) return static_cast<int>(i);
    return -1;
}

struct Cursor {
    const char* p;
    const char* end;
    void skipSpace()
    {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
    }
    bool eat(char c)
    {
        skipSpace();
        if (p >= end || *p != c) return false;
        ++p;
        return true;
    }
    // A string without escapes or control characters: its bytes.
    bool plainString(const char** s, std::size_t* n)
    {
        if (!eat('"')) return false;
        const char* start = p;
        while (p < end && *p != '"') {
            const auto b = static_cast<unsigned char>(*p);
            if (*p == '\\' || b < 0x20 || b >= 0x80) return false; // escapes, controls, non-ASCII: the general reader
            ++p;
        }
        if (p >= end) return false;
        *s = start;
        *n = static_cast<std::size_t>(p - start);
        ++p;
        return true;
    }
    // A JSON number (RFC 8259 grammar), read as a double.
    bool number(double* v)
    {
        skipSpace();
        const char* start = p;
        if (p < end && *p == '-') ++p;
        if (p >= end) return false;
        if (*p == '0') ++p;
        else if (*p >= '1' && *p <= '9') while (p < end && *p >= '0' && *p <= '9') ++p;
        else return false;
        if (p < end && *p == '.') {
            ++p;
            if (p >= end || *p < '0' || *p > '9') return false;
            while (p < end && *p >= '0' && *p <= '9') ++p;
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
            ++p;
            if (p < end && (*p == '+' || *p == '-')) ++p;
            if (p >= end || *p < '0' || *p > '9') return false;
            while (p < end && *p >= '0' && *p <= '9') ++p;
        }
        const auto r = std::from_chars(start, p, *v);
        return r.ec == std::errc() && r.ptr == p && std::isfinite(*v);
    }
};

// As core_event.cpp reads a field of the core's parse: a number or absent.
double num(const std::optional<double>& v) { return v ? *v : kAbsent; }
qint64 count(const std::optional<double>& v) { return v && *v >= 0 ? static_cast<qint64>(*v) : -1; }
int integer(const std::optional<double>& v, int fallback = 0)
{
    if (!v || *v != std::floor(*v) || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
        return fallback;
    return static_cast<int>(*v);
}

} // namespace

std::optional<StepMetrics> parseFlatStep(QByteArrayView body)
{
    Cursor c{body.data(), body.data() + body.size()};
    std::optional<double> values[kMaxFields];
    bool seen[kMaxFields] = {};
    bool isStep = false;
    if (!c.eat('{')) return std::nullopt;
    if (c.eat('}')) return std::nullopt;
    do {
        const char* key;
        std::size_t n;
        if (!c.plainString(&key, &n) || !c.eat(':')) return std::nullopt;
        const int f = fieldOf(key, n);
        if (f >= 0) { // a repeated field declines: the general reader decides which one counts
            if (seen[f]) return std::nullopt;
            seen[f] = true;
        }
        c.skipSpace();
        if (c.p >= c.end) return std::nullopt;
        if (*c.p == '"') {
            const char* s;
            std::size_t sn;
            if (!c.plainString(&s, &sn)) return std::nullopt;
            if (f == Type) isStep = sn == 4 && std::memcmp(s, "step", 4) == 0;
        } else if (*c.p == 'n') {
            if (c.end - c.p < 4 || std::memcmp(c.p, "null", 4) != 0) return std::nullopt;
            c.p += 4;
        } else {
            double v;
            if (!c.number(&v)) return std::nullopt;
            if (f >= 0) values[f] = v;
        }
    } while (c.eat(','));
    if (!c.eat('}')) return std::nullopt;
    c.skipSpace();
    if (c.p != c.end || !isStep) return std::nullopt;
    // What parseEventBody requires of every event, and stepFromEvent of a step.
    const std::optional<double>& rank = values[Rank];
    if (!rank || *rank < 0 || integer(rank, -1) != *rank || !values[StepF]) return std::nullopt;
    // A newer major version: the general reader refuses it with its message.
    if (values[V] && *values[V] > kProtocolVersion) return std::nullopt;
    if (stepFields().size() > kMaxFields - kFirstMetric) return std::nullopt;

    StepMetrics m;
    m.rank = integer(rank);
    m.t = values[T].value_or(0);
    m.step = integer(values[StepF]);
    m.steps = integer(values[Steps]);
    const std::vector<StepField>& fields = stepFields();
    const std::size_t n = std::min<std::size_t>(fields.size(), kMaxFields - kFirstMetric);
    for (std::size_t i = 0; i < n; ++i) {
        const StepField& f = fields[i];
        if (f.integer()) m.*f.count = count(values[kFirstMetric + i]);
        else m.*f.real = num(values[kFirstMetric + i]);
    }
    return m;
}

} // namespace sb::protocol
