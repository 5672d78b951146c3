#include "run_state.hpp"

#include "json_fields.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace sb::protocol {

namespace {

json::Value strings(const std::vector<std::string>& list)
{
    json::Value a = json::Value::array();
    for (const std::string& s : list) a.push(s);
    return a;
}

void setReason(json::Value& o, const StateReason& r)
{
    o.set("reason", r.text);
    if (r.code.empty()) return;
    o.set("reason_code", r.code);
    o.set("reason_args", strings(r.args));
}

void setTime(json::Value& o, const char* key, const std::optional<double>& t)
{
    if (t) o.set(key, *t);
}

// Typed reads: a missing key or one of another type leaves `out` as it was.
struct Reader {
    const json::Value& o;
    const json::Value* get(const char* key) const { return o.find(key); }
    void text(const char* key, std::string& out) const
    {
        if (auto v = optString(o, key)) out = *v;
    }
    template <typename Int>
    void integer(const char* key, Int& out) const
    {
        // Saturated, never cast out of range (a state of 1e300 steps is hostile, not undefined).
        if (auto v = optInt(o, key))
            out = static_cast<Int>(std::clamp<long long>(*v, std::numeric_limits<Int>::min(), std::numeric_limits<Int>::max()));
    }
    void number(const char* key, double& out) const
    {
        if (auto v = optNumber(o, key)) out = *v;
    }
    void number(const char* key, std::optional<double>& out) const
    {
        if (auto v = optNumber(o, key)) out = v;
    }
    void flag(const char* key, bool& out) const
    {
        if (auto v = optBool(o, key)) out = *v;
    }
    StateReason reason() const
    {
        StateReason r;
        text("reason", r.text);
        text("reason_code", r.code);
        if (const json::Value* a = get("reason_args"); a && a->isArray())
            for (const json::Value& s : a->asArray()) r.args.push_back(s.isString() ? s.asString() : s.dump());
        return r;
    }
};

} // namespace

json::Value runStateJson(const RunState& s)
{
    json::Value o = json::Value::object();
    o.set("version", s.version);
    o.set("run_id", s.runId);
    o.set("status", s.status);
    setReason(o, s.reason);
    o.set("failing_rank", s.failingRank);
    o.set("failing_host", s.failingHost);
    o.set("attempt", s.attempt);
    o.set("max_restarts", s.maxRestarts);
    o.set("world_size", s.worldSize);
    if (s.supervisor) {
        json::Value sup = json::Value::object();
        sup.set("pid", s.supervisor->pid);
        sup.set("host", s.supervisor->host);
        o.set("supervisor", std::move(sup));
    }
    setTime(o, "started_at", s.startedAt);
    setTime(o, "ended_at", s.endedAt);
    setTime(o, "updated_at", s.updatedAt);
    if (s.refreshS > 0) o.set("refresh_s", s.refreshS);
    o.set("steps_done", s.stepsDone);
    o.set("failed_checkpoints", s.failedCheckpoints);
    if (s.losses.lines > 0) {
        o.set("lines_lost", s.losses.lines);
        json::Value byFile = json::Value::object();
        for (const auto& [name, lost] : s.losses.byFile) byFile.set(name, lost);
        o.set("lines_lost_by_file", std::move(byFile));
        o.set("write_error", s.losses.writeError);
    }
    if (!s.losses.stateWriteError.empty()) o.set("state_write_error", s.losses.stateWriteError);
    if (s.finalLoss) o.set("final_loss", *s.finalLoss);
    if (s.latestCheckpoint) {
        json::Value ck = json::Value::object();
        ck.set("step", s.latestCheckpoint->step);
        ck.set("path", s.latestCheckpoint->path);
        o.set("latest_checkpoint", std::move(ck));
    }
    json::Value attempts = json::Value::array();
    for (const StateAttempt& a : s.attempts) {
        json::Value e = json::Value::object();
        e.set("attempt", a.attempt);
        setTime(e, "started_at", a.startedAt);
        setTime(e, "ended_at", a.endedAt);
        e.set("status", a.status);
        if (a.reason) setReason(e, *a.reason);
        if (a.failingRank >= 0) e.set("failing_rank", a.failingRank);
        if (!a.resumeDir.empty()) e.set("resume_dir", a.resumeDir);
        e.set("master_port", a.masterPort);
        attempts.push(std::move(e));
    }
    o.set("attempts", std::move(attempts));
    json::Value ranks = json::Value::array();
    for (const StateRank& r : s.ranks) {
        json::Value e = json::Value::object();
        e.set("rank", r.rank);
        e.set("host", r.host);
        e.set("pid", r.pid);
        e.set("running", r.running);
        if (!r.exit.empty()) e.set("exit", r.exit);
        ranks.push(std::move(e));
    }
    o.set("ranks", std::move(ranks));
    return o;
}

