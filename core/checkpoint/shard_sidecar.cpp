#include "shard_sidecar.hpp"

#include "fs_util.hpp"

namespace sb::ckpt {

namespace {

constexpr std::uint64_t kMaxSidecarBytes = 64ull << 20; // a sidecar lists its tensors' rows: far below this
constexpr const char* kOk = "ok";
constexpr const char* kErrorPrefix = "error: ";

const std::string* text(const json::Value& o, const char* key)
{
    const json::Value* v = o.find(key);
    return v && v->isString() ? &v->asString() : nullptr;
}

bool wholeNumber(const json::Value& o, const char* key, std::int64_t& out)
{
    const json::Value* v = o.find(key);
    if (!v || !v->isInteger() || v->asInt() < 0) return false;
    out = v->asInt();
    return true;
}

Result<std::pair<std::string, ShardRef>> shardFromJson(const json::Value& js, const std::string& file)
{
    const std::string* tensor = text(js, "tensor");
    const std::string* crc = text(js, "crc32c");
    const json::Value* rows = js.find("rows");
    if (!tensor || tensor->empty() || !crc || !rows || !rows->isArray() || rows->size() != 2)
        return Status::error("a shard lacks tensor, rows or crc32c");
    const json::Value& begin = rows->asArray()[0];
    const json::Value& end = rows->asArray()[1];
    if (!begin.isInteger() || !end.isInteger() || begin.asInt() < 0 || end.asInt() < begin.asInt())
        return Status::error("the rows of tensor \"" + *tensor + "\" are not a range [begin, end)");
    return std::pair<std::string, ShardRef>{*tensor, ShardRef{file, begin.asInt(), end.asInt(), *crc}};
}

Result<WrittenFile> sidecarFromJson(const json::Value& v)
{
    if (!v.isObject()) return Status::error("not a JSON object");
    WrittenFile w;
    const std::string* file = text(v, "file");
    const std::string* sha = text(v, "sha256");
    std::int64_t bytes = 0;
    if (!file || file->empty() || !sha || !wholeNumber(v, "bytes", bytes)) return Status::error("lacks file, bytes or sha256");
    w.file = {*file, static_cast<std::uint64_t>(bytes), *sha};
    const json::Value* shards = v.find("shards");
    if (!shards || !shards->isArray()) return Status::error("lacks its list of shards");
    for (const json::Value& js : shards->asArray()) {
        Result<std::pair<std::string, ShardRef>> shard = shardFromJson(js, *file);
        if (!shard) return shard.status();
        w.shards.push_back(std::move(shard).value());
    }
    return w;
}

} // namespace

json::Value sidecarToJson(const WrittenFile& written)
{
    json::Value side = json::Value::object();
    side.set("file", written.file.name);
    side.set("bytes", static_cast<long long>(written.file.bytes));
    side.set("sha256", written.file.sha256);
    json::Value shards = json::Value::array();
    for (const auto& [name, ref] : written.shards) {
        json::Value s = json::Value::object();
        s.set("tensor", name);
        s.set("rows", json::Value(json::Array{static_cast<long long>(ref.rowBegin), static_cast<long long>(ref.rowEnd)}));
        s.set("crc32c", ref.crc32c);
        shards.push(s);
    }
    side.set("shards", shards);
    return side;
}

Result<WrittenFile> readSidecar(const std::string& path)
{
    const Result<std::string> bytes = readRegularFile(path, kMaxSidecarBytes);
    if (!bytes) return bytes.status();
    const json::ParseResult parsed = json::parse(bytes.value());
    if (!parsed) return Status::error(path + ": not valid JSON (" + parsed.error.toString() + ")");
    Result<WrittenFile> sidecar = sidecarFromJson(*parsed.value);
    if (!sidecar) return sidecar.status().prefixed(path);
    return sidecar;
}

std::string shardWriteRecord(const Status& written) { return written ? kOk : kErrorPrefix + written.message(); }

Status shardWriteStatus(const std::string& record)
{
    if (record == kOk) return {};
    const std::string prefix = kErrorPrefix;
    if (record.compare(0, prefix.size(), prefix) == 0) return Status::error(record.substr(prefix.size()));
    return Status::error("unexpected word \"" + record.substr(0, 80) + "\"");
}

} // namespace sb::ckpt
