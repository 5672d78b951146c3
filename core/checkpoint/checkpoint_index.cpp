#include "checkpoint_index.hpp"

#include "fs_util.hpp"
#include "sha256.hpp"

#include "plan/model_config.hpp"
#include "plan/module_tree.hpp"
#include "plan/plan_json.hpp"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

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

bool isValidRunId(const std::string& runId)
{
    // Not "step-...": a run's folder must not pass for a checkpoint of the layout without run folders.
    if (runId.empty() || runId.size() > 128 || runId[0] == '.' || runId.rfind("step-", 0) == 0) return false;
    for (char c : runId)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) return false;
    return true;
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
    root.set("version", kCheckpointFormatVersion);
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

namespace {
Status checkVersion(std::int64_t version)
{
    if (version >= kOldestReadableVersion && version <= kCheckpointFormatVersion) return {};
    return Status::error("checkpoint format version " + std::to_string(version) + " is not supported (this build reads versions " +
                         std::to_string(kOldestReadableVersion) + " to " + std::to_string(kCheckpointFormatVersion) + ")");
}
} // namespace

Result<CheckpointIndex> CheckpointIndex::fromJson(const json::Value& v)
{
    CheckpointIndex out;
    if (!v.isObject()) return Status::error("index is not a JSON object");
    const json::Value* fmt = v.find("format");
    if (!fmt || !fmt->isString() || fmt->asString() != kCheckpointFormat) return Status::error("not a shardbench checkpoint index (format)");
    const json::Value* ver = v.find("version");
    if (!ver || !ver->isInteger()) return Status::error("index has no integer version");
    if (Status known = checkVersion(ver->asInt()); !known) return known;
    out.version = static_cast<int>(ver->asInt());
    auto integer = [&](const char* key, std::int64_t& target) {
        const json::Value* x = v.find(key);
        if (!x || !x->isInteger() || x->asInt() < 0) return false;
        target = x->asInt();
        return true;
    };
    std::int64_t world = 0, shard = 0, rep = 0, seed = 0, next = 0;
    if (!integer("step", out.step) || !integer("optimizer_step", out.optimizerStep) || !integer("world_size", world) ||
        !integer("shard_size", shard) || !integer("replicate", rep) || !integer("seed", seed) || !integer("next_sample", next))
        return Status::error("index lacks step, optimizer_step, world_size, shard_size, replicate, seed or next_sample");
    if (world < 1 || shard < 1 || rep < 1 || shard * rep != world)
        return Status::error("index has an inconsistent world_size / shard_size / replicate");
    out.worldSize = static_cast<int>(world);
    out.shardSize = static_cast<int>(shard);
    out.replicate = static_cast<int>(rep);
    out.seed = static_cast<std::uint64_t>(seed);
    out.nextSample = static_cast<std::uint64_t>(next);
    if (const json::Value* r = v.find("run_id"); r && r->isString()) out.runId = r->asString();
    if (const json::Value* c = v.find("created"); c && c->isNumber()) out.created = c->asDouble();
    if (const json::Value* p = v.find("plan")) out.plan = *p;
    const json::Value* files = v.find("files");
    if (!files || !files->isObject() || files->size() == 0) return Status::error("index lists no files");
    for (const auto& [name, jf] : files->asObject()) {
        const json::Value* b = jf.find("bytes");
        const json::Value* h = jf.find("sha256");
        if (!b || !b->isInteger() || b->asInt() < 0 || !h || !h->isString() || name.find('/') != std::string::npos || name.empty() ||
            name[0] == '.' || name == kIndexFile || name == kIndexChecksumFile)
            return Status::error("index entry for file \"" + name + "\" is malformed");
        out.files.push_back({name, static_cast<std::uint64_t>(b->asInt()), h->asString()});
    }
    std::unordered_set<std::string> fileNames;
    for (const FileInfo& fi : out.files) fileNames.insert(fi.name);
    const json::Value* tensors = v.find("tensors");
    if (!tensors || !tensors->isObject()) return Status::error("index lists no tensors");
    for (const auto& [name, jt] : tensors->asObject()) {
        TensorInfo t;
        t.name = name;
        const json::Value* shape = jt.find("shape");
        const json::Value* shards = jt.find("shards");
        const json::Value* dtype = jt.find("dtype");
        if (dtype && dtype->isString()) t.dtype = dtype->asString();
        else if (out.version >= 2) return Status::error("tensor \"" + name + "\" has no dtype");
        if (!shape || !shape->isArray() || shape->size() == 0 || !shards || !shards->isArray())
            return Status::error("tensor \"" + name + "\" lacks shape or shards");
        for (const json::Value& d : shape->asArray()) {
            if (!d.isInteger() || d.asInt() < 0) return Status::error("tensor \"" + name + "\" has an invalid shape");
            t.shape.push_back(d.asInt());
        }
        std::int64_t expect = 0;
        for (const json::Value& js : shards->asArray()) {
            ShardRef s;
            const json::Value* f = js.find("file");
            const json::Value* rows = js.find("rows");
            const json::Value* h = js.find("crc32c");
            if (!f || !f->isString() || !rows || !rows->isArray() || rows->size() != 2 || !rows->asArray()[0].isInteger() ||
                !rows->asArray()[1].isInteger() || !h || !h->isString())
                return Status::error("a shard of tensor \"" + name + "\" is malformed");
            s.file = f->asString();
            s.rowBegin = rows->asArray()[0].asInt();
            s.rowEnd = rows->asArray()[1].asInt();
            s.crc32c = h->asString();
            if (s.rowBegin != expect || s.rowEnd < s.rowBegin)
                return Status::error("the shards of tensor \"" + name + "\" do not cover its rows in order");
            if (!fileNames.count(s.file))
                return Status::error("tensor \"" + name + "\" refers to file \"" + s.file + "\", which the index does not list");
            expect = s.rowEnd;
            t.shards.push_back(std::move(s));
        }
        if (expect != t.shape[0])
            return Status::error("the shards of tensor \"" + name + "\" cover " + std::to_string(expect) + " of " + std::to_string(t.shape[0]) +
                                 " rows");
        out.tensors.push_back(std::move(t));
    }
    return out;
}

