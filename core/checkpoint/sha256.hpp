// SHA-256 (FIPS 180-4), streaming. Checkpoint files and shards carry it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "util/status.hpp"

namespace sb::ckpt {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t bytes);
    // The same, also folding the bytes into the CRC-32C `crc` (continued, as
    // crc32c() does) in the same pass over them.
    void update(const void* data, std::size_t bytes, std::uint32_t& crc);
    std::array<std::uint8_t, 32> finish();
    std::string hex(); // finish() as 64 lowercase hex digits

private:
    void block(const std::uint8_t* p);
    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buf_{};
    std::size_t used_ = 0;
    std::uint64_t total_ = 0;
};

std::string sha256Hex(const void* data, std::size_t bytes);
// Hashes a whole file (64 lowercase hex digits), or an error when it cannot be read.
Result<std::string> sha256File(const std::string& path, std::uint64_t* bytes = nullptr);

} // namespace sb::ckpt
