// What a file is (there or not, a regular file or not, its size), found off
// the GUI thread: a path on a stalled network mount makes stat() wait for
// minutes, and the panels ask on every plan edit. One question at a time on
// its own thread, the newest one waiting behind it (older ones dropped), so
// that a stall costs one thread and never the event loop; answers arrive as
// `probed` on the GUI thread, stale ones not at all.
#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace sb::gui {

struct FileFacts {
    QString path;
    bool exists = false;
    bool regular = false;
    qint64 size = 0;
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

Q_SIGNALS:
    void probed(const sb::gui::FileFacts& facts);

private:
    struct Link; // what the worker thread shares with this object
    void start(const QString& path);
    void answered(const FileFacts& facts);

    std::shared_ptr<Link> link_;
    Stat stat_ = &FileProbe::statFile;
    bool busy_ = false;
    std::optional<QString> next_;
    QString wanted_;
    std::optional<FileFacts> last_;
};

} // namespace sb::gui
