// CRC-32C (Castagnoli), hardware-accelerated with SSE4.2 where available.
// Each checkpoint shard carries one: cheap enough to check on every load,
// while SHA-256 of every file stays for `checkpoint verify`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sb::ckpt {

std::uint32_t crc32c(const void* data, std::size_t bytes, std::uint32_t crc = 0);
std::string crc32cHex(const void* data, std::size_t bytes); // 8 lowercase hex digits
std::string crc32cHex(std::uint32_t crc);

} // namespace sb::ckpt
