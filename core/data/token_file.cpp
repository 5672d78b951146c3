#include "token_file.hpp"

#include "checkpoint/fs_util.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb::data {

namespace {

constexpr std::int32_t kLlmcMagic = 20240520;
constexpr std::uint64_t kLlmcHeaderBytes = 256 * 4;
constexpr char kMegatronMagic[9] = {'M', 'M', 'I', 'D', 'I', 'D', 'X', '\0', '\0'};
constexpr std::uint64_t kMegatronHeaderBytes = 9 + 8 + 1 + 8 + 8;

bool endsWith(const std::string& s, const char* tail)
{
    const std::size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// A regular file's size; special files (a directory, a FIFO that would block
// a read forever) are refused before they are opened for reading.
Result<std::uint64_t> regularFileSize(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Status::error("cannot open data file " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) return Status::error("data path " + path + " is not a regular file");
    return static_cast<std::uint64_t>(st.st_size);
}

template <typename T>
T little(const unsigned char* p)
{
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<T>(p[i]) << (8 * i));
    return v;
}

Result<std::vector<unsigned char>> readAt(const std::string& path, std::uint64_t offset, std::size_t bytes)
{
    std::vector<unsigned char> out(bytes);
    if (Status s = ckpt::readFileRange(path, offset, out.data(), bytes); !s) return s;
    return out;
}

// PREFIX.idx and PREFIX.bin as Megatron-LM's MMapIndexedDataset writes them.
Result<TokenFile> openMegatron(const std::string& idx, const std::string& bin)
{
    Result<std::uint64_t> idxSize = regularFileSize(idx);
    if (!idxSize) return idxSize.status();
    Result<std::uint64_t> binSize = regularFileSize(bin);
    if (!binSize) return binSize.status();
    if (idxSize.value() < kMegatronHeaderBytes)
        return Status::error(idx + ": " + std::to_string(idxSize.value()) + " bytes, shorter than a Megatron index header");
    Result<std::vector<unsigned char>> head = readAt(idx, 0, kMegatronHeaderBytes);
    if (!head) return head.status();
    const unsigned char* h = head.value().data();
    if (std::memcmp(h, kMegatronMagic, sizeof kMegatronMagic) != 0)
        return Status::error(idx + ": not a Megatron index (its first bytes are not \"MMIDIDX\")");
    if (const std::uint64_t version = little<std::uint64_t>(h + 9); version != 1)
        return Status::error(idx + ": index version " + std::to_string(version) + " (this build reads version 1)");
    TokenFile f;
    f.path = bin;
    f.format = "megatron";
    switch (h[17]) { // Megatron's dtype codes
    case 1: f.width = 1; break;                       // uint8
    case 8: f.width = 2; break;                       // uint16
    case 4: f.width = 4; f.isSigned = true; break;    // int32
    default:
        return Status::error(idx + ": token dtype code " + std::to_string(h[17]) +
                             " (the training core reads uint8 (1), uint16 (8) and int32 (4) tokens)");
    }
    const std::uint64_t sequences = little<std::uint64_t>(h + 18), documents = little<std::uint64_t>(h + 26);
    // lengths int32[n], pointers int64[n], document indices int64[d]: the
    // file's size says whether the counts are honest (no overflow: each is
    // bounded by the size first).
    const std::uint64_t rest = idxSize.value() - kMegatronHeaderBytes;
    if (sequences > rest / 12 || documents > rest / 8 || sequences * 12 + documents * 8 != rest)
        return Status::error(idx + ": " + std::to_string(sequences) + " sequences and " + std::to_string(documents) +
                             " documents do not match the index's size of " + std::to_string(idxSize.value()) + " bytes");
    if (sequences == 0) return Status::error(idx + ": holds no sequences");
    if (documents < 2) return Status::error(idx + ": its document index has " + std::to_string(documents) + " entries (at least 0 and the end)");
    const std::uint64_t lengths = kMegatronHeaderBytes, pointers = lengths + 4 * sequences, docs = pointers + 8 * sequences;
    Result<std::vector<unsigned char>> firstPointer = readAt(idx, pointers, 8);
    Result<std::vector<unsigned char>> lastLength = readAt(idx, pointers - 4, 4);
    Result<std::vector<unsigned char>> lastPointer = readAt(idx, docs - 8, 8);
    Result<std::vector<unsigned char>> docEnds = readAt(idx, docs, 8);
    Result<std::vector<unsigned char>> docLast = readAt(idx, idxSize.value() - 8, 8);
    for (const auto* r : {&firstPointer, &lastLength, &lastPointer, &docEnds, &docLast})
        if (!*r) return r->status();
    const std::int64_t p0 = little<std::int64_t>(firstPointer.value().data());
    const std::int64_t pn = little<std::int64_t>(lastPointer.value().data());
    const std::int32_t ln = little<std::int32_t>(lastLength.value().data());
    const std::int64_t d0 = little<std::int64_t>(docEnds.value().data()), dn = little<std::int64_t>(docLast.value().data());
    if (p0 != 0) return Status::error(idx + ": the first sequence starts at byte " + std::to_string(p0) + " of " + bin + ", not 0");
    if (pn < 0 || ln < 0 || static_cast<std::uint64_t>(pn) > binSize.value() ||
        static_cast<std::uint64_t>(ln) * static_cast<std::uint64_t>(f.width) != binSize.value() - static_cast<std::uint64_t>(pn))
        return Status::error(idx + ": its last sequence (byte " + std::to_string(pn) + ", " + std::to_string(ln) +
                             " tokens) does not end where " + bin + " ends (" + std::to_string(binSize.value()) + " bytes)");
    if (d0 != 0 || dn != static_cast<std::int64_t>(sequences))
        return Status::error(idx + ": its document index runs from " + std::to_string(d0) + " to " + std::to_string(dn) +
                             ", not from 0 to the " + std::to_string(sequences) + " sequences");
    f.tokens = binSize.value() / static_cast<std::uint64_t>(f.width);
    return f;
}

Result<TokenFile> openLlmc(const std::string& path, std::uint64_t size, const unsigned char* header)
{
    const std::int32_t version = little<std::int32_t>(header + 4);
    const std::int64_t count = little<std::int32_t>(header + 8) >= 0 ? little<std::int32_t>(header + 8) : -1;
    TokenFile f;
    f.path = path;
    f.format = "llm.c";
    f.offset = kLlmcHeaderBytes;
    if (version == 1) f.width = 2;
    else if (version == 2) f.width = 4;
    else return Status::error(path + ": llm.c token file of version " + std::to_string(version) + " (this build reads 1, uint16, and 2, uint32)");
    if (count < 0 || static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(f.width) != size - kLlmcHeaderBytes)
        return Status::error(path + ": its llm.c header counts " + std::to_string(count) + " tokens of " + std::to_string(f.width) +
                             " bytes, but " + std::to_string(size - kLlmcHeaderBytes) + " bytes follow the header");
    f.tokens = static_cast<std::uint64_t>(count);
    return f;
}

// A headered file says its dtype; a plan that says another is refused rather than overruled.
Result<TokenFile> withPlanDtype(Result<TokenFile> opened, DataConfig::TokenDtype dtype, const std::string& path)
{
    const int want = dtype == DataConfig::TokenDtype::U16 ? 2 : dtype == DataConfig::TokenDtype::U32 ? 4 : 0;
    if (opened && want != 0 && want != opened.value().width)
        return Status::error(path + ": a " + opened.value().format + " file of " + std::to_string(8 * opened.value().width) +
                             "-bit tokens, but the plan's training.data.dtype is " + (want == 2 ? "uint16" : "uint32"));
    return opened;
}

} // namespace

