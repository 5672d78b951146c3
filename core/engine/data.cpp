#include "data.hpp"

#include "data/token_file.hpp"
#include "torch_dtype.hpp"

#include "checkpoint/fs_util.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb::engine {

using data::TokenFile;

namespace {

// Arithmetic sequences modulo the vocabulary with a random start and stride:
// learnable from two tokens of context, so the loss visibly falls.
class SyntheticData final : public DataSource {
public:
    // Sample g is the sequence of sample first + g of the seeded stream.
    SyntheticData(std::uint64_t seed, std::int64_t vocab, std::uint64_t first) : seed_(seed), vocab_(vocab), first_(first) {}
    void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) override
    {
        auto all = torch::empty({batch, seq + 1}, torch::kLong);
        auto* p = all.data_ptr<std::int64_t>();
        const std::uint64_t strides = static_cast<std::uint64_t>(std::min<std::int64_t>(7, std::max<std::int64_t>(1, vocab_ - 1)));
        for (int b = 0; b < batch; ++b) {
            const std::uint64_t h = splitmix64(seed_ * 0x100000001B3ull + first_ + first + static_cast<std::uint64_t>(b));
            const std::int64_t start = static_cast<std::int64_t>(h % static_cast<std::uint64_t>(vocab_));
            const std::int64_t stride = 1 + static_cast<std::int64_t>((h >> 32) % strides);
            for (int t = 0; t <= seq; ++t) p[b * (seq + 1) + t] = (start + stride * t) % vocab_;
        }
        inputs = all.narrow(1, 0, seq).contiguous();
        targets = all.narrow(1, 1, seq).contiguous();
    }

private:
    std::uint64_t seed_;
    std::int64_t vocab_;
    std::uint64_t first_;
};

// The files of a data path (one, or those a glob pattern matches) as one
// stream of tokens, in name order; each keeps its own format and width.
struct Part {
    int fd = -1;
    TokenFile file;
    std::uint64_t first = 0; // the stream's index of its token 0
};

// a * b mod m without overflow (GCC's and Clang's 128-bit integers).
std::uint64_t mulMod(std::uint64_t a, std::uint64_t b, std::uint64_t m)
{
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>(static_cast<U128>(a) * b % m);
}

// Windows of seq + 1 tokens within a region [begin, begin + length) of the
// stream (a window may run from one file into the next): random ones as
// nanoGPT's get_batch, but seeded per sample (training), or consecutive ones,
// sample i starting i * seq tokens in and wrapping around (the validation
// loss's fixed set). Text is a file of byte tokens.
class FileData final : public DataSource {
public:
    enum class Windows { Random, Consecutive };
    FileData(std::vector<Part> parts, std::uint64_t begin, std::uint64_t length, Windows windows, std::uint64_t seed, std::int64_t vocab)
        : parts_(std::move(parts)), begin_(begin), length_(length), windows_(windows), seed_(seed), vocab_(vocab) {}
    ~FileData() override
    {
        for (const Part& p : parts_) ::close(p.fd);
    }

    void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) override
    {
        const std::uint64_t window = static_cast<std::uint64_t>(seq) + 1;
        if (length_ < window + 1)
            throw BadDataError(parts_.front().file.path + " holds " + std::to_string(length_) + " tokens here, fewer than one sequence of " +
                                     std::to_string(window));
        auto all = torch::empty({batch, seq + 1}, torch::kLong);
        auto* p = all.data_ptr<std::int64_t>();
        for (int b = 0; b < batch; ++b) {
            const std::uint64_t sample = first + static_cast<std::uint64_t>(b);
            const std::uint64_t start =
                begin_ + (windows_ == Windows::Random ? splitmix64(seed_ ^ sample) % (length_ - window)
                                                      : mulMod(sample, static_cast<std::uint64_t>(seq), length_ - static_cast<std::uint64_t>(seq)));
            readTokens(start, window, p + static_cast<std::ptrdiff_t>(b) * (seq + 1));
        }
        inputs = all.narrow(1, 0, seq).contiguous();
        targets = all.narrow(1, 1, seq).contiguous();
    }

private:
    // Tokens [start, start + n) of the stream into `out`, checked against the vocabulary.
    void readTokens(std::uint64_t start, std::uint64_t n, std::int64_t* out)
    {
        auto it = std::upper_bound(parts_.begin(), parts_.end(), start, [](std::uint64_t s, const Part& part) { return s < part.first; });
        std::size_t i = static_cast<std::size_t>(it - parts_.begin()) - 1;
        for (std::uint64_t done = 0; done < n; ++i) {
            const Part& part = parts_[i];
            const std::uint64_t local = start + done - part.first;
            const std::uint64_t take = std::min(n - done, part.file.tokens - local);
            const std::size_t width = static_cast<std::size_t>(part.file.width);
            buf_.resize(static_cast<std::size_t>(take) * width);
            if (const Status read = ckpt::preadFully(part.fd, part.file.path, part.file.offset + local * width, buf_.data(), buf_.size()); !read)
                throw std::runtime_error(read.message());
            for (std::uint64_t t = 0; t < take; ++t) {
                const std::int64_t id = data::tokenAt(buf_.data() + static_cast<std::size_t>(t) * width, part.file.width, part.file.isSigned);
                if (id < 0 || id >= vocab_)
                    throw BadDataError(part.file.path + ": token id " + std::to_string(id) + " at token " + std::to_string(local + t) +
                                             " (byte " + std::to_string(part.file.offset + (local + t) * width) +
                                             ") is not below the model's vocab_size " + std::to_string(vocab_));
                out[done + t] = id;
            }
            done += take;
        }
    }

    std::vector<Part> parts_;
    std::uint64_t begin_, length_;
    Windows windows_;
    std::uint64_t seed_;
    std::int64_t vocab_;
    std::vector<unsigned char> buf_;
};

