// The core's token reader (core/engine/data.cpp over core/data/token_file.hpp)
// against what a step needs (docs/performance.md, "Token data"): writes a
// token file of SIZE_MIB in a format (a llm.c .bin of uint32 tokens, or a
// Megatron pair of int32 tokens in 1,000 documents), drops it from the page
// cache where the kernel lets us, then opens it the way a run does and reads
// random windows of SEQ + 1 tokens, BATCH at a time, as the trainer asks
// for them. Prints the open time, the windows per second and the tokens per
// second, cold (first pass) and warm (the same windows again).
//
//   shardbench-token-reader-bench DIR [--format llmc|megatron] [--mib N] [--seq N] [--batch N] [--batches N]
#include "data.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void put(std::ofstream& f, std::uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; ++i) f.put(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Tokens below `vocab`, written in blocks.
void writeTokens(std::ofstream& f, std::uint64_t tokens, std::uint32_t vocab)
{
    std::mt19937 random(7);
    std::vector<std::uint32_t> block(1 << 16);
    for (std::uint64_t done = 0; done < tokens; done += block.size()) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), tokens - done));
        for (std::size_t i = 0; i < n; ++i) block[i] = random() % vocab;
        f.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n * 4)); // little-endian host
    }
}

std::string writeFile(const std::string& dir, const std::string& format, std::uint64_t tokens, std::uint32_t vocab)
{
    if (format == "llmc") {
        const std::string path = dir + "/bench-llmc.bin";
        std::ofstream f(path, std::ios::binary);
        put(f, 20240520, 4);
        put(f, 2, 4);
        put(f, tokens, 4);
        for (int i = 3; i < 256; ++i) put(f, 0, 4);
        writeTokens(f, tokens, vocab);
        return path;
    }
    const std::string prefix = dir + "/bench-megatron";
    std::ofstream bin(prefix + ".bin", std::ios::binary);
    writeTokens(bin, tokens, vocab);
    const std::uint64_t docs = 1000;
    std::ofstream idx(prefix + ".idx", std::ios::binary);
    idx.write("MMIDIDX\0\0", 9);
    put(idx, 1, 8);
    put(idx, 4, 1); // int32
    put(idx, docs, 8);
    put(idx, docs + 1, 8);
    for (std::uint64_t d = 0; d < docs; ++d) put(idx, tokens / docs + (d == docs - 1 ? tokens % docs : 0), 4);
    for (std::uint64_t d = 0; d < docs; ++d) put(idx, d * (tokens / docs) * 4, 8);
    for (std::uint64_t d = 0; d <= docs; ++d) put(idx, d, 8);
    return prefix + ".bin";
}

// Asks the kernel to forget the file's cached pages (so the first pass reads the disk).
void dropCache(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR [--format llmc|megatron] [--mib N] [--seq N] [--batch N] [--batches N]\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1], format = "megatron";
    std::uint64_t mib = 1024;
    int seq = 2048, batch = 8, batches = 200;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--format") format = v;
        else if (k == "--mib") mib = std::stoull(v);
        else if (k == "--seq") seq = std::stoi(v);
        else if (k == "--batch") batch = std::stoi(v);
        else if (k == "--batches") batches = std::stoi(v);
    }
    const std::uint32_t vocab = 128256; // Llama 3's
    const std::uint64_t tokens = mib * 1024 * 1024 / 4;
    const std::string path = writeFile(dir, format, tokens, vocab);
    dropCache(path);

    sb::TrainingConfig t;
    t.data = {sb::DataConfig::Tokens, path, sb::DataConfig::TokenDtype::Auto};
    t.seqLen = seq;
    const auto opened = Clock::now();
    sb::Result<std::unique_ptr<sb::engine::DataSource>> source = sb::engine::DataSource::open(t, vocab);
    const double openSeconds = secondsSince(opened);
    if (!source) {
        std::fprintf(stderr, "%s\n", source.status().message().c_str());
        return 1;
    }
    std::printf("%s file of %llu MiB (%llu tokens): opened in %.3f ms\n", format.c_str(), static_cast<unsigned long long>(mib),
                static_cast<unsigned long long>(tokens), openSeconds * 1e3);
    torch::Tensor inputs, targets;
    for (const char* pass : {"cold", "warm"}) {
        const auto start = Clock::now();
        for (int b = 0; b < batches; ++b)
            source.value()->read(static_cast<std::uint64_t>(b) * static_cast<std::uint64_t>(batch), batch, seq, inputs, targets);
        const double s = secondsSince(start);
        const double windows = static_cast<double>(batches) * batch;
        std::printf("%s: %d batches of %d x %d tokens in %.3f s: %.0f windows/s, %.2f M tokens/s\n", pass, batches, batch, seq + 1,
                    s, windows / s, windows * seq / s / 1e6);
    }
    std::remove(path.c_str());
    if (format == "megatron") std::remove((dir + "/bench-megatron.idx").c_str());
    return 0;
}