namespace {

std::string shapeText(const std::vector<std::int64_t>& s)
{
    std::string o = "[";
    for (std::size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
    return o + "]";
}

// "step-000100" -> 100; -1 for any other name.
std::int64_t stepOfDirName(const std::string& dir)
{
    const std::string name = dir.substr(dir.find_last_of('/') == std::string::npos ? 0 : dir.find_last_of('/') + 1);
    if (name.size() < 6 || name.rfind("step-", 0) != 0) return -1;
    std::int64_t step = 0;
    for (std::size_t i = 5; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9' || step > (INT64_MAX - 9) / 10) return -1;
        step = step * 10 + (name[i] - '0');
    }
    return step;
}

constexpr std::uint64_t kMaxIndexBytes = 1ull << 30;

} // namespace

Status checkTensorsAgainstModel(const CheckpointIndex& index, const ModuleTree& tree)
{
    std::unordered_map<std::string, const TensorInfo*> byName; // linear in the tensors, for models of thousands
    for (const TensorInfo& t : index.tensors)
        if (!byName.emplace(t.name, &t).second) return Status::error("the checkpoint lists tensor \"" + t.name + "\" twice");
    std::unordered_set<std::string> expected;
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue; // stored once, under the parameter it shares
        const std::vector<std::int64_t> shape = p.shardedShape();
        for (const char* kind : {"param/", "exp_avg/", "exp_avg_sq/"}) {
            const std::string name = kind + p.path;
            expected.insert(name);
            const auto found = byName.find(name);
            const TensorInfo* t = found == byName.end() ? nullptr : found->second;
            if (!t && std::string(kind) == "param/")
                return Status::error("the checkpoint has no parameter \"" + p.path +
                                     "\" that the plan's model has (an incomplete checkpoint, or a different model?)");
            if (!t) return Status::error("the checkpoint lacks the AdamW state \"" + name + "\" (an incomplete checkpoint)");
            if (t->shape != shape)
                return Status::error("tensor \"" + name + "\" is " + shapeText(t->shape) + " in the checkpoint but " + shapeText(shape) +
                                     " in the plan's model");
            if (t->dtype != "F32") return Status::error("tensor \"" + name + "\" is " + t->dtype + "; sharded checkpoints hold F32");
        }
    }
    for (const TensorInfo& t : index.tensors)
        if (!expected.count(t.name)) return Status::error("the checkpoint holds tensor \"" + t.name + "\", which the plan's model does not have");
    return {};
}

