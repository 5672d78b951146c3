// The token files people train on, recognised from the file itself:
//   - llm.c's .bin: a 256 x int32 header (magic 20240520, version 1 for
//     uint16 tokens or 2 for uint32, token count), then the tokens;
//   - Megatron-LM / NeMo indexed datasets: PREFIX.bin beside PREFIX.idx
//     ("MMIDIDX\0\0", version 1, dtype code, sequence and document counts,
//     lengths, byte pointers, document indices); the documents, stored one
//     after another, are read as one stream, as Megatron's GPT samples are;
//   - nanoGPT's headerless .bin: uint16 or uint32 tokens, as the plan says
//     (by default uint16 when the vocabulary fits, else uint32).
// Only the headers are read when the file is opened (a 100 GB data set
// opens at once); tokens are read per sample. Torch-free.
#pragma once

#include "plan/plan.hpp"
#include "util/status.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sb::data {

struct TokenFile {
    std::string path;         // the file that holds the tokens (the .bin of a Megatron pair)
    std::string format;       // "llm.c", "megatron", "headerless"
    std::uint64_t offset = 0; // byte offset of token 0
    std::uint64_t tokens = 0;
    int width = 2;            // bytes a token: 1 (Megatron uint8), 2 or 4
    bool isSigned = false;    // Megatron's int32 tokens
};

// Recognises and checks `path` (a .bin, a Megatron .idx or prefix). Errors
// name the file and what is wrong with it: a bad magic or version, a size
// that does not match its header, an index that points past the end of its
// .bin, a directory or other special file.
Result<TokenFile> openTokenFile(const std::string& path, DataConfig::TokenDtype dtype, std::int64_t vocab);

// The files a data path names: the path itself, or, when it holds a glob
// pattern (`*`, `?` or `[`, as llm.c's loaders take "fineweb_train_*.bin"),
// every path that matches, in byte order of their names, a Megatron pair once
// (a matched .idx is dropped when its .bin matched too). They are read as one
// stream in that order. A pattern that matches nothing is an error naming it.
Result<std::vector<std::string>> dataFiles(const std::string& path);

// Bytes a token of a headerless file: the plan's dtype, or by default 2
// (uint16) when the vocabulary fits and 4 (uint32) when it does not.
inline int headerlessWidth(DataConfig::TokenDtype dtype, std::int64_t vocab)
{
    return dtype == DataConfig::TokenDtype::U32 || (dtype == DataConfig::TokenDtype::Auto && vocab > 65536) ? 4 : 2;
}

// Token `i` of a run of `n` bytes-per-token little-endian values.
inline std::int64_t tokenAt(const unsigned char* p, int width, bool isSigned)
{
    switch (width) {
    case 1: return p[0];
    case 2: return p[0] | (p[1] << 8);
    default: {
        const std::uint32_t u = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                                (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
        return isSigned ? static_cast<std::int64_t>(static_cast<std::int32_t>(u)) : static_cast<std::int64_t>(u);
    }
    }
}

} // namespace sb::data
