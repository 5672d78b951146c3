#include "run_dir_layout.hpp"

namespace sb::protocol {

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8Length(std::string_view s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
    }
    return n;
}

} // namespace

std::string attemptDir(int attempt) { return "attempt-" + std::to_string(attempt); }
std::string rankEventsFile(int attempt, int rank) { return attemptDir(attempt) + "/rank-" + std::to_string(rank) + ".events"; }
std::string rankLogFile(int attempt, int rank) { return attemptDir(attempt) + "/rank-" + std::to_string(rank) + ".log"; }

bool parseRankFile(std::string_view path, int* attempt, int* rank, bool* events)
{
    auto number = [](std::string_view& s, int* out) {
        std::size_t n = 0;
        long long v = 0;
        while (n < s.size() && n < 9 && s[n] >= '0' && s[n] <= '9') v = v * 10 + (s[n++] - '0');
        if (n == 0 || (n > 1 && s[0] == '0')) return false;
        *out = static_cast<int>(v);
        s.remove_prefix(n);
        return true;
    };
    auto eat = [](std::string_view& s, std::string_view p) {
        if (s.substr(0, p.size()) != p) return false;
        s.remove_prefix(p.size());
        return true;
    };
    if (!eat(path, "attempt-") || !number(path, attempt) || !eat(path, "/rank-") || !number(path, rank)) return false;
    if (path == ".events") *events = true;
    else if (path == ".log") *events = false;
    else return false;
    return true;
}

std::string sanitizeUtf8(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = utf8Length(bytes, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(bytes.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string logRecord(double t, char stream, std::string_view line)
{
    std::string out = "{\"t\":" + json::formatNumber(t);
    if (stream) {
        out += ",\"s\":\"";
        out += stream;
        out += '"';
    }
    out += ",\"l\":";
    json::appendQuoted(out, sanitizeUtf8(line));
    out += '}';
    return out;
}

std::optional<LogLine> parseLogRecord(std::string_view record)
{
    const json::ParseResult parsed = json::parse(record);
    if (!parsed || !parsed.value->isObject()) return std::nullopt;
    const json::Value& o = *parsed.value;
    const json::Value* line = o.find("l");
    if (!line || !line->isString()) return std::nullopt;
    LogLine out;
    out.line = line->asString();
    if (const json::Value* t = o.find("t"); t && t->isNumber()) out.t = t->asDouble();
    if (const json::Value* s = o.find("s"); s && s->isString() && s->asString().size() == 1) out.stream = s->asString()[0];
    return out;
}

} // namespace sb::protocol
