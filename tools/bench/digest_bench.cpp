// Times the checkpoint digests (not a test: results go to docs/checkpoints.md,
// "Digests"): the core's SHA-256 (SHA-NI where the CPU has it), the same with
// the CRC-32C folded into the pass (what the shard writer does), and
// OpenSSL's SHA-256 (libcrypto's EVP interface) alone and followed by the
// CRC-32C. The data is hashed in 4 MiB pieces, as files are read; rounds
// alternate the contenders and the median of each is reported in MB/s.
//
//   shardbench-digest-bench [--mib N] [--rounds N]
#include "checkpoint/crc32c.hpp"
#include "checkpoint/sha256.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kPiece = std::size_t(4) << 20;

double seconds(const std::function<void()>& f)
{
    const auto t0 = Clock::now();
    f();
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string opensslHex(const std::vector<unsigned char>& data)
{
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
    for (std::size_t at = 0; at < data.size(); at += kPiece)
        EVP_DigestUpdate(ctx, data.data() + at, std::min(kPiece, data.size() - at));
    unsigned char md[32];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx, md, &length);
    EVP_MD_CTX_free(ctx);
    std::string hex;
    char two[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(two, sizeof two, "%02x", md[i]);
        hex += two;
    }
    return hex;
}

} // namespace

int main(int argc, char** argv)
{
    std::size_t mib = 256;
    int rounds = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--mib")) mib = std::strtoul(argv[i + 1], nullptr, 10);
        else if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    }
    std::vector<unsigned char> data(mib << 20);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);

    std::string ours, theirs;
    std::uint32_t crc = 0;
    const auto core = [&] {
        sb::ckpt::Sha256 h;
        for (std::size_t at = 0; at < data.size(); at += kPiece) h.update(data.data() + at, std::min(kPiece, data.size() - at));
        ours = h.hex();
    };
    const auto coreCrc = [&] {
        sb::ckpt::Sha256 h;
        crc = 0;
        for (std::size_t at = 0; at < data.size(); at += kPiece) h.update(data.data() + at, std::min(kPiece, data.size() - at), crc);
        ours = h.hex();
    };
    const auto openssl = [&] { theirs = opensslHex(data); };
    const auto opensslCrc = [&] {
        theirs = opensslHex(data);
        crc = sb::ckpt::crc32c(data.data(), data.size());
    };
    const std::vector<std::pair<const char*, std::function<void()>>> contenders = {
        {"core SHA-256", core}, {"core SHA-256 + CRC-32C, one pass", coreCrc},
        {"OpenSSL SHA-256", openssl}, {"OpenSSL SHA-256, then CRC-32C", opensslCrc}};
    std::vector<std::vector<double>> mbps(contenders.size());
    for (const auto& c : contenders) c.second(); // warm-up
    for (int r = 0; r < rounds; ++r)
        for (std::size_t c = 0; c < contenders.size(); ++c)
            mbps[c].push_back(double(data.size()) / 1e6 / seconds(contenders[c].second));
    if (ours != theirs) {
        std::fprintf(stderr, "the digests differ: core %s, OpenSSL %s\n", ours.c_str(), theirs.c_str());
        return 1;
    }
    std::printf("%zu MiB in 4 MiB pieces, %d rounds; median MB/s (min-max)\n", mib, rounds);
    for (std::size_t c = 0; c < contenders.size(); ++c)
        std::printf("  %-36s %7.0f (%.0f-%.0f)\n", contenders[c].first, median(mbps[c]),
                    *std::min_element(mbps[c].begin(), mbps[c].end()), *std::max_element(mbps[c].begin(), mbps[c].end()));
    return 0;
}
