#include "key_index.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <random>
#include <utility>

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

bool KeyIndex::addLast(std::size_t keyOffset)
{
    const std::size_t last = members_.size() - 1;
    if (last < kScanLimit) {
        for (std::size_t i = 0; i < last; ++i)
            if (members_[i].first == members_[last].first) return false;
        return true;
    }
    if (keys_.empty()) // the object just outgrew the scan: record what it holds
        for (std::size_t i = 0; i < last; ++i) keys_.emplace_back(keyHash(members_[i].first), i);
    keys_.emplace_back(keyHash(members_[last].first), last);
    offsets_.push_back(keyOffset);
    return true;
}

namespace {

using Entry = std::pair<std::uint64_t, std::size_t>;
constexpr int kPrefixShift = 31; // entries are grouped by the hash's top 33 bits

// Orders entries by the hash's top 33 bits: a sort for small sets, three
// 11-bit radix passes (sequential, cache-friendly) for large ones.
void sortByHashPrefix(std::vector<Entry>& v)
{
    if (v.size() < (1u << 15)) {
        std::sort(v.begin(), v.end(), [](const Entry& a, const Entry& b) { return (a.first >> kPrefixShift) < (b.first >> kPrefixShift); });
        return;
    }
    std::vector<Entry> tmp(v.size());
    std::vector<std::size_t> start(1u << 11);
    for (int shift = kPrefixShift; shift < 64; shift += 11) {
        std::fill(start.begin(), start.end(), 0);
        for (const Entry& e : v) ++start[(e.first >> shift) & 0x7FF];
        std::size_t sum = 0;
        for (std::size_t& c : start) sum += std::exchange(c, sum);
        for (const Entry& e : v) tmp[start[(e.first >> shift) & 0x7FF]++] = e;
        v.swap(tmp);
    }
}

} // namespace

std::size_t KeyIndex::firstRepeatOffset()
{
    sortByHashPrefix(keys_);
    std::size_t first = kNone; // smallest member index that repeats an earlier key
    for (std::size_t i = 0; i < keys_.size();) {
        std::size_t end = i + 1;
        while (end < keys_.size() && (keys_[end].first >> kPrefixShift) == (keys_[i].first >> kPrefixShift)) ++end;
        for (std::size_t a = i; a < end; ++a) // a group is nearly always one key, or one repeated key
            for (std::size_t b = a + 1; b < end; ++b) {
                const std::size_t later = std::max(keys_[a].second, keys_[b].second);
                if (later < first && keys_[a].first == keys_[b].first &&
                    members_[keys_[a].second].first == members_[keys_[b].second].first)
                    first = later;
            }
        i = end;
    }
    return first == kNone ? kNone : offsets_[first - kScanLimit]; // a repeat among the first members was caught by the scan
}

} // namespace sb::json
