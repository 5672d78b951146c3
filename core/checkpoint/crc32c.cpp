#include "crc32c.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>
#define SB_CRC_HW 1
#endif

namespace sb::ckpt {

namespace {

std::array<std::uint32_t, 256> makeTable()
{
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        t[i] = c;
    }
    return t;
}

std::uint32_t portable(const unsigned char* p, std::size_t n, std::uint32_t crc)
{
    static const std::array<std::uint32_t, 256> table = makeTable();
    for (std::size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return crc;
}

#ifdef SB_CRC_HW
bool hasSse42()
{
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 20) & 1);
}

__attribute__((target("sse4.2"))) std::uint32_t hardware(const unsigned char* p, std::size_t n, std::uint32_t crc)
{
    std::uint64_t c = crc;
    while (n >= 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    std::uint32_t c32 = static_cast<std::uint32_t>(c);
    while (n--) c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}

const bool kHw = hasSse42() && !std::getenv("SB_CRC32C_PORTABLE");
#endif

} // namespace

std::uint32_t crc32c(const void* data, std::size_t bytes, std::uint32_t crc)
{
    const auto* p = static_cast<const unsigned char*>(data);
    crc = ~crc;
#ifdef SB_CRC_HW
    if (kHw) return ~hardware(p, bytes, crc);
#endif
    return ~portable(p, bytes, crc);
}

std::string crc32cHex(std::uint32_t crc)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", crc);
    return buf;
}

std::string crc32cHex(const void* data, std::size_t bytes) { return crc32cHex(crc32c(data, bytes)); }

} // namespace sb::ckpt
