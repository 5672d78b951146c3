#include "checkpoints/checkpoint_catalog.hpp"

#include "checkpoint/checkpoint_io.hpp"
#include "launch/prepared_launch.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace sb::app {

namespace {

const QLatin1String kDcp("dcp");

// A DCP checkpoint as its files say: committed once .metadata is there (DCP
// writes it last); its size is every file's in the folder.
void refreshDcp(CheckpointEntry& e)
{
    if (!launch::isDcpCheckpoint(e.path)) {
        if (e.status != CheckpointEntry::Failed) {
            e.status = CheckpointEntry::Corrupt;
            e.message = QStringLiteral("%1: no .metadata, the DCP save did not finish").arg(e.path);
        }
        return;
    }
    qint64 bytes = 0;
    for (QDirIterator it(e.path, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();) bytes += it.nextFileInfo().size();
    e.bytes = bytes;
    if (e.time <= 0) e.time = QFileInfo(e.path + QStringLiteral("/.metadata")).lastModified().toMSecsSinceEpoch() / 1000.0;
}

// The committed DCP step folders in `folder` that no entry names yet.
void addDcpFolders(const QString& folder, QList<CheckpointEntry>& out)
{
    for (const QFileInfo& f : QDir(folder).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString p = QDir::cleanPath(f.absoluteFilePath());
        const int step = launch::checkpointFolderStep(p);
        if (step < 0 || !launch::isDcpCheckpoint(p)) continue;
        if (std::any_of(out.begin(), out.end(), [&](const CheckpointEntry& o) { return QDir::cleanPath(o.path) == p; })) continue;
        CheckpointEntry e;
        e.step = step;
        e.path = p;
        e.kind = kDcp;
        refreshDcp(e);
        out << e;
    }
}

} // namespace

void refreshFromDisk(CheckpointEntry& e, const QString& runUid)
{
    const QFileInfo info(e.path);
    if (!info.exists()) {
        if (e.status != CheckpointEntry::Failed) e.status = CheckpointEntry::Missing;
        return;
    }
    if (e.kind != QLatin1String("full") && launch::isDcpCheckpoint(e.path)) e.kind = kDcp; // a script's report may not say so
    if (e.kind == kDcp) {
        refreshDcp(e);
        return;
    }
    if (e.kind == QLatin1String("full")) {
        e.bytes = info.size();
        if (e.time <= 0) e.time = info.lastModified().toMSecsSinceEpoch() / 1000.0;
        return;
    }
    const Result<ckpt::CheckpointIndex> read = ckpt::readIndex(e.path.toStdString());
    if (!read) {
        if (e.status != CheckpointEntry::Failed) {
            e.status = CheckpointEntry::Corrupt;
            e.message = QString::fromStdString(read.error());
        }
        return;
    }
    const ckpt::CheckpointIndex& index = read.value();
    e.runUid = QString::fromStdString(index.runId);
    e.readOnly = !index.readOnlyReason().empty();
    if (e.readOnly) e.message = QString::fromStdString(index.readOnlyReason());
    if (!runUid.isEmpty() && e.runUid != runUid) {
        e.status = CheckpointEntry::Corrupt;
        e.message = QStringLiteral("%1: holds a checkpoint of run %2, not of this run").arg(e.path, e.runUid);
        return;
    }
    e.step = static_cast<int>(index.step);
    e.worldSize = index.worldSize;
    if (index.created > 0) e.time = index.created;
    qint64 bytes = 0;
    for (const ckpt::FileInfo& f : index.files) bytes += static_cast<qint64>(f.bytes);
    e.bytes = bytes;
}

QList<CheckpointEntry> listRunCheckpoints(store::RunReader& reader, const store::RunRow& run)
{
    QList<CheckpointEntry> out;
    for (const store::CheckpointRecord& c : reader.checkpoints(run.id)) {
        if (c.rank > 0) continue; // rank 0 speaks for the checkpoint
        CheckpointEntry e;
        e.step = c.step;
        e.path = QFileInfo(c.path).isRelative() ? QDir::current().absoluteFilePath(c.path) : c.path;
        e.kind = c.kind.isEmpty() ? QStringLiteral("sharded") : c.kind;
        e.time = c.t;
        e.bytes = c.bytes;
        e.worldSize = c.worldSize;
        e.status = c.status == QLatin1String("complete") ? CheckpointEntry::Complete : CheckpointEntry::Failed;
        e.message = c.message;
        e.reported = true;
        // A repeated report of the same folder (a restarted attempt) replaces the older one.
        auto same = std::find_if(out.begin(), out.end(), [&](const CheckpointEntry& o) { return o.path == e.path; });
        if (same != out.end()) *same = e;
        else out << e;
    }
    // Folders on disk that no report names: the run's own folder, and format-1
    // step folders at the top of the root that name this run in their index.
    QString root = run.planJson.isEmpty() ? QString()
                                          : QString::fromStdString(planFromString(run.planJson.toStdString()).plan.training.checkpoint.dir);
    if (!root.isEmpty() && !run.uid.isEmpty()) {
        if (QFileInfo(root).isRelative()) root = QDir::current().absoluteFilePath(root);
        const QString own = root + QLatin1Char('/') + run.uid;
        for (const QString& folder : {own, root}) {
            for (const auto& [step, path] : ckpt::listCheckpoints(folder.toStdString())) {
                const QString p = QDir::cleanPath(QString::fromStdString(path));
                const bool known = std::any_of(out.begin(), out.end(), [&](const CheckpointEntry& o) { return QDir::cleanPath(o.path) == p; });
                if (known) continue;
                CheckpointEntry e;
                e.step = static_cast<int>(step);
                e.path = p;
                e.kind = QStringLiteral("sharded");
                refreshFromDisk(e, folder == own ? run.uid : QString());
                if (folder == own || e.runUid == run.uid) out << e; // another run's (or unreadable) top-level folder: not this run's
            }
        }
        addDcpFolders(own, out); // a PyTorch run's, in the same folder of its own
    }
    for (CheckpointEntry& e : out)
        if (e.reported) refreshFromDisk(e, run.uid);
    std::sort(out.begin(), out.end(), [](const CheckpointEntry& a, const CheckpointEntry& b) {
        return a.step != b.step ? a.step < b.step : a.kind < b.kind;
    });
    return out;
}

} // namespace sb::app
