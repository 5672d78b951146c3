#include "key_index.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <random>

namespace sb::json {

namespace {

std::array<std::uint64_t, 2> randomKey()
{
    std::array<std::uint64_t, 2> key{};
    try {
        std::random_device rd;
        key = {(std::uint64_t(rd()) << 32) ^ rd(), (std::uint64_t(rd()) << 32) ^ rd()};
    } catch (...) { // no entropy source: the clock still differs per process
        key[0] = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
        key[1] = reinterpret_cast<std::uintptr_t>(&key) * 0x9E3779B97F4A7C15ull;
    }
    return key;
}

std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

} // namespace

std::uint64_t keyHash(std::string_view bytes)
{
    static const std::array<std::uint64_t, 2> k = randomKey();
    std::uint64_t v0 = 0x736f6d6570736575ull ^ k[0], v1 = 0x646f72616e646f6dull ^ k[1];
    std::uint64_t v2 = 0x6c7967656e657261ull ^ k[0], v3 = 0x7465646279746573ull ^ k[1];
    auto round = [&] {
        v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
        v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
        v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
        v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
    };
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t m = 0;
        for (int j = 7; j >= 0; --j) m = (m << 8) | static_cast<unsigned char>(bytes[i + static_cast<std::size_t>(j)]);
        v3 ^= m;
        round();
        v0 ^= m;
    }
    std::uint64_t last = static_cast<std::uint64_t>(n) << 56;
    for (std::size_t j = 0; i + j < n; ++j) last |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[i + j])) << (8 * j);
    v3 ^= last;
    round();
    v0 ^= last;
    v2 ^= 0xff;
    round();
    round();
    round();
    return v0 ^ v1 ^ v2 ^ v3;
}

bool KeyIndex::addLast()
{
    const std::size_t last = members_.size() - 1;
    if (last < kScanLimit) {
        for (std::size_t i = 0; i < last; ++i)
            if (members_[i].first == members_[last].first) return false;
        return true;
    }
    if (slots_.empty()) // the object just outgrew the scan: index what it holds
        for (std::size_t i = 0; i < last; ++i) hashes_.push_back(keyHash(members_[i].first));
    if (2 * (last + 1) > slots_.size()) { // at most half full keeps probes short
        std::size_t size = slots_.empty() ? 64 : slots_.size();
        while (2 * (last + 1) > size) size *= 2;
        rebuild(size);
    }
    hashes_.push_back(keyHash(members_[last].first));
    return place(last);
}

bool KeyIndex::place(std::size_t member)
{
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t hash = hashes_[member];
    const std::uint64_t tag = hash & 0xFFFFFFFF00000000ull;
    for (std::size_t at = static_cast<std::size_t>(hash) & mask;; at = (at + 1) & mask) {
        const std::uint64_t slot = slots_[at];
        if (slot == 0) {
            slots_[at] = tag | (member + 1);
            return true;
        }
        const std::size_t other = static_cast<std::size_t>(slot & 0xFFFFFFFFull) - 1;
        if ((slot & 0xFFFFFFFF00000000ull) == tag && members_[other].first == members_[member].first) return false;
    }
}

void KeyIndex::rebuild(std::size_t slots)
{
    slots_.assign(slots, 0);
    for (std::size_t i = 0; i < hashes_.size(); ++i) place(i); // all distinct: each finds an empty slot
}

} // namespace sb::json
