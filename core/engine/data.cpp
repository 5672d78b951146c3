#include "data.hpp"

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

// Random windows of a token file, as nanoGPT's get_batch, but seeded per sample.
class FileData final : public DataSource {
public:
    FileData(int fd, std::string path, std::uint64_t tokens, int width, std::uint64_t seed, std::int64_t vocab)
        : fd_(fd), path_(std::move(path)), tokens_(tokens), width_(width), seed_(seed), vocab_(vocab) {}
    ~FileData() override { ::close(fd_); }

    void read(std::uint64_t first, int batch, int seq, torch::Tensor& inputs, torch::Tensor& targets) override
    {
        if (tokens_ < static_cast<std::uint64_t>(seq) + 2)
            throw std::runtime_error(path_ + " holds " + std::to_string(tokens_) + " tokens, fewer than one sequence of " +
                                     std::to_string(seq + 1));
        auto all = torch::empty({batch, seq + 1}, torch::kLong);
        auto* p = all.data_ptr<std::int64_t>();
        std::vector<unsigned char> buf(static_cast<std::size_t>(seq + 1) * static_cast<std::size_t>(width_));
        for (int b = 0; b < batch; ++b) {
            const std::uint64_t start = splitmix64(seed_ ^ (first + static_cast<std::uint64_t>(b))) % (tokens_ - static_cast<std::uint64_t>(seq) - 1);
            if (const Status read = ckpt::preadFully(fd_, path_, start * static_cast<std::uint64_t>(width_), buf.data(), buf.size()); !read)
                throw std::runtime_error(read.message());
            for (int t = 0; t <= seq; ++t) {
                std::int64_t id = width_ == 2 ? (buf[2 * t] | (buf[2 * t + 1] << 8)) : buf[static_cast<std::size_t>(t)];
                if (id >= vocab_)
                    throw std::runtime_error(path_ + ": token id " + std::to_string(id) + " at token " + std::to_string(start + static_cast<std::uint64_t>(t)) +
                                             " is not below the model's vocab_size " + std::to_string(vocab_));
                p[b * (seq + 1) + t] = id;
            }
        }
        inputs = all.narrow(1, 0, seq).contiguous();
        targets = all.narrow(1, 1, seq).contiguous();
    }

private:
    int fd_;
    std::string path_;
    std::uint64_t tokens_;
    int width_;
    std::uint64_t seed_;
    std::int64_t vocab_;
};

} // namespace

Result<std::unique_ptr<DataSource>> DataSource::open(const TrainingConfig& t, std::int64_t vocab)
{
    using Source = std::unique_ptr<DataSource>;
    if (t.data.kind == DataConfig::Synthetic) return Source(std::make_unique<SyntheticData>(t.seed, vocab));
    const int width = t.data.kind == DataConfig::Tokens ? 2 : 1;
    if (width == 1 && vocab < 256)
        return Status::error("text data is read as bytes and needs vocab_size >= 256, the model has " + std::to_string(vocab));
    const int fd = ::open(t.data.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::error("cannot open data file " + t.data.path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Status::error("data path " + t.data.path + " is not a regular file");
    }
    const std::uint64_t tokens = static_cast<std::uint64_t>(st.st_size) / static_cast<std::uint64_t>(width);
    if (tokens < static_cast<std::uint64_t>(t.seqLen) + 2) {
        ::close(fd);
        return Status::error("data file " + t.data.path + " holds " + std::to_string(tokens) +
                             " tokens, fewer than one sequence of " + std::to_string(t.seqLen + 1));
    }
    return Source(std::make_unique<FileData>(fd, t.data.path, tokens, width, t.seed, vocab));
}

} // namespace sb::engine
