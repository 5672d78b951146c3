#include "step_line.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace sb::protocol {

namespace {

constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

enum Field { Type, Rank, T, StepF, Steps, Loss, Lr, GradNorm, Tokens, TokensPerS, StepMs, ForwardMs, BackwardMs,
             OptimizerMs, CommExposedMs, MemCurrent, MemPeak, MemReserved, DeviceMemUsed, kFields };

constexpr const char* kNames[kFields] = {"type", "rank", "t", "step", "steps", "loss", "lr", "grad_norm", "tokens",
                                         "tokens_per_s", "step_ms", "forward_ms", "backward_ms", "optimizer_ms",
                                         "comm_exposed_ms", "mem_current", "mem_peak", "mem_reserved", "device_mem_used"};

int fieldOf(const char* key, std::size_t n)
{
    for (int i = 0; i < kFields; ++i)
        if (std::strlen(kNames[i]) == n && std::memcmp(kNames[i], key, n) == 0) return i;
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

// As core_event.cpp reads a QJsonValue: a number or absent.
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
    std::optional<double> values[kFields];
    bool seen[kFields] = {};
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

    StepMetrics m;
    m.rank = integer(rank);
    m.t = values[T].value_or(0);
    m.step = integer(values[StepF]);
    m.steps = integer(values[Steps]);
    m.loss = num(values[Loss]);
    m.lr = num(values[Lr]);
    m.gradNorm = num(values[GradNorm]);
    m.tokens = count(values[Tokens]);
    m.tokensPerS = num(values[TokensPerS]);
    m.stepMs = num(values[StepMs]);
    m.forwardMs = num(values[ForwardMs]);
    m.backwardMs = num(values[BackwardMs]);
    m.optimizerMs = num(values[OptimizerMs]);
    m.commExposedMs = num(values[CommExposedMs]);
    m.memCurrent = count(values[MemCurrent]);
    m.memPeak = count(values[MemPeak]);
    m.memReserved = count(values[MemReserved]);
    m.deviceMemUsed = count(values[DeviceMemUsed]);
    return m;
}

} // namespace sb::protocol
