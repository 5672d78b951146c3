#include "file_probe.hpp"

#include <QFileInfo>

#include "data/token_file.hpp"
#include <QMetaObject>

#include <algorithm>
#include <mutex>
#include <system_error>
#include <thread>

namespace sb::gui {

// The worker posts its answer to `probe` under the mutex; the destructor
// clears `probe` under the same mutex, so an answer to a deleted probe is
// dropped (and one already posted dies with the object's posted events).
struct FileProbe::Link {
    std::mutex mutex;
    FileProbe* probe = nullptr;
};

FileProbe::FileProbe(QObject* parent) : QObject(parent), link_(std::make_shared<Link>())
{
    link_->probe = this;
    patience_.setSingleShot(true);
    connect(&patience_, &QTimer::timeout, this, &FileProbe::giveUpWaiting);
}

FileProbe::~FileProbe()
{
    const std::lock_guard<std::mutex> lock(link_->mutex);
    link_->probe = nullptr;
}

FileFacts FileProbe::statFile(const QString& path)
{
    const QFileInfo info(path);
    FileFacts facts;
    facts.path = path;
    facts.exists = info.exists();
    facts.regular = facts.exists && info.isFile();
    facts.size = facts.exists ? info.size() : 0;
    // The header alone: its format, or what is wrong with it. A Megatron
    // prefix names no file of its own.
    const bool megatronPrefix = !facts.exists && QFileInfo::exists(path + QStringLiteral(".idx"));
    if (facts.regular || megatronPrefix) {
        const Result<data::TokenFile> f = data::openTokenFile(path.toStdString(), DataConfig::TokenDtype::Auto, 0);
        if (f) {
            facts.tokenFormat = QString::fromStdString(f.value().format);
            facts.tokens = static_cast<qint64>(f.value().tokens);
            facts.tokenWidth = f.value().width;
            facts.exists = facts.regular = true;
        } else {
            facts.tokenError = QString::fromStdString(f.status().message());
        }
    }
    return facts;
}

void FileProbe::probe(const QString& path)
{
    wanted_ = path;
    if (current_ == 0) {
        start(path);
        return;
    }
    next_ = path;
    if (path != inFlight_ && !patience_.isActive())
        patience_.start(static_cast<int>(std::max<qint64>(0, kPatienceMs - since_.elapsed())));
}

void FileProbe::giveUpWaiting()
{
    if (current_ == 0 || !next_ || *next_ == inFlight_ || abandoned_ >= kMaxAbandoned) return;
    ++abandoned_; // the one in flight stalls: its answer, if any, is dropped
    const QString path = *next_;
    next_.reset();
    start(path);
}

std::optional<FileFacts> FileProbe::known(const QString& path) const
{
    if (last_ && last_->path == path) return last_;
    return std::nullopt;
}

void FileProbe::start(const QString& path)
{
    const int question = ++asked_;
    current_ = question;
    inFlight_ = path;
    since_.start();
    patience_.stop();
    // A detached thread of its own, not app::workPool(): a stat() stuck in
    // the kernel would hold one of that pool's four threads (history,
    // comparisons, checkpoints) for as long as the mount stalls.
    try {
        std::thread([link = link_, stat = stat_, path, question] {
            const FileFacts facts = stat(path);
            const std::lock_guard<std::mutex> lock(link->mutex);
            if (FileProbe* probe = link->probe)
                QMetaObject::invokeMethod(probe, [probe, facts, question] { probe->answered(facts, question); }, Qt::QueuedConnection);
        }).detach();
    } catch (const std::system_error&) { // no thread to be had: unanswered, asked again on the next edit
        current_ = 0;
    }
}

void FileProbe::answered(const FileFacts& facts, int question)
{
    if (question != current_) { // a question left to stall
        --abandoned_;
        return;
    }
    current_ = 0;
    if (next_) { // asked again meanwhile: ask afresh (the file may have changed too)
        const QString path = *next_;
        next_.reset();
        start(path);
    }
    if (facts.path != wanted_) return; // asked about another since
    last_ = facts;
    Q_EMIT probed(facts);
}

} // namespace sb::gui
