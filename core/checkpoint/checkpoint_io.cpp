#include "checkpoint_io.hpp"

#include "crc32c.hpp"
#include "fs_util.hpp"
#include "sha256.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace sb::ckpt {

namespace {

std::int64_t rowNumelOf(const std::vector<std::int64_t>& shape)
{
    std::int64_t n = 1;
    for (std::size_t i = 1; i < shape.size(); ++i) n *= shape[i];
    return n;
}

// An export that failed or was cancelled: its temporary file goes, and the
// error that stopped it is the one reported, not the close's.
void discard(SafetensorsWriter& w, const std::string& tmp)
{
    const Status ignored = w.close();
    (void)ignored;
    ::unlink(tmp.c_str());
}

} // namespace

std::size_t ShardTensor::bytes() const { return static_cast<std::size_t>((rowEnd - rowBegin) * rowNumelOf(shape)) * 4; }

ShardImage::ShardImage(std::vector<ShardTensor> tensors, ShardImage* previous) : tensors_(std::move(tensors))
{
    std::vector<SafetensorsEntry> entries;
    std::uint64_t offset = 0;
    for (const ShardTensor& t : tensors_) {
        SafetensorsEntry e;
        e.name = t.name;
        e.dtype = "F32";
        e.shape = t.shape;
        if (!e.shape.empty()) e.shape[0] = t.rowEnd - t.rowBegin;
        e.begin = offset;
        e.end = offset + t.bytes();
        offset = e.end;
        entries.push_back(std::move(e));
    }
    const std::string header = safetensorsHeader(entries, {{"format", "shardbench-shard"}});
    size_ = header.size() + offset;
    const std::size_t pages = std::max<std::size_t>(1, (size_ + kPageBytes - 1) / kPageBytes) * kPageBytes;
    if (previous && previous->mapped_ >= pages) {
        std::swap(base_, previous->base_);
        std::swap(mapped_, previous->mapped_);
    } else {
        void* p = ::mmap(nullptr, pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        base_ = static_cast<unsigned char*>(p);
        mapped_ = pages;
    }
    std::memcpy(base_, header.data(), header.size());
    std::memset(base_ + size_, 0, pages - size_); // the padding of the last direct write
    for (std::size_t i = 0; i < tensors_.size(); ++i)
        tensors_[i].data = reinterpret_cast<const float*>(base_ + header.size() + entries[i].begin);
}

ShardImage::~ShardImage()
{
    if (base_) ::munmap(base_, mapped_);
}

Result<WrittenFile> writeShardFile(const std::string& dir, const std::string& fileName, const ShardImage& image)
{
    const std::string path = dir + "/" + fileName;
    Status ioError;
    std::thread io([&] { ioError = writeAlignedFileDurably(path, image.bytes(), image.size()); });
    // Meanwhile one pass over the bytes for both checksums (the tensors follow
    // the header back to back, in order).
    const auto& tensors = image.tensors();
    const auto* firstData = tensors.empty() ? image.bytes() + image.size() : reinterpret_cast<const unsigned char*>(tensors[0].data);
    Sha256 sha;
    sha.update(image.bytes(), static_cast<std::size_t>(firstData - image.bytes())); // the header
    std::vector<std::uint32_t> crcs(tensors.size(), 0);
    for (std::size_t i = 0; i < tensors.size(); ++i) sha.update(tensors[i].data, tensors[i].bytes(), crcs[i]);
    io.join();
    if (!ioError) return ioError;
    WrittenFile out;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        out.shards.push_back({tensors[i].name, {fileName, tensors[i].rowBegin, tensors[i].rowEnd, crc32cHex(crcs[i])}});
    out.file = {fileName, image.size(), sha.hex()};
    return out;
}

std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string& folder)
{
    std::vector<std::pair<std::int64_t, std::string>> out;
    for (const std::string& name : listDir(folder)) {
        if (name.rfind("step-", 0) != 0 || name.size() == 5) continue;
        char* end = nullptr;
        const long long step = std::strtoll(name.c_str() + 5, &end, 10);
        if (*end != '\0' || !exists(folder + "/" + name + "/" + kIndexFile)) continue; // *.tmp: never committed
        out.emplace_back(step, folder + "/" + name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> listRunFolders(const std::string& root)
{
    std::vector<std::string> out;
    for (const std::string& name : listDir(root))
        if (name.rfind("step-", 0) != 0 && isDir(root + "/" + name) && !listCheckpoints(root + "/" + name).empty()) out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
}

Result<std::string> resolveCheckpoint(const std::string& path, const std::string& runId)
{
    if (!isDir(path)) return Status::error(path + ": no such checkpoint folder");
    if (exists(path + "/" + kIndexFile)) return path;
    if (!runId.empty()) {
        if (isValidRunId(runId))
            if (const auto mine = listCheckpoints(path + "/" + runId); !mine.empty()) return mine.back().second;
        return Status::error(path + ": holds no complete checkpoint of run " + runId);
    }
    const auto here = listCheckpoints(path); // a run's folder (or a version-1 root)
    const auto runs = listRunFolders(path);
    if (!here.empty() && runs.empty()) return here.back().second;
    if (here.empty() && runs.size() == 1) return listCheckpoints(path + "/" + runs[0]).back().second;
    if (here.empty() && runs.empty())
        return Status::error(path + ": holds no complete checkpoint (DIR/<run id>/step-NNNNNN folders with an index.json)");
    std::string names;
    for (const std::string& r : runs) names += (names.empty() ? "" : ", ") + r;
    if (!here.empty()) names += std::string(names.empty() ? "" : ", ") + "and step folders of format version 1 at the top";
    return Status::error(path + ": holds the checkpoints of several runs (" + names + "); name one: " + path + "/<run id>, or pick it with --run ID");
}

ShardReader::ShardReader(std::string dir, const CheckpointIndex& index) : dir_(std::move(dir)), index_(index)
{
    for (const TensorInfo& t : index_.tensors) byName_.emplace(t.name, &t);
}

Status ShardReader::readShardInto(const TensorInfo& t, const ShardRef& s, float* dst)
{
    const std::string path = dir_ + "/" + s.file;
    auto h = headers_.find(s.file);
    if (h == headers_.end()) {
        Result<SafetensorsFile> f = readSafetensorsHeader(path);
        if (!f) return f.status();
        h = headers_.emplace(s.file, std::move(f).value()).first;
    }
    const SafetensorsEntry* entry = nullptr;
    for (const SafetensorsEntry& e : h->second.entries)
        if (e.name == t.name) entry = &e;
    if (!entry) return Status::error(path + ": has no tensor \"" + t.name + "\"");
    const std::int64_t rows = s.rowEnd - s.rowBegin;
    const std::size_t bytes = static_cast<std::size_t>(rows * t.rowNumel()) * 4;
    if (entry->dtype != "F32" || entry->shape.empty() || entry->shape[0] != rows || entry->end - entry->begin != bytes)
        return Status::error(path + ": tensor \"" + t.name + "\" does not have the rows and dtype the index promises");
    if (Status read = readFileRange(path, h->second.dataStart + entry->begin, dst, bytes); !read) return read;
    bytesRead_ += bytes;
    if (crc32cHex(dst, bytes) != s.crc32c)
        return Status::error(path + ": checksum mismatch in tensor \"" + t.name + "\" (the file was altered or damaged)");
    return {};
}

Result<const std::vector<float>*> ShardReader::loadShard(const TensorInfo& t, const ShardRef& s)
{
    const std::string key = s.file + "\n" + t.name;
    if (auto it = cache_.find(key); it != cache_.end()) return &it->second;
    std::vector<float> buf(static_cast<std::size_t>((s.rowEnd - s.rowBegin) * t.rowNumel()));
    if (Status read = readShardInto(t, s, buf.data()); !read) return read;
    return &cache_.emplace(key, std::move(buf)).first->second;
}

Status ShardReader::readRows(const std::string& name, std::int64_t rowBegin, std::int64_t rowEnd, float* out)
{
    const auto found = byName_.find(name);
    if (found == byName_.end()) return Status::error(dir_ + "/index.json: has no tensor \"" + name + "\"");
    const TensorInfo* t = found->second;
    if (rowBegin < 0 || rowEnd > t->shape[0] || rowBegin > rowEnd) return Status::error("rows out of range for \"" + name + "\"");
    const std::int64_t rn = t->rowNumel();
    for (const ShardRef& s : t->shards) {
        const std::int64_t b = std::max(rowBegin, s.rowBegin), e = std::min(rowEnd, s.rowEnd);
        if (b >= e) continue;
        float* dst = out + (b - rowBegin) * rn;
        if (b == s.rowBegin && e == s.rowEnd && !cache_.count(s.file + "\n" + t->name)) {
            // The whole shard is wanted (always so at the world size it was saved
            // at): read it straight into place and check it there.
            if (Status read = readShardInto(*t, s, dst); !read) return read;
            continue;
        }
        const Result<const std::vector<float>*> data = loadShard(*t, s);
        if (!data) return data.status();
        std::memcpy(dst, data.value()->data() + (b - s.rowBegin) * rn, static_cast<std::size_t>((e - b) * rn) * 4);
    }
    return {};
}

namespace {

// Every file of the index: present, a regular file, its size and SHA-256 as
// recorded, a readable safetensors header. Errors name the file and what differs.
Status checkFiles(const std::string& dir, const CheckpointIndex& index, const Progress& progress)
{
    std::uint64_t total = 0, done = 0;
    for (const FileInfo& f : index.files) total += f.bytes;
    for (const FileInfo& f : index.files) {
        const std::string path = dir + "/" + f.name;
        if (!exists(path)) return Status::error(path + ": missing");
        std::uint64_t bytes = 0;
        const Result<std::string> sha = sha256File(path, &bytes);
        if (!sha) return sha.status();
        if (bytes != f.bytes)
            return Status::error(path + ": " + std::to_string(bytes) + " bytes, the index says " + std::to_string(f.bytes) +
                                 " (truncated or altered)");
        if (sha.value() != f.sha256)
            return Status::error(path + ": checksum mismatch: its SHA-256 is " + sha.value() + ", the index says " + f.sha256 +
                                 " (the file was altered or damaged)");
        if (const Result<SafetensorsFile> header = readSafetensorsHeader(path); !header) return header.status();
        done += bytes;
        if (progress && !progress(total ? static_cast<double>(done) / static_cast<double>(total) : 1.0)) return Status::error("cancelled");
    }
    return {};
}

} // namespace

Status verifyCheckpoint(const std::string& dir, const Progress& progress)
{
    const Result<CheckpointIndex> read = readIndex(dir);
    if (!read) return read.status();
    const CheckpointIndex& index = read.value();
    if (Status files = checkFiles(dir, index, progress); !files) return files;
    // Shard checksums and coverage, one tensor at a time.
    ShardReader reader(dir, index);
    for (const TensorInfo& t : index.tensors) {
        std::vector<float> rows(static_cast<std::size_t>(t.shape[0] * t.rowNumel()));
        if (Status rowsRead = reader.readRows(t.name, 0, t.shape[0], rows.data()); !rowsRead) return rowsRead;
        reader.clear();
    }
    return {};
}

Result<std::string> describeCheckpoint(const std::string& dir)
{
    const Result<CheckpointIndex> read = readIndex(dir);
    if (!read) return read.status();
    const CheckpointIndex& index = read.value();
    std::uint64_t bytes = 0;
    for (const FileInfo& f : index.files) bytes += f.bytes;
    std::int64_t params = 0;
    std::size_t paramTensors = 0;
    for (const TensorInfo& t : index.tensors)
        if (t.name.rfind("param/", 0) == 0) {
            params += t.shape[0] * t.rowNumel();
            ++paramTensors;
        }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "checkpoint   %s\nstep         %lld (optimizer step %lld, next sample %llu)\n"
                  "world size   %d (shard group %d x replicate %d)\nfiles        %zu, %llu bytes\n"
                  "parameters   %lld in %zu tensors (+ AdamW exp_avg, exp_avg_sq)\nrun          %s\nformat       version %d%s\n",
                  dir.c_str(), static_cast<long long>(index.step), static_cast<long long>(index.optimizerStep),
                  static_cast<unsigned long long>(index.nextSample), index.worldSize, index.shardSize, index.replicate,
                  index.files.size(), static_cast<unsigned long long>(bytes), static_cast<long long>(params), paramTensors,
                  index.runId.c_str(), index.version, index.checksummed ? ", index checksummed" : ", READ-ONLY: no index checksum");
    std::string out = buf;
    out += "\ntensor                                              shape            shards\n";
    for (const TensorInfo& t : index.tensors) {
        if (t.name.rfind("param/", 0) != 0) continue;
        std::string shape = "[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(t.shape[i]);
        shape += "]";
        std::snprintf(buf, sizeof buf, "%-51s %-16s %zu\n", t.name.substr(6).c_str(), shape.c_str(), t.shards.size());
        out += buf;
    }
    return out;
}

Status exportCheckpoint(const std::string& dir, const std::string& outPath, const Progress& progress)
{
    const Result<CheckpointIndex> read = readIndex(dir);
    if (!read) return read.status();
    const CheckpointIndex& index = read.value();
    std::vector<const TensorInfo*> params;
    for (const TensorInfo& t : index.tensors)
        if (t.name.rfind("param/", 0) == 0) params.push_back(&t);
    std::vector<SafetensorsEntry> entries;
    std::uint64_t offset = 0;
    for (const TensorInfo* t : params) {
        SafetensorsEntry e{t->name.substr(6), "F32", t->shape, offset, offset + static_cast<std::uint64_t>(t->shape[0] * t->rowNumel()) * 4};
        offset = e.end;
        entries.push_back(std::move(e));
    }
    // Every file's size and SHA-256 first, before anything is written: the
    // shard CRCs checked below cover only the parameters export reads. Progress
    // runs over both passes, by bytes.
    std::uint64_t checkBytes = 0;
    for (const FileInfo& f : index.files) checkBytes += f.bytes;
    const double total = static_cast<double>(checkBytes + offset);
    const double checkShare = total > 0 ? static_cast<double>(checkBytes) / total : 0.0;
    const Progress checking = progress ? Progress([&](double f) { return progress(f * checkShare); }) : Progress();
    if (Status files = checkFiles(dir, index, checking); !files) return files;

    const std::string tmp = outPath + ".tmp";
    SafetensorsWriter w;
    if (Status opened = w.open(tmp, entries, {{"format", "pt"}, {"shardbench_step", std::to_string(index.step)}}); !opened) return opened;
    ShardReader reader(dir, index);
    for (std::size_t i = 0; i < params.size(); ++i) {
        const TensorInfo* t = params[i];
        for (const ShardRef& s : t->shards) {
            std::vector<float> rows(static_cast<std::size_t>((s.rowEnd - s.rowBegin) * t->rowNumel()));
            Status step = reader.readRows(t->name, s.rowBegin, s.rowEnd, rows.data());
            if (step) step = w.write(rows.data(), rows.size() * 4);
            if (!step) {
                discard(w, tmp);
                return step;
            }
            reader.clear();
        }
        const double done = checkShare + (1.0 - checkShare) * static_cast<double>(entries[i].end) / static_cast<double>(offset ? offset : 1);
        if (progress && !progress(i + 1 == params.size() ? 1.0 : done)) {
            discard(w, tmp);
            return Status::error("cancelled");
        }
    }
    if (Status closed = w.close(); !closed) {
        ::unlink(tmp.c_str());
        return closed;
    }
    if (Status renamed = renameDurably(tmp, outPath); !renamed) {
        ::unlink(tmp.c_str());
        return renamed;
    }
    return {};
}

} // namespace sb::ckpt
