#include "run_spec.hpp"

#include "json/json.hpp"
#include "protocol/run_limits.hpp"

namespace sb::supervise {

namespace {

using json::Value;

Status readString(const Value& o, const char* key, std::string* out, bool required = false)
{
    const Value* v = o.find(key);
    if (!v) return required ? Status::error(std::string("\"") + key + "\" is missing") : Status();
    if (!v->isString()) return Status::error(std::string("\"") + key + "\" must be a string");
    *out = v->asString();
    return {};
}

Status readInt(const Value& o, const char* key, int lo, int hi, int* out)
{
    const Value* v = o.find(key);
    if (!v) return {};
    if (!v->isInteger() || v->asInt() < lo || v->asInt() > hi)
        return Status::error(std::string("\"") + key + "\" must be an integer from " + std::to_string(lo) + " to " +
                               std::to_string(hi));
    *out = static_cast<int>(v->asInt());
    return {};
}

Status readStrings(const Value* v, const std::string& where, std::vector<std::string>* out)
{
    if (!v) return {};
    if (!v->isArray()) return Status::error(where + " must be an array of strings");
    for (const Value& s : v->asArray()) {
        if (!s.isString()) return Status::error(where + " must be an array of strings");
        out->push_back(s.asString());
    }
    return {};
}

Status readEnv(const Value* v, const std::string& where, EnvList* out)
{
    if (!v) return {};
    if (!v->isArray()) return Status::error(where + " must be an array of [name, value] pairs");
    for (const Value& p : v->asArray()) {
        if (!p.isArray() || p.size() != 2 || !p.asArray()[0].isString() || !p.asArray()[1].isString())
            return Status::error(where + " must be an array of [name, value] pairs");
        const std::string& name = p.asArray()[0].asString();
        if (name.empty() || name.find('=') != std::string::npos) return Status::error(where + ": bad variable name \"" + name + "\"");
        out->emplace_back(name, p.asArray()[1].asString());
    }
    return {};
}

Status readHosts(const Value& root, RunSpec* spec)
{
    const Value* hosts = root.find("hosts");
    if (!hosts || !hosts->isArray() || hosts->size() == 0) return Status::error("\"hosts\" must be a non-empty array");
    for (std::size_t i = 0; i < hosts->size(); ++i) {
        const Value& h = hosts->asArray()[i];
        const std::string where = "hosts[" + std::to_string(i) + "]";
        if (!h.isObject()) return Status::error(where + " must be an object");
        HostSpec hs;
        if (Status st = readString(h, "name", &hs.name); !st) return st;
        if (Status st = readStrings(h.find("ssh"), where + ".ssh", &hs.ssh); !st) return st;
        if (i == 0 && !hs.ssh.empty() && !spec->slurm) return Status::error("hosts[0] is the supervisor's own host and takes no \"ssh\"");
        spec->hosts.push_back(std::move(hs));
    }
    return {};
}

Status readRanks(const Value& root, RunSpec* spec)
{
    const Value* ranks = root.find("ranks");
    if (!ranks || !ranks->isArray() || static_cast<int>(ranks->size()) != spec->worldSize)
        return Status::error("\"ranks\" must list world_size ranks");
    for (std::size_t i = 0; i < ranks->size(); ++i) {
        const Value& r = ranks->asArray()[i];
        const std::string where = "ranks[" + std::to_string(i) + "]";
        if (!r.isObject()) return Status::error(where + " must be an object");
        RankSpec rs;
        rs.rank = static_cast<int>(i);
        if (Status st = readInt(r, "host", 0, static_cast<int>(spec->hosts.size()) - 1, &rs.host); !st) return st;
        if (Status st = readEnv(r.find("env"), where + ".env", &rs.env); !st) return st;
        spec->ranks.push_back(std::move(rs));
    }
    return {};
}

Value envToJson(const EnvList& env)
{
    Value out = Value::array();
    for (const auto& [k, v] : env) out.push(Value(json::Array{Value(k), Value(v)}));
    return out;
}

Status readSpec(const std::string& text, RunSpec* spec)
{
    json::ParseResult parsed = json::parse(text);
    if (!parsed) return Status::error("not valid JSON: " + parsed.error.toString());
    const Value& root = *parsed.value;
    if (!root.isObject()) return Status::error("the spec must be a JSON object");
    int version = 0;
    if (Status st = readInt(root, "version", 0, 1 << 20, &version); !st) return st;
    if (version != kSpecVersion && version != kSlurmSpecVersion)
        return Status::error("spec version " + std::to_string(version) + " is not " + std::to_string(kSpecVersion) + " or " +
                             std::to_string(kSlurmSpecVersion) +
                             " (the launcher and shardbench-supervise differ in version)");
    *spec = RunSpec{};
    if (Status st = readString(root, "run_id", &spec->runId, true); !st) return st;
    if (spec->runId.empty() || spec->runId.find('/') != std::string::npos) return Status::error("\"run_id\" must be a plain name");
    if (Status st = readString(root, "name", &spec->name); !st) return st;
    if (Status st = readInt(root, "world_size", 1, 1 << 20, &spec->worldSize); !st) return st;
    if (Status st = readInt(root, "max_restarts", 0, limits::kMaxRestarts, &spec->maxRestarts); !st) return st;
    if (Status st = readInt(root, "stop_grace_ms", 0, limits::kMaxStopGraceMs, &spec->stopGraceMs); !st) return st;
    if (Status st = readString(root, "master_addr", &spec->masterAddr); !st) return st;
    if (Status st = readInt(root, "master_port", 0, 65535, &spec->masterPort); !st) return st;
    if (Status st = readString(root, "workdir", &spec->workdir); !st) return st;
    if (Status st = readString(root, "program", &spec->program, true); !st) return st;
    if (spec->program.empty()) return Status::error("\"program\" is empty");
    if (Status st = readStrings(root.find("args"), "args", &spec->args); !st) return st;
    if (Status st = readString(root, "resume_from", &spec->resumeFrom); !st) return st;
    if (const Value* v = root.find("slurm")) {
        if (!v->isBool()) return Status::error("\"slurm\" must be true or false");
        spec->slurm = v->asBool();
    }
    if (const Value* v = root.find("resume_argument")) { // absent in older specs: true
        if (!v->isBool()) return Status::error("\"resume_argument\" must be true or false");
        spec->resumeArgument = v->asBool();
    }
    if (spec->slurm != (version == kSlurmSpecVersion))
        return Status::error("spec version " + std::to_string(version) + (spec->slurm ? " cannot describe" : " must describe") + " a Slurm run");
    if (Status st = readInt(root, "gpus_per_node", 0, 1024, &spec->gpusPerNode); !st) return st;
    if (Status st = readHosts(root, spec); !st) return st;
    return readRanks(root, spec);
}

} // namespace

Result<RunSpec> parseRunSpec(const std::string& text)
{
    RunSpec spec;
    if (Status read = readSpec(text, &spec); !read) return read;
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
    if (!s.resumeArgument) root.set("resume_argument", false);
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
