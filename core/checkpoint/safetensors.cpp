#include "safetensors.hpp"

#include "fs_util.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::ckpt {

std::uint64_t safetensorsDtypeBytes(const std::string& d)
{
    if (d == "F64" || d == "I64" || d == "U64") return 8;
    if (d == "F32" || d == "I32" || d == "U32") return 4;
    if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
    if (d == "I8" || d == "U8" || d == "BOOL") return 1;
    return 0;
}

std::string safetensorsHeader(const std::vector<SafetensorsEntry>& entries, const std::map<std::string, std::string>& metadata)
{
    json::Value header = json::Value::object();
    if (!metadata.empty()) {
        json::Value meta = json::Value::object();
        for (const auto& [k, v] : metadata) meta.set(k, v);
        header.set("__metadata__", meta);
    }
    for (const SafetensorsEntry& e : entries) {
        json::Value je = json::Value::object();
        je.set("dtype", e.dtype);
        json::Value shape = json::Value::array();
        for (std::int64_t d : e.shape) shape.push(d);
        je.set("shape", shape);
        je.set("data_offsets", json::Value(json::Array{static_cast<long long>(e.begin), static_cast<long long>(e.end)}));
        header.set(e.name, je);
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((static_cast<std::uint64_t>(text.size()) >> (8 * i)) & 0xFF);
    return out + text;
}

Status SafetensorsWriter::open(const std::string& path, const std::vector<SafetensorsEntry>& entries,
                               const std::map<std::string, std::string>& metadata)
{
    path_ = path;
    expected_ = 0;
    for (const SafetensorsEntry& e : entries) expected_ = std::max(expected_, e.end);
    const std::string header = safetensorsHeader(entries, metadata);
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) return Status::error("cannot create " + path + ": " + std::strerror(errno));
    if (std::fwrite(header.data(), 1, header.size(), file_) != header.size())
        return Status::error("cannot write " + path + ": " + std::strerror(errno));
    hash_.update(header.data(), header.size());
    fileBytes_ = header.size();
    return {};
}

Status SafetensorsWriter::write(const void* data, std::size_t bytes)
{
    if (!file_) return Status::error("safetensors writer is not open");
    if (bytes && std::fwrite(data, 1, bytes, file_) != bytes) return Status::error("cannot write " + path_ + ": " + std::strerror(errno));
    hash_.update(data, bytes);
    written_ += bytes;
    fileBytes_ += bytes;
    return {};
}

Status SafetensorsWriter::close()
{
    if (!file_) return {};
    Status err;
    if (written_ != expected_)
        err = Status::error(path_ + ": wrote " + std::to_string(written_) + " data bytes, expected " + std::to_string(expected_));
    if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0) err = Status::error("cannot flush " + path_ + ": " + std::strerror(errno));
    std::fclose(file_);
    file_ = nullptr;
    sha_ = hash_.hex();
    return err;
}

SafetensorsWriter::~SafetensorsWriter()
{
    if (file_) std::fclose(file_);
}

Result<SafetensorsFile> readSafetensorsHeader(const std::string& path)
{
    const Result<int> opened = openRegularFile(path);
    if (!opened) return opened.status();
    const int fd = opened.value();
    std::FILE* f = ::fdopen(fd, "rb");
    if (!f) {
        ::close(fd);
        return Status::error("cannot open " + path + ": " + std::strerror(errno));
    }
    struct stat st {};
    ::fstat(fileno(f), &st);
    const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    unsigned char len[8];
    if (std::fread(len, 1, 8, f) != 8) {
        std::fclose(f);
        return Status::error(path + ": truncated (no header length)");
    }
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | len[i];
    if (n > 100u * 1024 * 1024 || 8 + n > size) {
        std::fclose(f);
        return Status::error(path + ": header length " + std::to_string(n) + " does not fit the file of " + std::to_string(size) + " bytes");
    }
    std::string text(static_cast<std::size_t>(n), '\0');
    const bool ok = std::fread(text.data(), 1, text.size(), f) == text.size();
    std::fclose(f);
    if (!ok) return Status::error(path + ": truncated header");
    json::ParseResult parsed = json::parse(text);
    if (!parsed || !parsed.value->isObject())
        return Status::error(path + ": header is not a JSON object" + (parsed ? "" : " (" + parsed.error.toString() + ")"));
    SafetensorsFile out;
    out.dataStart = 8 + n;
    std::uint64_t expectNext = 0;
    std::vector<SafetensorsEntry> entries;
    for (const auto& [name, v] : parsed.value->asObject()) {
        if (name == "__metadata__") {
            for (const auto& [k, mv] : v.asObject())
                if (mv.isString()) out.metadata[k] = mv.asString();
            continue;
        }
        SafetensorsEntry e;
        e.name = name;
        const json::Value* dt = v.find("dtype");
        const json::Value* shape = v.find("shape");
        const json::Value* offs = v.find("data_offsets");
        if (!dt || !dt->isString() || !shape || !shape->isArray() || !offs || !offs->isArray() || offs->size() != 2)
            return Status::error(path + ": tensor \"" + name + "\" lacks dtype, shape or data_offsets");
        e.dtype = dt->asString();
        std::uint64_t numel = 1;
        for (const json::Value& d : shape->asArray()) {
            if (!d.isInteger() || d.asInt() < 0) return Status::error(path + ": tensor \"" + name + "\" has an invalid shape");
            e.shape.push_back(d.asInt());
            numel *= static_cast<std::uint64_t>(d.asInt());
        }
        e.begin = static_cast<std::uint64_t>(offs->asArray()[0].asInt());
        e.end = static_cast<std::uint64_t>(offs->asArray()[1].asInt());
        const std::uint64_t width = safetensorsDtypeBytes(e.dtype);
        if (width == 0) return Status::error(path + ": tensor \"" + name + "\" has unknown dtype " + e.dtype);
        if (e.end < e.begin || e.end - e.begin != numel * width)
            return Status::error(path + ": tensor \"" + name + "\" has data_offsets that do not match its shape and dtype");
        if (out.dataStart + e.end > size) return Status::error(path + ": tensor \"" + name + "\" extends past the end of the file (truncated?)");
        entries.push_back(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    for (const SafetensorsEntry& e : entries) {
        if (e.begin != expectNext) return Status::error(path + ": tensor data is not contiguous at \"" + e.name + "\"");
        expectNext = e.end;
    }
    out.entries = std::move(entries);
    return out;
}

} // namespace sb::ckpt
