#include "data.hpp"

#include "data/token_file.hpp"
#include "torch_dtype.hpp"

#include "checkpoint/fs_util.hpp"

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
    SyntheticData(std::uint64_t seed, std::int64_t vocab) : seed_(seed), vocab_(vocab) {}
    void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) override
    {
        auto all = torch::empty({batch, seq + 1}, torch::kLong);
        auto* p = all.data_ptr<std::int64_t>();
        const std::uint64_t strides = static_cast<std::uint64_t>(std::min<std::int64_t>(7, std::max<std::int64_t>(1, vocab_ - 1)));
        for (int b = 0; b < batch; ++b) {
            const std::uint64_t h = splitmix64(seed_ * 0x100000001B3ull + first + static_cast<std::uint64_t>(b));
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
};

// Random windows of a token file, as nanoGPT's get_batch, but seeded per
// sample. Text is a file of byte tokens.
class FileData final : public DataSource {
public:
    FileData(int fd, TokenFile file, std::uint64_t seed, std::int64_t vocab)
        : fd_(fd), file_(std::move(file)), seed_(seed), vocab_(vocab) {}
    ~FileData() override { ::close(fd_); }

    void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) override
    {
        const std::uint64_t tokens = file_.tokens;
        if (tokens < static_cast<std::uint64_t>(seq) + 2)
            throw std::runtime_error(file_.path + " holds " + std::to_string(tokens) + " tokens, fewer than one sequence of " +
                                     std::to_string(seq + 1));
        auto all = torch::empty({batch, seq + 1}, torch::kLong);
        auto* p = all.data_ptr<std::int64_t>();
        const std::size_t width = static_cast<std::size_t>(file_.width);
        std::vector<unsigned char> buf(static_cast<std::size_t>(seq + 1) * width);
        for (int b = 0; b < batch; ++b) {
            const std::uint64_t start = splitmix64(seed_ ^ (first + static_cast<std::uint64_t>(b))) % (tokens - static_cast<std::uint64_t>(seq) - 1);
            if (const Status read = ckpt::preadFully(fd_, file_.path, file_.offset + start * width, buf.data(), buf.size()); !read)
                throw std::runtime_error(read.message());
            for (int t = 0; t <= seq; ++t) {
                const std::int64_t id = data::tokenAt(buf.data() + static_cast<std::size_t>(t) * width, file_.width, file_.isSigned);
                if (id < 0 || id >= vocab_)
                    throw std::runtime_error(file_.path + ": token id " + std::to_string(id) + " at token " +
                                             std::to_string(start + static_cast<std::uint64_t>(t)) + " (byte " +
                                             std::to_string(file_.offset + (start + static_cast<std::uint64_t>(t)) * width) +
                                             ") is not below the model's vocab_size " + std::to_string(vocab_));
                p[b * (seq + 1) + t] = id;
            }
        }
        inputs = all.narrow(1, 0, seq).contiguous();
        targets = all.narrow(1, 1, seq).contiguous();
    }

private:
    int fd_;
    TokenFile file_;
    std::uint64_t seed_;
    std::int64_t vocab_;
};

} // namespace

Result<std::unique_ptr<DataSource>> DataSource::open(const TrainingConfig& t, std::int64_t vocab)
{
    using Source = std::unique_ptr<DataSource>;
    if (t.data.kind == DataConfig::Synthetic) return Source(std::make_unique<SyntheticData>(t.seed, vocab));
    const bool text = t.data.kind == DataConfig::Text;
    if (text && vocab < 256)
        return Status::error("text data is read as bytes and needs vocab_size >= 256, the model has " + std::to_string(vocab));
    // A text file is bytes; token files are recognised from their headers.
    TokenFile file{t.data.path, "text", 0, 0, 1, false};
    if (!text) {
        Result<TokenFile> opened = data::openTokenFile(t.data.path, t.data.dtype, vocab);
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
    if (text) file.tokens = static_cast<std::uint64_t>(st.st_size);
    if (file.tokens < static_cast<std::uint64_t>(t.seqLen) + 2) {
        ::close(fd);
        return Status::error("data file " + file.path + " holds " + std::to_string(file.tokens) +
                             " tokens, fewer than one sequence of " + std::to_string(t.seqLen + 1));
    }
    return Source(std::make_unique<FileData>(fd, std::move(file), t.seed, vocab));
}

} // namespace sb::engine
