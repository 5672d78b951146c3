#include "run_spec.hpp"

#include "json/json.hpp"

namespace sb::supervise {

namespace {

using json::Value;

bool fail(std::string* error, const std::string& what)
{
    *error = what;
    return false;
}

bool readString(const Value& o, const char* key, std::string* out, std::string* error, bool required = false)
{
    const Value* v = o.find(key);
    if (!v) return required ? fail(error, std::string("\"") + key + "\" is missing") : true;
    if (!v->isString()) return fail(error, std::string("\"") + key + "\" must be a string");
    *out = v->asString();
    return true;
}

bool readInt(const Value& o, const char* key, int lo, int hi, int* out, std::string* error)
{
    const Value* v = o.find(key);
    if (!v) return true;
    if (!v->isInteger() || v->asInt() < lo || v->asInt() > hi)
        return fail(error, std::string("\"") + key + "\" must be an integer from " + std::to_string(lo) + " to " +
                               std::to_string(hi));
    *out = static_cast<int>(v->asInt());
    return true;
}

bool readStrings(const Value* v, const std::string& where, std::vector<std::string>* out, std::string* error)
{
    if (!v) return true;
    if (!v->isArray()) return fail(error, where + " must be an array of strings");
    for (const Value& s : v->asArray()) {
        if (!s.isString()) return fail(error, where + " must be an array of strings");
        out->push_back(s.asString());
    }
    return true;
}

bool readEnv(const Value* v, const std::string& where, EnvList* out, std::string* error)
{
    if (!v) return true;
    if (!v->isArray()) return fail(error, where + " must be an array of [name, value] pairs");
    for (const Value& p : v->asArray()) {
        if (!p.isArray() || p.size() != 2 || !p.asArray()[0].isString() || !p.asArray()[1].isString())
            return fail(error, where + " must be an array of [name, value] pairs");
        const std::string& name = p.asArray()[0].asString();
        if (name.empty() || name.find('=') != std::string::npos) return fail(error, where + ": bad variable name \"" + name + "\"");
        out->emplace_back(name, p.asArray()[1].asString());
    }
    return true;
}

bool readHosts(const Value& root, RunSpec* spec, std::string* error)
{
    const Value* hosts = root.find("hosts");
    if (!hosts || !hosts->isArray() || hosts->size() == 0) return fail(error, "\"hosts\" must be a non-empty array");
    for (std::size_t i = 0; i < hosts->size(); ++i) {
        const Value& h = hosts->asArray()[i];
        const std::string where = "hosts[" + std::to_string(i) + "]";
        if (!h.isObject()) return fail(error, where + " must be an object");
        HostSpec hs;
        if (!readString(h, "name", &hs.name, error)) return false;
        if (!readStrings(h.find("ssh"), where + ".ssh", &hs.ssh, error)) return false;
        if (i == 0 && !hs.ssh.empty() && !spec->slurm) return fail(error, "hosts[0] is the supervisor's own host and takes no \"ssh\"");
        spec->hosts.push_back(std::move(hs));
    }
    return true;
}

bool readRanks(const Value& root, RunSpec* spec, std::string* error)
{
    const Value* ranks = root.find("ranks");
    if (!ranks || !ranks->isArray() || static_cast<int>(ranks->size()) != spec->worldSize)
        return fail(error, "\"ranks\" must list world_size ranks");
    for (std::size_t i = 0; i < ranks->size(); ++i) {
        const Value& r = ranks->asArray()[i];
        const std::string where = "ranks[" + std::to_string(i) + "]";
        if (!r.isObject()) return fail(error, where + " must be an object");
        RankSpec rs;
        rs.rank = static_cast<int>(i);
        if (!readInt(r, "host", 0, static_cast<int>(spec->hosts.size()) - 1, &rs.host, error)) return false;
        if (!readEnv(r.find("env"), where + ".env", &rs.env, error)) return false;
        spec->ranks.push_back(std::move(rs));
    }
    return true;
}

Value envToJson(const EnvList& env)
{
    Value out = Value::array();
    for (const auto& [k, v] : env) out.push(Value(json::Array{Value(k), Value(v)}));
    return out;
}


bool readSpec(const std::string& text, RunSpec* spec, std::string* error)
{
    json::ParseResult parsed = json::parse(text);
    if (!parsed) return fail(error, "not valid JSON: " + parsed.error.toString());
    const Value& root = *parsed.value;
    if (!root.isObject()) return fail(error, "the spec must be a JSON object");
    int version = 0;
    if (!readInt(root, "version", 0, 1 << 20, &version, error)) return false;
    if (version != kSpecVersion && version != kSlurmSpecVersion)
        return fail(error, "spec version " + std::to_string(version) + " is not " + std::to_string(kSpecVersion) + " or " +
                               std::to_string(kSlurmSpecVersion) +
                               " (the launcher and shardbench-supervise differ in version)");
    *spec = RunSpec{};
    if (!readString(root, "run_id", &spec->runId, error, true)) return false;
    if (spec->runId.empty() || spec->runId.find('/') != std::string::npos) return fail(error, "\"run_id\" must be a plain name");
    if (!readString(root, "name", &spec->name, error)) return false;
    if (!readInt(root, "world_size", 1, 1 << 20, &spec->worldSize, error)) return false;
    if (!readInt(root, "max_restarts", 0, 1000, &spec->maxRestarts, error)) return false;
    if (!readInt(root, "stop_grace_ms", 0, 600000, &spec->stopGraceMs, error)) return false;
    if (!readString(root, "master_addr", &spec->masterAddr, error)) return false;
    if (!readInt(root, "master_port", 0, 65535, &spec->masterPort, error)) return false;
    if (!readString(root, "workdir", &spec->workdir, error)) return false;
    if (!readString(root, "program", &spec->program, error, true)) return false;
    if (spec->program.empty()) return fail(error, "\"program\" is empty");
    if (!readStrings(root.find("args"), "args", &spec->args, error)) return false;
    if (!readString(root, "resume_from", &spec->resumeFrom, error)) return false;
    if (const Value* v = root.find("slurm")) {
        if (!v->isBool()) return fail(error, "\"slurm\" must be true or false");
        spec->slurm = v->asBool();
    }
    if (spec->slurm != (version == kSlurmSpecVersion))
        return fail(error, "spec version " + std::to_string(version) + (spec->slurm ? " cannot describe" : " must describe") + " a Slurm run");
    if (!readInt(root, "gpus_per_node", 0, 1024, &spec->gpusPerNode, error)) return false;
    return readHosts(root, spec, error) && readRanks(root, spec, error);
}

} // namespace

Result<RunSpec> parseRunSpec(const std::string& text)
{
    RunSpec spec;
    std::string error;
    if (!readSpec(text, &spec, &error)) return Status::error(error);
    return spec;
}

json::Value stringsToJson(const std::vector<std::string>& list)
{
    Value out = Value::array();
    for (const std::string& s : list) out.push(Value(s));
    return out;
}

std::string runSpecToJson(const RunSpec& s)
{
    Value root = Value::object();
    root.set("version", s.slurm ? kSlurmSpecVersion : kSpecVersion);
    root.set("run_id", s.runId);
    root.set("name", s.name);
    root.set("world_size", s.worldSize);
    root.set("max_restarts", s.maxRestarts);
    root.set("stop_grace_ms", s.stopGraceMs);
    root.set("master_addr", s.masterAddr);
    root.set("master_port", s.masterPort);
    root.set("workdir", s.workdir);
    root.set("program", s.program);
    root.set("args", stringsToJson(s.args));
    root.set("resume_from", s.resumeFrom);
    if (s.slurm) {
        root.set("slurm", true);
        root.set("gpus_per_node", s.gpusPerNode);
    }
    Value hosts = Value::array();
    for (const HostSpec& h : s.hosts) {
        Value o = Value::object();
        o.set("name", h.name);
        if (!h.ssh.empty()) o.set("ssh", stringsToJson(h.ssh));
        hosts.push(std::move(o));
    }
    root.set("hosts", std::move(hosts));
    Value ranks = Value::array();
    for (const RankSpec& r : s.ranks) {
        Value o = Value::object();
        o.set("host", r.host);
        o.set("env", envToJson(r.env));
        ranks.push(std::move(o));
    }
    root.set("ranks", std::move(ranks));
    return root.dump(1) + "\n";
}

} // namespace sb::supervise
