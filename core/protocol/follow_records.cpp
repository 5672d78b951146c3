#include "follow_records.hpp"

#include "json_fields.hpp"
#include "run_dir_layout.hpp"

#include <algorithm>

namespace sb::protocol {

namespace {

bool isAscii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void appendText(std::string& out, std::string_view text)
{
    if (isAscii(text)) json::appendQuoted(out, text);
    else json::appendQuoted(out, sanitizeUtf8(text));
}

void appendAlive(std::string& out, bool alive, double age)
{
    out += alive ? ",\"alive\":true" : ",\"alive\":false";
    if (age >= 0) out += ",\"age\":" + json::formatNumber(age);
}

std::string textOf(const json::Value& o, const char* key) { return optString(o, key).value_or(std::string()); }

} // namespace

void appendLineRecord(std::string& out, int wire, std::string_view file, long long offset, long long next,
                      std::string_view line, bool live)
{
    if (wire >= 2) {
        out += live ? "E " : "L ";
        out += file;
        out += ' ';
        out += std::to_string(offset);
        out += ' ';
        out += std::to_string(next);
        out += ' ';
        if (isAscii(line)) out.append(line.data(), line.size());
        else out += sanitizeUtf8(line);
        out += '\n';
        return;
    }
    out += "{\"k\":\"l\",\"f\":";
    appendText(out, file);
    out += ",\"o\":" + std::to_string(offset) + ",\"n\":" + std::to_string(next);
    if (live) out += ",\"live\":true";
    out += ",\"d\":";
    appendText(out, line);
    out += "}\n";
}

void appendStateRecord(std::string& out, bool alive, double age, std::string_view compactState)
{
    out += "{\"k\":\"state\"";
    appendAlive(out, alive, age);
    out += ",\"state\":";
    out += compactState;
    out += "}\n";
}

void appendBeatRecord(std::string& out, double t, bool alive, double age)
{
    out += "{\"k\":\"beat\",\"t\":" + json::formatNumber(t);
    appendAlive(out, alive, age);
    out += "}\n";
}

void appendRefusedRecord(std::string& out, std::string_view file, std::string_view why)
{
    out += "{\"k\":\"refused\",\"f\":";
    appendText(out, file);
    out += ",\"why\":";
    appendText(out, why);
    out += "}\n";
}

void appendErrorRecord(std::string& out, std::string_view message)
{
    out += "{\"k\":\"error\",\"message\":";
    appendText(out, message);
    out += "}\n";
}

void appendEndRecord(std::string& out, bool alive)
{
    out += "{\"k\":\"end\"";
    appendAlive(out, alive, -1);
    out += "}\n";
}

std::optional<TextLineRecord> parseTextLineRecord(std::string_view r)
{
    if (r.size() < 8 || (r[0] != 'L' && r[0] != 'E') || r[1] != ' ') return std::nullopt;
    TextLineRecord out;
    out.live = r[0] == 'E';
    std::size_t i = 2;
    const std::size_t fileEnd = r.find(' ', i);
    if (fileEnd == std::string_view::npos || fileEnd == i) return std::nullopt;
    out.file = r.substr(i, fileEnd - i);
    i = fileEnd + 1;
    for (long long* v : {&out.offset, &out.next}) {
        long long x = 0;
        const std::size_t from = i;
        while (i < r.size() && r[i] >= '0' && r[i] <= '9' && i - from < 18) x = x * 10 + (r[i++] - '0');
        if (i == from || i >= r.size() || r[i] != ' ') return std::nullopt;
        *v = x;
        ++i;
    }
    if (out.next <= out.offset) return std::nullopt;
    out.data = r.substr(i);
    return out;
}

std::optional<FollowRecord> parseFollowRecord(std::string_view record)
{
    if (!record.empty() && record[0] != '{') {
        const std::optional<TextLineRecord> text = parseTextLineRecord(record);
        if (!text) return std::nullopt;
        FollowRecord out;
        out.file = std::string(text->file);
        out.offset = text->offset;
        out.next = text->next;
        out.data = std::string(text->data);
        out.live = text->live;
        return out;
    }
    json::ParseResult parsed = json::parse(record);
    if (!parsed || !parsed.value->isObject()) return std::nullopt;
    const json::Value& o = *parsed.value;
    const std::string kind = textOf(o, "k");
    FollowRecord out;
    out.alive = optBool(o, "alive");
    out.age = optNumber(o, "age").value_or(-1);
    if (kind == "l") {
        out.kind = FollowRecord::Kind::Line;
        out.file = textOf(o, "f");
        out.offset = optInt(o, "o").value_or(-1);
        out.next = optInt(o, "n").value_or(-1);
        const json::Value* data = o.find("d");
        if (out.file.empty() || out.offset < 0 || out.next <= out.offset || !data || !data->isString()) return std::nullopt;
        out.data = data->asString();
        const json::Value* live = o.find("live");
        out.live = live && live->asBool();
    } else if (kind == "state") {
        out.kind = FollowRecord::Kind::State;
        const json::Value* state = o.find("state");
        if (!state || !state->isObject()) return std::nullopt;
        out.state = *state;
    } else if (kind == "beat") {
        out.kind = FollowRecord::Kind::Beat;
        out.t = optNumber(o, "t").value_or(0);
    } else if (kind == "refused") {
        out.kind = FollowRecord::Kind::Refused;
        out.file = textOf(o, "f");
        out.text = textOf(o, "why");
    } else if (kind == "error") {
        out.kind = FollowRecord::Kind::Error;
        out.text = textOf(o, "message");
    } else if (kind == "end") {
        out.kind = FollowRecord::Kind::End;
    } else {
        return std::nullopt;
    }
    return out;
}

} // namespace sb::protocol
