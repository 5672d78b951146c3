// Finds repeated keys in an object being read, in linear time with mostly
// sequential memory access whatever the input: a small object is scanned as
// each key arrives; past that, each key's SipHash-1-3 (under a per-process
// random key, so crafted keys cannot collide) is recorded and the hashes are
// radix-sorted once, when the object ends or the reader stops inside it.
#pragma once

#include "json.hpp"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace sb::json {

class KeyIndex {
public:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    explicit KeyIndex(const Object& members) : members_(members) {}
    // Call after each member is appended, with the offset of its key in the
    // input. Returns false when a small object's new key repeats an earlier one.
    bool addLast(std::size_t keyOffset);
    // For a large object: the input offset of the first key (in input order)
    // that repeats an earlier one, or kNone. Small objects were checked already.
    std::size_t firstRepeatOffset();

private:
    static constexpr std::size_t kScanLimit = 16;
    const Object& members_;                                    // indices stay valid while it grows
    std::vector<std::pair<std::uint64_t, std::size_t>> keys_; // (hash, member index), large objects only
    std::vector<std::size_t> offsets_;                         // key offset of each member from kScanLimit on
};

// SipHash-1-3 of `bytes` under this process's random key.
std::uint64_t keyHash(std::string_view bytes);

} // namespace sb::json