// The tokens of the training file held out for the validation loss: its last
// `holdout` fraction, rounded down (in double, as the exported script's int(n * holdout)).
std::uint64_t heldOutTokens(std::uint64_t tokens, double holdout)
{
    return holdout > 0 ? static_cast<std::uint64_t>(static_cast<double>(tokens) * holdout) : 0;
}

// A data file opened for reading: text as bytes, token files from their headers.
Result<Part> openDataFile(DataConfig::Kind kind, const std::string& path, DataConfig::TokenDtype dtype, std::int64_t vocab)
{
    TokenFile file{path, "text", 0, 0, 1, false};
    if (kind != DataConfig::Text) {
        Result<TokenFile> opened = data::openTokenFile(path, dtype, vocab);
        if (!opened) return opened.status();
        file = std::move(opened).value();
    }
    // O_NONBLOCK: a FIFO (or a path swapped for one) fails the check below instead of blocking the open.
    const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return Status::error("cannot open data file " + file.path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Status::error("data path " + file.path + " is not a regular file");
    }
    if (kind == DataConfig::Text) file.tokens = static_cast<std::uint64_t>(st.st_size);
    return Part{fd, std::move(file), 0};
}

std::uint64_t tokensOf(const std::vector<Part>& parts) { return parts.empty() ? 0 : parts.back().first + parts.back().file.tokens; }

void closeAll(const std::vector<Part>& parts)
{
    for (const Part& p : parts) ::close(p.fd);
}

// Every file of a data path (dataFiles()), as one stream.
Result<std::vector<Part>> openDataFiles(DataConfig::Kind kind, const std::string& path, DataConfig::TokenDtype dtype, std::int64_t vocab)
{
    if (kind == DataConfig::Text && vocab < 256)
        return Status::error("text data is read as bytes and needs vocab_size >= 256, the model has " + std::to_string(vocab));
    Result<std::vector<std::string>> files = data::dataFiles(path);
    if (!files) return files.status();
    std::vector<Part> parts;
    std::uint64_t first = 0;
    for (const std::string& f : files.value()) {
        Result<Part> part = openDataFile(kind, f, dtype, vocab);
        if (!part) {
            closeAll(parts);
            return part.status();
        }
        parts.push_back(std::move(part).value());
        parts.back().first = first;
        first += parts.back().file.tokens;
    }
    return parts;
}

// A region of `tokens` tokens of `file` must hold one sequence and its target.
Status checkRegion(const std::string& path, std::uint64_t tokens, int seqLen, const char* what)
{
    if (tokens >= static_cast<std::uint64_t>(seqLen) + 2) return {};
    return Status::error(std::string(what) + "data file " + path + " holds " + std::to_string(tokens) +
                         " tokens, fewer than one sequence of " + std::to_string(seqLen + 1));
}

} // namespace

namespace {

// The files of `path` as a source of windows over [begin, begin + length) of
// their stream, `region` giving those from the stream's token count; refused
// when the region holds less than one sequence (`what` names it).
template <class Region>
Result<std::unique_ptr<DataSource>> fileSource(const TrainingConfig& t, const std::string& path, DataConfig::TokenDtype dtype, std::int64_t vocab,
                                               FileData::Windows windows, const char* what, Region region)
{
    Result<std::vector<Part>> opened = openDataFiles(t.data.kind, path, dtype, vocab);
    if (!opened) return opened.status();
    std::vector<Part> parts = std::move(opened).value();
    const auto [begin, length] = region(tokensOf(parts));
    if (Status fits = checkRegion(path, length, t.seqLen, what); !fits) {
        closeAll(parts);
        return fits;
    }
    return std::unique_ptr<DataSource>(std::make_unique<FileData>(std::move(parts), begin, length, windows, t.seed, vocab));
}

} // namespace

Result<std::unique_ptr<DataSource>> DataSource::open(const TrainingConfig& t, std::int64_t vocab)
{
    if (t.data.kind == DataConfig::Synthetic) return std::unique_ptr<DataSource>(std::make_unique<SyntheticData>(t.seed, vocab, 0));
    const double holdout = t.eval.enabled() && t.eval.path.empty() ? t.eval.holdout : 0;
    return fileSource(t, t.data.path, t.data.dtype, vocab, FileData::Windows::Random, holdout > 0 ? "the training part of " : "",
                      [holdout](std::uint64_t tokens) { return std::pair{std::uint64_t{0}, tokens - heldOutTokens(tokens, holdout)}; });
}

Result<std::unique_ptr<DataSource>> DataSource::openEval(const TrainingConfig& t, std::int64_t vocab)
{
    if (t.data.kind == DataConfig::Synthetic) return std::unique_ptr<DataSource>(std::make_unique<SyntheticData>(t.seed, vocab, kEvalFirstSample));
    if (!t.eval.path.empty()) // a file of its own: all of it
        return fileSource(t, t.eval.path, t.eval.dtype, vocab, FileData::Windows::Consecutive, "validation ",
                          [](std::uint64_t tokens) { return std::pair{std::uint64_t{0}, tokens}; });
    return fileSource(t, t.data.path, t.data.dtype, vocab, FileData::Windows::Consecutive, "the held-out part of ",
                      [holdout = t.eval.holdout](std::uint64_t tokens) {
                          const std::uint64_t held = heldOutTokens(tokens, holdout);
                          return std::pair{tokens - held, held};
                      });
}

} // namespace sb::engine