Result<TokenFile> openTokenFile(const std::string& path, DataConfig::TokenDtype dtype, std::int64_t vocab)
{
    // Megatron: PREFIX.idx, PREFIX.bin with its .idx beside it, or PREFIX.
    std::string prefix;
    if (endsWith(path, ".idx")) prefix = path.substr(0, path.size() - 4);
    else if (endsWith(path, ".bin") && ::access((path.substr(0, path.size() - 4) + ".idx").c_str(), F_OK) == 0)
        prefix = path.substr(0, path.size() - 4);
    else if (::access(path.c_str(), F_OK) != 0 && ::access((path + ".idx").c_str(), F_OK) == 0)
        prefix = path;
    if (!prefix.empty()) return withPlanDtype(openMegatron(prefix + ".idx", prefix + ".bin"), dtype, path);
    Result<std::uint64_t> size = regularFileSize(path);
    if (!size) return size.status();
    if (size.value() >= kLlmcHeaderBytes) {
        Result<std::vector<unsigned char>> head = readAt(path, 0, 12);
        if (!head) return head.status();
        if (little<std::int32_t>(head.value().data()) == kLlmcMagic)
            return withPlanDtype(openLlmc(path, size.value(), head.value().data()), dtype, path);
    }
    TokenFile f;
    f.path = path;
    f.format = "headerless";
    f.width = headerlessWidth(dtype, vocab);
    if (size.value() % static_cast<std::uint64_t>(f.width) != 0)
        return Status::error(path + ": " + std::to_string(size.value()) + " bytes is not a whole number of " +
                             (f.width == 4 ? "uint32" : "uint16") + " tokens");
    f.tokens = size.value() / static_cast<std::uint64_t>(f.width);
    return f;
}

Result<std::vector<std::string>> dataFiles(const std::string& path)
{
    if (path.find_first_of("*?[") == std::string::npos) return std::vector<std::string>{path};
    glob_t found{};
    const int rc = ::glob(path.c_str(), GLOB_NOSORT, nullptr, &found);
    std::vector<std::string> files(found.gl_pathv, found.gl_pathv + found.gl_pathc);
    ::globfree(&found);
    if (rc == GLOB_NOMATCH || (rc == 0 && files.empty())) return Status::error("no file matches the data pattern " + path);
    if (rc != 0) return Status::error("cannot list the files of the data pattern " + path + (rc == GLOB_NOSPACE ? ": out of memory" : ": a folder cannot be read"));
    std::sort(files.begin(), files.end()); // byte order, whatever the locale
    std::vector<std::string> out;
    for (const std::string& f : files) {
        if (endsWith(f, ".idx") && std::binary_search(files.begin(), files.end(), f.substr(0, f.size() - 4) + ".bin")) continue;
        out.push_back(f);
    }
    return out;
}

} // namespace sb::data
