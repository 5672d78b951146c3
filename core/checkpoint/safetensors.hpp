// The safetensors format (https://huggingface.co/docs/safetensors): an 8-byte
// little-endian header length, a JSON header mapping each tensor name to
// {dtype, shape, data_offsets} (plus optional "__metadata__" of strings),
// padded with spaces to a multiple of 8, then the raw little-endian data.
#pragma once

#include "sha256.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace sb::ckpt {

struct SafetensorsEntry {
    std::string name;
    std::string dtype;                // "F32", "BF16", "F16", "I64", ...
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0, end = 0; // byte offsets within the data section
};

// The bytes in front of the data: the 8-byte header length, then the JSON
// header padded with spaces to a multiple of 8.
std::string safetensorsHeader(const std::vector<SafetensorsEntry>& entries, const std::map<std::string, std::string>& metadata);

// Streams tensors into a file: declare all entries first, then write each
// entry's bytes in declaration order.
class SafetensorsWriter {
public:
    Status open(const std::string& path, const std::vector<SafetensorsEntry>& entries,
                     const std::map<std::string, std::string>& metadata);
    Status write(const void* data, std::size_t bytes);
    // Flushes, fsyncs and closes; checks that every declared byte was written.
    Status close();
    ~SafetensorsWriter();
    // Of every byte written (header included): valid after close().
    const std::string& sha256() const { return sha_; }
    std::uint64_t bytes() const { return fileBytes_; }

private:
    Sha256 hash_;
    std::string sha_;
    std::uint64_t fileBytes_ = 0;
    std::FILE* file_ = nullptr;
    std::string path_;
    std::uint64_t expected_ = 0, written_ = 0;
};

struct SafetensorsFile {
    std::vector<SafetensorsEntry> entries;
    std::map<std::string, std::string> metadata;
    std::uint64_t dataStart = 0; // file offset of the data section
};

// Parses and checks the header (offsets contiguous, within the file size,
// sizes matching shape x dtype). Errors name the file.
Result<SafetensorsFile> readSafetensorsHeader(const std::string& path);

std::uint64_t safetensorsDtypeBytes(const std::string& dtype); // 0 when unknown

} // namespace sb::ckpt
