// Finds a repeated key while an object is being read, in expected constant
// time per key whatever the input: a scan while the object is small, then an
// open-addressing table of member indices hashed with SipHash-1-3 under a
// per-process random key, so crafted keys cannot force collisions.
#pragma once

#include "json.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace sb::json {

class KeyIndex {
public:
    explicit KeyIndex(const Object& members) : members_(members) {}
    // The last member's key is new: records it and returns true.
    bool addLast();

private:
    bool place(std::size_t member);
    void rebuild(std::size_t slots);

    static constexpr std::size_t kScanLimit = 16;
    const Object& members_;              // indices stay valid while it grows; views into its strings would not
    std::vector<std::uint64_t> hashes_;  // per member, once the table exists
    // High 32 bits: the key's hash; low 32: member index + 1 (0 is empty), so a
    // probe compares hashes without touching the members (an object cannot
    // reach 2^32 members: each takes at least 4 bytes of input, and 4 GiB of
    // JSON is far past every size limit shardbench sets).
    std::vector<std::uint64_t> slots_;
};

// SipHash-1-3 of `bytes` under this process's random key.
std::uint64_t keyHash(std::string_view bytes);

} // namespace sb::json
