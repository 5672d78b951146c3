// What a file is (there or not, a regular file or not, its size), found off
// the GUI thread: a path on a stalled network mount makes stat() wait for
// minutes, and the panels ask on every plan edit. One question at a time on
// a thread of its own, the newest one waiting behind it (older ones dropped);
// once the one in flight has been unanswered for kPatienceMs, a waiting
// question about another path goes ahead on a new thread (the stalled one is
// left to finish on its own, at most kMaxAbandoned of them), so a stall costs
// a few threads and never the event loop. Answers arrive as `probed` on the GUI thread,
// stale ones not at all.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace sb::gui {

struct FileFacts {
    QString path;
    bool exists = false;
    bool regular = false;
    qint64 size = 0;
    // As a token file (core/data/token_file.hpp), read on the same thread:
    // "llm.c" or "megatron" with its tokens and their width, "headerless"
    // (the plan's dtype decides the width), or why it cannot be read.
    QString tokenFormat;
    qint64 tokens = 0;
    int tokenWidth = 0;
    QString tokenError;
};

class FileProbe : public QObject {
    Q_OBJECT
public:
    using Stat = std::function<FileFacts(const QString& path)>;

    explicit FileProbe(QObject* parent = nullptr);
    ~FileProbe() override;

    // Asks about `path`; `probed` follows once it is known, unless another
    // path is asked about first.
    void probe(const QString& path);
    // The last answer for `path`, if there is one.
    std::optional<FileFacts> known(const QString& path) const;
    // Replaces stat() (tests stand in a stalled file system).
    void setStat(Stat stat) { stat_ = std::move(stat); }

    static FileFacts statFile(const QString& path);

    static constexpr int kPatienceMs = 2000;
    static constexpr int kMaxAbandoned = 4;

Q_SIGNALS:
    void probed(const sb::gui::FileFacts& facts);

private:
    struct Link; // what the worker thread shares with this object
    void start(const QString& path);
    void answered(const FileFacts& facts, int question);
    void giveUpWaiting();

    std::shared_ptr<Link> link_;
    Stat stat_ = &FileProbe::statFile;
    int asked_ = 0;   // questions started
    int current_ = 0; // the one in flight, 0 when none
    QString inFlight_;
    QElapsedTimer since_;
    QTimer patience_;
    int abandoned_ = 0; // questions left to stall, not yet answered
    std::optional<QString> next_;
    QString wanted_;
    std::optional<FileFacts> last_;
};

} // namespace sb::gui
