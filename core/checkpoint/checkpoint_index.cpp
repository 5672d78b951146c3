#include "checkpoint_index.hpp"

#include "fs_util.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace sb::ckpt {

std::int64_t TensorInfo::rowNumel() const
{
    std::int64_t n = 1;
    for (std::size_t i = 1; i < shape.size(); ++i) n *= shape[i];
    return n;
}

std::string stepDirName(std::int64_t step)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "step-%06lld", static_cast<long long>(step));
    return buf;
}

const TensorInfo* CheckpointIndex::find(const std::string& name) const
{
    for (const TensorInfo& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

json::Value CheckpointIndex::toJson() const
{
    json::Value root = json::Value::object();
    root.set("format", kCheckpointFormat);
    root.set("version", version);
    root.set("kind", "sharded");
    root.set("step", static_cast<long long>(step));
    root.set("optimizer_step", static_cast<long long>(optimizerStep));
    root.set("world_size", worldSize);
    root.set("shard_size", shardSize);
    root.set("replicate", replicate);
    root.set("seed", static_cast<long long>(seed));
    root.set("next_sample", static_cast<long long>(nextSample));
    root.set("run_id", runId);
    root.set("created", created);
    json::Value tensorsJ = json::Value::object();
    for (const TensorInfo& t : tensors) {
        json::Value jt = json::Value::object();
        jt.set("dtype", t.dtype);
        json::Value shape = json::Value::array();
        for (std::int64_t d : t.shape) shape.push(d);
        jt.set("shape", shape);
        json::Value shards = json::Value::array();
        for (const ShardRef& s : t.shards) {
            json::Value js = json::Value::object();
            js.set("file", s.file);
            js.set("rows", json::Value(json::Array{static_cast<long long>(s.rowBegin), static_cast<long long>(s.rowEnd)}));
            js.set("crc32c", s.crc32c);
            shards.push(js);
        }
        jt.set("shards", shards);
        tensorsJ.set(t.name, jt);
    }
    root.set("tensors", tensorsJ);
    json::Value filesJ = json::Value::object();
    for (const FileInfo& f : files) {
        json::Value jf = json::Value::object();
        jf.set("bytes", static_cast<long long>(f.bytes));
        jf.set("sha256", f.sha256);
        filesJ.set(f.name, jf);
    }
    root.set("files", filesJ);
    root.set("plan", plan);
    return root;
}

std::string CheckpointIndex::fromJson(const json::Value& v, CheckpointIndex& out)
{
    out = {};
    if (!v.isObject()) return "index is not a JSON object";
    const json::Value* fmt = v.find("format");
    if (!fmt || !fmt->isString() || fmt->asString() != kCheckpointFormat) return "not a shardbench checkpoint index (format)";
    const json::Value* ver = v.find("version");
    if (!ver || !ver->isInteger()) return "index has no integer version";
    if (ver->asInt() != kCheckpointFormatVersion)
        return "checkpoint format version " + std::to_string(ver->asInt()) + " is not supported (this build reads version " +
               std::to_string(kCheckpointFormatVersion) + ")";
    auto integer = [&](const char* key, std::int64_t& target) {
        const json::Value* x = v.find(key);
        if (!x || !x->isInteger() || x->asInt() < 0) return false;
        target = x->asInt();
        return true;
    };
    std::int64_t world = 0, shard = 0, rep = 0, seed = 0, next = 0;
    if (!integer("step", out.step) || !integer("optimizer_step", out.optimizerStep) || !integer("world_size", world) ||
        !integer("shard_size", shard) || !integer("replicate", rep) || !integer("seed", seed) || !integer("next_sample", next))
        return "index lacks step, optimizer_step, world_size, shard_size, replicate, seed or next_sample";
    if (world < 1 || shard < 1 || rep < 1 || shard * rep != world) return "index has an inconsistent world_size / shard_size / replicate";
    out.worldSize = static_cast<int>(world);
    out.shardSize = static_cast<int>(shard);
    out.replicate = static_cast<int>(rep);
    out.seed = static_cast<std::uint64_t>(seed);
    out.nextSample = static_cast<std::uint64_t>(next);
    if (const json::Value* r = v.find("run_id"); r && r->isString()) out.runId = r->asString();
    if (const json::Value* c = v.find("created"); c && c->isNumber()) out.created = c->asDouble();
    if (const json::Value* p = v.find("plan")) out.plan = *p;
    const json::Value* files = v.find("files");
    if (!files || !files->isObject() || files->size() == 0) return "index lists no files";
    for (const auto& [name, jf] : files->asObject()) {
        const json::Value* b = jf.find("bytes");
        const json::Value* h = jf.find("sha256");
        if (!b || !b->isInteger() || !h || !h->isString() || name.find('/') != std::string::npos || name.empty() || name[0] == '.')
            return "index entry for file \"" + name + "\" is malformed";
        out.files.push_back({name, static_cast<std::uint64_t>(b->asInt()), h->asString()});
    }
    const json::Value* tensors = v.find("tensors");
    if (!tensors || !tensors->isObject()) return "index lists no tensors";
    for (const auto& [name, jt] : tensors->asObject()) {
        TensorInfo t;
        t.name = name;
        const json::Value* shape = jt.find("shape");
        const json::Value* shards = jt.find("shards");
        if (const json::Value* d = jt.find("dtype"); d && d->isString()) t.dtype = d->asString();
        if (!shape || !shape->isArray() || shape->size() == 0 || !shards || !shards->isArray())
            return "tensor \"" + name + "\" lacks shape or shards";
        for (const json::Value& d : shape->asArray()) {
            if (!d.isInteger() || d.asInt() < 0) return "tensor \"" + name + "\" has an invalid shape";
            t.shape.push_back(d.asInt());
        }
        std::int64_t expect = 0;
        for (const json::Value& js : shards->asArray()) {
            ShardRef s;
            const json::Value* f = js.find("file");
            const json::Value* rows = js.find("rows");
            const json::Value* h = js.find("crc32c");
            if (!f || !f->isString() || !rows || !rows->isArray() || rows->size() != 2 || !h || !h->isString())
                return "a shard of tensor \"" + name + "\" is malformed";
            s.file = f->asString();
            s.rowBegin = rows->asArray()[0].asInt();
            s.rowEnd = rows->asArray()[1].asInt();
            s.crc32c = h->asString();
            if (s.rowBegin != expect || s.rowEnd < s.rowBegin) return "the shards of tensor \"" + name + "\" do not cover its rows in order";
            bool known = false;
            for (const FileInfo& fi : out.files) known = known || fi.name == s.file;
            if (!known) return "tensor \"" + name + "\" refers to file \"" + s.file + "\", which the index does not list";
            expect = s.rowEnd;
            t.shards.push_back(std::move(s));
        }
        if (expect != t.shape[0]) return "the shards of tensor \"" + name + "\" cover " + std::to_string(expect) + " of " +
                                          std::to_string(t.shape[0]) + " rows";
        out.tensors.push_back(std::move(t));
    }
    return {};
}

std::string readIndex(const std::string& dir, CheckpointIndex& out)
{
    const std::string path = dir + "/index.json";
    std::ifstream in(path, std::ios::binary);
    if (!in) return path + ": missing (not a complete checkpoint)";
    std::stringstream ss;
    ss << in.rdbuf();
    json::ParseResult parsed = json::parse(ss.str());
    if (!parsed) return path + ": invalid JSON at " + parsed.error.toString();
    if (std::string err = CheckpointIndex::fromJson(*parsed.value, out); !err.empty()) return path + ": " + err;
    return {};
}

std::string writeIndex(const std::string& dir, const CheckpointIndex& index)
{
    return writeFileDurably(dir + "/index.json", index.toJson().dump(1) + "\n");
}

} // namespace sb::ckpt