Status checkStateVersion(const json::Value& state, const std::string& where, const std::string& update)
{
    if (!state.isObject()) return Status::error(where + " is not a JSON object");
    const json::Value* version = state.find("version");
    if (!version) return {}; // the first supervisors wrote none: version 1
    if (!version->isInteger() || version->asInt() < 1)
        return Status::error(where + ": its \"version\" is not a whole number from 1");
    if (version->asInt() > kStateVersion)
        return Status::error(where + " is version " + std::to_string(version->asInt()) + "; this build reads version " +
                             std::to_string(kStateVersion) + ": " + update);
    return {};
}

Result<RunState> readRunState(const json::Value& state, const std::string& where, const std::string& update)
{
    if (Status bad = checkStateVersion(state, where, update); !bad.ok()) return bad;
    const Reader r{state};
    RunState s;
    r.integer("version", s.version);
    r.text("run_id", s.runId);
    r.text("status", s.status);
    s.reason = r.reason();
    r.integer("failing_rank", s.failingRank);
    r.text("failing_host", s.failingHost);
    r.integer("attempt", s.attempt);
    r.integer("max_restarts", s.maxRestarts);
    r.integer("world_size", s.worldSize);
    if (const json::Value* sup = r.get("supervisor"); sup && sup->isObject()) {
        const Reader rs{*sup};
        StateSupervisor v;
        rs.integer("pid", v.pid);
        rs.text("host", v.host);
        s.supervisor = v;
    }
    r.number("started_at", s.startedAt);
    r.number("ended_at", s.endedAt);
    r.number("updated_at", s.updatedAt);
    r.number("refresh_s", s.refreshS);
    r.integer("steps_done", s.stepsDone);
    r.integer("failed_checkpoints", s.failedCheckpoints);
    r.number("final_loss", s.finalLoss);
    if (const json::Value* ck = r.get("latest_checkpoint"); ck && ck->isObject()) {
        const Reader rc{*ck};
        StateCheckpoint c;
        rc.integer("step", c.step);
        rc.text("path", c.path);
        s.latestCheckpoint = c;
    }
    r.integer("lines_lost", s.losses.lines);
    if (const json::Value* byFile = r.get("lines_lost_by_file"); byFile && byFile->isObject())
        for (const auto& [name, lost] : byFile->asObject())
            if (lost.isNumber()) s.losses.byFile.emplace_back(name, static_cast<long long>(lost.asInt()));
    r.text("write_error", s.losses.writeError);
    r.text("state_write_error", s.losses.stateWriteError);
    if (const json::Value* list = r.get("attempts"); list && list->isArray())
        for (const json::Value& v : list->asArray()) {
            const Reader ra{v};
            StateAttempt a;
            ra.integer("attempt", a.attempt);
            ra.number("started_at", a.startedAt);
            ra.number("ended_at", a.endedAt);
            ra.text("status", a.status);
            if (ra.get("reason")) a.reason = ra.reason();
            ra.integer("failing_rank", a.failingRank);
            ra.text("resume_dir", a.resumeDir);
            ra.integer("master_port", a.masterPort);
            s.attempts.push_back(std::move(a));
        }
    if (const json::Value* list = r.get("ranks"); list && list->isArray())
        for (const json::Value& v : list->asArray()) {
            const Reader rr{v};
            StateRank k;
            rr.integer("rank", k.rank);
            rr.text("host", k.host);
            rr.integer("pid", k.pid);
            rr.flag("running", k.running);
            rr.text("exit", k.exit);
            s.ranks.push_back(std::move(k));
        }
    return s;
}

} // namespace sb::protocol