Status CheckpointIndex::checkComplete() const
{
    if (!plan.isObject()) return Status::error("the index carries no plan");
    const PlanReadResult read = planFromJson(plan);
    if (!read.ok()) return Status::error("the plan in the index cannot be read");
    Problems problems;
    const std::shared_ptr<const ModuleTree> tree = buildModuleTree(read.plan.model, &problems);
    if (!tree || tree->params().empty()) return Status::error("the plan in the index describes no model");
    return checkTensorsAgainstModel(*this, *tree);
}

std::string CheckpointIndex::readOnlyReason() const
{
    if (checksummed) return {};
    return "format version " + std::to_string(version) + " has no index checksum (" + kIndexChecksumFile +
           "), so its step and data position cannot be trusted to resume from; inspect, verify and export still work";
}

Result<CheckpointIndex> readIndex(const std::string& dir)
{
    const std::string path = dir + "/" + kIndexFile;
    const std::string sumPath = dir + "/" + kIndexChecksumFile;
    if (!exists(path)) return Status::error(path + ": missing (not a complete checkpoint)");
    const Result<std::string> text = readRegularFile(path, kMaxIndexBytes);
    if (!text) return text.status();
    json::ParseResult parsed = json::parse(text.value());
    // A version this build does not know is named as such, whatever else is wrong.
    if (const json::Value* v = parsed ? parsed.value->find("version") : nullptr; v && v->isInteger())
        if (Status known = checkVersion(v->asInt()); !known) return known.prefixed(path);
    const bool haveSum = exists(sumPath);
    if (haveSum) {
        const Result<std::string> sum = readRegularFile(sumPath, 4096);
        if (!sum) return sum.status();
        // sha256sum's format: 64 hex digits, two spaces, the file name.
        if (sum.value().size() < 64 || sum.value().compare(64, std::string::npos, std::string("  ") + kIndexFile + "\n") != 0)
            return Status::error(sumPath + ": malformed (expected \"<sha256>  " + kIndexFile + "\")");
        if (sum.value().compare(0, 64, sha256Hex(text.value().data(), text.value().size())) != 0)
            return Status::error(path + ": checksum mismatch with " + kIndexChecksumFile + " (the index was altered or damaged)");
    }
    if (!parsed) return Status::error(path + ": invalid JSON at " + parsed.error.toString());
    Result<CheckpointIndex> read = CheckpointIndex::fromJson(*parsed.value);
    if (!read) return read.status().prefixed(path);
    CheckpointIndex index = std::move(read).value();
    index.checksummed = haveSum;
    if (!haveSum && index.version >= 2)
        return Status::error(sumPath + ": missing (the checkpoint was never committed, or its index checksum was removed)");
    if (const Status complete = index.checkComplete(); !complete) return complete.prefixed(path);
    if (const std::int64_t named = stepOfDirName(dir); named >= 0 && named != index.step)
        return Status::error(path + ": says step " + std::to_string(index.step) + " in a folder named for step " + std::to_string(named));
    return index;
}

Status writeIndex(const std::string& dir, const CheckpointIndex& index)
{
    const std::string text = index.toJson().dump(1) + "\n";
    if (Status written = writeFileDurably(dir + "/" + kIndexFile, text); !written) return written;
    return writeFileDurably(dir + "/" + kIndexChecksumFile, sha256Hex(text.data(), text.size()) + "  " + kIndexFile + "\n");
}

} // namespace sb::ckpt
