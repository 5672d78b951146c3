// Sharded checkpoints on real multi-process runs: exact resume, resume at
// other world sizes (load-time resharding), full safetensors export/import,
// refusal of damaged checkpoints (an edited index, a FIFO or /dev/zero in
// place of a file), no lost checkpoint under kill -9, two runs sharing
// one checkpoint folder without touching each other's checkpoints, and an old
// checkpoint that cannot be pruned reported on the new checkpoint's event, and
// saves that fail on a full disk (a real tmpfs) leaving no step-N.tmp behind.
#include "engine_support.hpp"
#include "../safe_signal.hpp"
#include "../tmpfs_mount.hpp"

#include "checkpoint/checkpoint_io.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// Global batch 12 so that 2, 3 and 4 ranks all see the same samples.
sb::Plan ckptPlan(int world, int steps, const QString& dir, int interval)
{
    sb::Plan p = tinyPlan(world, 12 / world, steps);
    p.training.checkpoint.dir = dir.toStdString();
    p.training.checkpoint.interval = interval;
    p.training.checkpoint.keep = 100;
    return p;
}

// Makes `file` impossible to remove until destroyed. Root ignores permission
// bits, so for root the file is marked immutable (needs CAP_LINUX_IMMUTABLE
// and a file system that has the flag); for anyone else its folder is made
// read-only. why() says why it could not be done.
class Unremovable {
public:
    explicit Unremovable(const QString& file) : file_(file.toStdString()), folder_(QFileInfo(file).path().toStdString())
    {
        if (::geteuid() != 0) {
            if (::chmod(folder_.c_str(), 0500) == 0) pinned_ = true;
            else why_ = QStringLiteral("chmod: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        if (setImmutable(true)) pinned_ = immutable_ = true;
        else why_ = QStringLiteral("running as root, and %1 cannot be made immutable (%2)").arg(file, QString::fromLocal8Bit(std::strerror(errno)));
    }
    ~Unremovable()
    {
        if (immutable_) setImmutable(false);
        else if (pinned_) ::chmod(folder_.c_str(), 0700);
    }
    Unremovable(const Unremovable&) = delete;
    Unremovable& operator=(const Unremovable&) = delete;
    bool ok() const { return pinned_; }
    const QString& why() const { return why_; }

private:
    bool setImmutable(bool on) const
    {
        const int fd = ::open(file_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return false;
        int flags = 0;
        bool done = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
        flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
        done = done && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
        const int saved = errno;
        ::close(fd);
        errno = saved;
        return done;
    }
    std::string file_, folder_;
    bool pinned_ = false, immutable_ = false;
    QString why_;
};

// Every path under `root` (folders and files), relative to it.
QStringList treeOf(const QString& root)
{
    QStringList out;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) out << QDir(root).relativeFilePath(it.next());
    out.sort();
    return out;
}

} // namespace

class EngineCheckpoint : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<double> straight_; // 40 steps at W=4

    RunResult run(const sb::Plan& plan, const QString& name, const QStringList& extra = {})
    {
        return LocalRunner::run(plan.mesh.worldSize(), QStringList{QStringLiteral("--plan"), writePlan(dir_, name, plan)} + extra);
    }

    // Replaces `from` (which must be there) by `to` in the file.
    static bool replaceInFile(const QString& path, const QByteArray& from, const QByteArray& to)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return false;
        QByteArray text = f.readAll();
        f.close();
        if (!text.contains(from) || !f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
        return f.write(text.replace(from, to)) > 0;
    }

    // A copy of checkpoint folder `src` at `dst` (created); returns dst, or "" when a copy failed.
    static QString copyCheckpoint(const QString& src, const QString& dst)
    {
        if (!QDir().mkpath(dst)) return {};
        for (const QString& f : QDir(src).entryList(QDir::Files))
            if (!QFile::copy(src + QLatin1Char('/') + f, dst + QLatin1Char('/') + f)) return {};
        return dst;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const RunResult r = run(ckptPlan(4, 40, dir_.filePath(QStringLiteral("straight")), 0), QStringLiteral("straight.json"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        straight_ = losses(r.ranks[0]);
        QCOMPARE(straight_.size(), std::size_t(40));
        // The first half, saved at step 20 (and 10).
        const RunResult h = run(ckptPlan(4, 20, dir_.filePath(QStringLiteral("half")), 10), QStringLiteral("half.json"));
        QVERIFY2(h.ok(), qPrintable(h.describe()));
        const auto events = h.ranks[0].ofType(QStringLiteral("checkpoint"));
        QCOMPARE(events.size(), std::size_t(2));
        QCOMPARE(events.back().value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        QVERIFY(events.back().value(QStringLiteral("bytes")).toInteger() > 0);
    }

    void resumeIsBitExactAtTheSameWorldSize()
    {
        const RunResult r = run(ckptPlan(4, 40, dir_.filePath(QStringLiteral("same")), 0), QStringLiteral("same.json"),
                                {QStringLiteral("--resume"), dir_.filePath(QStringLiteral("half"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<double> got = losses(r.ranks[0]);
        QCOMPARE(got.size(), std::size_t(20));
        for (std::size_t i = 0; i < got.size(); ++i) QCOMPARE(got[i], straight_[20 + i]); // bit for bit
        QCOMPARE(r.ranks[0].ofType(QStringLiteral("step")).front().value(QStringLiteral("step")).toInt(), 21);
    }

    void resumeAtAnotherWorldSize_data()
    {
        QTest::addColumn<int>("world");
        QTest::newRow("4 -> 2") << 2;
        QTest::newRow("4 -> 3 (rows not divisible)") << 3;
    }

    void resumeAtAnotherWorldSize()
    {
        QFETCH(int, world);
        const RunResult r = run(ckptPlan(world, 40, dir_.filePath(QStringLiteral("w%1").arg(world)), 0),
                                QStringLiteral("w%1.json").arg(world), {QStringLiteral("--resume"), dir_.filePath(QStringLiteral("half/local/step-000020"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<double> got = losses(r.ranks[0]);
        const std::vector<double> tail(straight_.begin() + 20, straight_.end());
        const double diff = maxRelativeDifference(got, tail);
        qInfo("resumed at W=%d: max relative loss difference %.3g", world, diff);
        QVERIFY(diff <= 1e-6);
    }

    void exportAndImportFullSafetensors()
    {
        const QString ckpt = dir_.filePath(QStringLiteral("half/local/step-000020"));
        const QString out = dir_.filePath(QStringLiteral("full.safetensors"));
        QCOMPARE(QString::fromStdString(sb::ckpt::exportCheckpoint(ckpt.toStdString(), out.toStdString()).message()), QString());
        const Tensors full = readSafetensors(out); // independent reader, by the specification
        QVERIFY2(full.error.isEmpty(), qPrintable(full.error));
        QCOMPARE(full.shapes.value(QStringLiteral("tok_embeddings.weight")), (std::vector<qint64>{130, 64}));
        // The core's own export of a live model gives the same bytes.
        const RunResult r = run(ckptPlan(2, 20, dir_.filePath(QStringLiteral("x")), 0), QStringLiteral("x.json"),
                                {QStringLiteral("--resume"), ckpt, QStringLiteral("--export-final"), dir_.filePath(QStringLiteral("live.safetensors"))});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        QCOMPARE(maxAbsoluteDifference(readSafetensors(dir_.filePath(QStringLiteral("live.safetensors"))), full), 0.0);
        // Import as initial weights: 3 sharded ranks train like the unsharded reference from the same file.
        sb::Plan p = ckptPlan(3, 5, dir_.filePath(QStringLiteral("imp")), 0);
        const RunResult a = run(p, QStringLiteral("imp3.json"), {QStringLiteral("--init-from"), out});
        QVERIFY2(a.ok(), qPrintable(a.describe()));
        const QString refPlan = writePlan(dir_, QStringLiteral("imp-ref.json"), p);
        const RunResult b = LocalRunner::run(1, {QStringLiteral("--plan"), refPlan, QStringLiteral("--reference"),
                                                 QStringLiteral("--init-from"), out});
        QVERIFY2(b.ok(), qPrintable(b.describe()));
        const double diff = maxRelativeDifference(losses(a.ranks[0]), losses(b.ranks[0]));
        qInfo("imported weights: sharded W=3 against the reference, max relative loss difference %.3g", diff);
        QVERIFY(diff < 1e-5);
        // A fresh model would start near ln(130) = 4.87; the imported one starts where training left it.
        QVERIFY(losses(a.ranks[0]).front() < straight_.front() - 0.5);
    }

    void commandLineInspectVerifyExport()
    {
        const QString cli = LocalRunner::cliPath();
        auto runCli = [&](const QStringList& args, int& code) {
            QProcess p;
            p.start(cli, args);
            p.waitForFinished(60000);
            code = p.exitCode();
            return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
        };
        int code = -1;
        const QString root = dir_.filePath(QStringLiteral("half"));
        QString out = runCli({QStringLiteral("checkpoint"), QStringLiteral("inspect"), root}, code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("step         20")) && out.contains(QStringLiteral("world size   4")), qPrintable(out));
        QVERIFY(out.contains(QStringLiteral("tok_embeddings.weight")));
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("verify"), root, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 0);
        QVERIFY2(out.contains(QStringLiteral("verified")), qPrintable(out));
        const QString model = dir_.filePath(QStringLiteral("cli.safetensors"));
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), root, QStringLiteral("-o"), model, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 0);
        QVERIFY(readSafetensors(model).error.isEmpty());
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("verify"), dir_.filePath(QStringLiteral("nowhere"))}, code);
        QCOMPARE(code, 2);
        QVERIFY2(out.contains(QStringLiteral("no such checkpoint folder")), qPrintable(out));

        // An index entry removed (and the index re-checksummed, as a careless
        // tool would): verify and export refuse it, and export writes nothing.
        const QString src = dir_.filePath(QStringLiteral("half/local/step-000020"));
        const QString cut = copyCheckpoint(src, dir_.filePath(QStringLiteral("cut/local/step-000020")));
        sb::Result<sb::ckpt::CheckpointIndex> read = sb::ckpt::readIndex(cut.toStdString());
        QCOMPARE(QString::fromStdString(read.error()), QString());
        sb::ckpt::CheckpointIndex index = std::move(read).value();
        index.tensors.erase(index.tensors.begin());
        QCOMPARE(QString::fromStdString(sb::ckpt::writeIndex(cut.toStdString(), index).message()), QString());
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("verify"), cut, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 2);
        QVERIFY2(out.contains(QStringLiteral("has no parameter")) || out.contains(QStringLiteral("lacks the AdamW state")), qPrintable(out));
        const QString partial = dir_.filePath(QStringLiteral("partial.safetensors"));
        out = runCli({QStringLiteral("checkpoint"), QStringLiteral("export"), cut, QStringLiteral("-o"), partial, QStringLiteral("--quiet")}, code);
        QCOMPARE(code, 2);
        QVERIFY(!QFile::exists(partial));

        // A FIFO or /dev/zero in place of a file: refused at once, naming it (a hang fails here, not in CI's timeout).
        for (const QString& kind : {QStringLiteral("fifo"), QStringLiteral("zero")}) {
            const QString odd = copyCheckpoint(src, dir_.filePath(QStringLiteral("odd-%1/local/step-000020").arg(kind)));
            const QString shard = odd + QStringLiteral("/rank-00002.safetensors");
            QVERIFY(QFile::remove(shard));
            QCOMPARE(kind == QStringLiteral("fifo") ? ::mkfifo(QFile::encodeName(shard).constData(), 0600)
                                                  : ::symlink("/dev/zero", QFile::encodeName(shard).constData()),
                     0);
            for (const QString& sub : {QStringLiteral("verify"), QStringLiteral("export")}) {
                QProcess p;
                p.start(cli, {QStringLiteral("checkpoint"), sub, odd, QStringLiteral("-o"), dir_.filePath(QStringLiteral("odd.safetensors")),
                              QStringLiteral("--quiet")});
                const bool finished = p.waitForFinished(20000);
                if (!finished) p.kill();
                QVERIFY2(finished, qPrintable(sub + QStringLiteral(" hangs on a ") + kind));
                QCOMPARE(p.exitCode(), 2);
                const QString text = QString::fromUtf8(p.readAllStandardError());
                QVERIFY2(text.contains(shard) && text.contains(QStringLiteral("not a regular file")), qPrintable(text));
            }
        }
    }

    void runsSharingACheckpointFolderKeepTheirOwn()
    {
        // Two runs of one plan, one checkpoint folder, keep = 1: each rotates
        // only its own DIR/<run id>, so neither deletes the other's (nor its own fresh) checkpoint.
        const QString root = dir_.filePath(QStringLiteral("shared"));
        sb::Plan plan = ckptPlan(2, 4, root, 2);
        plan.training.checkpoint.keep = 1;
        const QString planPath = writePlan(dir_, QStringLiteral("shared.json"), plan);
        for (const char* id : {"first", "second"}) {
            const RunResult r = LocalRunner::run(2, {QStringLiteral("--plan"), planPath, QStringLiteral("--run-id"), QString::fromLatin1(id)});
            QVERIFY2(r.ok(), qPrintable(r.describe()));
            for (const auto& e : r.ranks[0].ofType(QStringLiteral("checkpoint")))
                QCOMPARE(e.value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        }
        for (const char* id : {"first", "second"}) {
            const auto own = sb::ckpt::listCheckpoints(root.toStdString() + "/" + id);
            QCOMPARE(own.size(), std::size_t(1)); // keep = 1: step 4 only
            QCOMPARE(own.back().first, std::int64_t(4));
            QCOMPARE(QString::fromStdString(sb::ckpt::verifyCheckpoint(own.back().second).message()), QString());
            const sb::Result<sb::ckpt::CheckpointIndex> index = sb::ckpt::readIndex(own.back().second);
            QCOMPARE(QString::fromStdString(index.error()), QString());
            QCOMPARE(index.value().runId, std::string(id));
        }
        // The shared root names no single latest checkpoint: resuming from it is refused with the run ids...
        const RunResult bare = LocalRunner::run(2, {QStringLiteral("--plan"), planPath, QStringLiteral("--resume"), root});
        QCOMPARE(bare.ranks[0].exitCode, 2);
        QVERIFY2(bare.ranks[0].stdErr.contains(QStringLiteral("several runs (first, second)")), qPrintable(bare.ranks[0].stdErr));
        // ...while a restart with --resume auto continues its own run's folder only.
        sb::Plan longer = plan;
        longer.training.steps = 6;
        const QString longerPath = writePlan(dir_, QStringLiteral("shared-longer.json"), longer);
        const RunResult again = LocalRunner::run(2, {QStringLiteral("--plan"), longerPath, QStringLiteral("--run-id"), QStringLiteral("second"),
                                                     QStringLiteral("--resume"), QStringLiteral("auto")});
        QVERIFY2(again.ok(), qPrintable(again.describe()));
        QCOMPARE(again.ranks[0].ofType(QStringLiteral("step")).front().value(QStringLiteral("step")).toInt(), 5);
        QCOMPARE(sb::ckpt::listCheckpoints(root.toStdString() + "/second").back().first, std::int64_t(6));
        QCOMPARE(sb::ckpt::listCheckpoints(root.toStdString() + "/first").back().first, std::int64_t(4));
    }

    void anOldCheckpointThatCannotBePrunedIsReported()
    {
        // keep = 1: the step-2 checkpoint goes when step 4 is saved. A file in
        // it that cannot be removed keeps it there; the run goes on and the
        // step-4 checkpoint event, still complete, says what was left behind.
        const QString root = dir_.filePath(QStringLiteral("unprunable"));
        sb::Plan plan = ckptPlan(2, 2, root, 2);
        plan.training.checkpoint.keep = 1;
        const QStringList id{QStringLiteral("--run-id"), QStringLiteral("stuck")};
        const QString planPath = writePlan(dir_, QStringLiteral("unprunable.json"), plan);
        const RunResult first = LocalRunner::run(2, QStringList{QStringLiteral("--plan"), planPath} + id);
        QVERIFY2(first.ok(), qPrintable(first.describe()));
        const QString old = root + QStringLiteral("/stuck/step-000002");
        QVERIFY(QDir().mkpath(old + QStringLiteral("/pinned")));
        QFile file(old + QStringLiteral("/pinned/file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const Unremovable pin(file.fileName());
        if (!pin.ok()) QSKIP(qPrintable(QStringLiteral("no file here can be made unremovable: ") + pin.why()));

        plan.training.steps = 4;
        const RunResult second = LocalRunner::run(2, QStringList{QStringLiteral("--plan"), writePlan(dir_, QStringLiteral("unprunable-4.json"), plan),
                                                                 QStringLiteral("--resume"), QStringLiteral("auto")} + id);
        QVERIFY2(second.ok(), qPrintable(second.describe()));
        const std::vector<QJsonObject> saved = second.ranks[0].ofType(QStringLiteral("checkpoint"));
        QCOMPARE(saved.size(), std::size_t(1));
        QCOMPARE(saved[0].value(QStringLiteral("step")).toInt(), 4);
        QCOMPARE(saved[0].value(QStringLiteral("status")).toString(), QStringLiteral("complete"));
        const QString message = saved[0].value(QStringLiteral("message")).toString();
        QVERIFY2(message.startsWith(QStringLiteral("old checkpoint not pruned: cannot remove ")) && message.contains(old), qPrintable(message));
        QVERIFY(QFile::exists(file.fileName()));
        QCOMPARE(sb::ckpt::listCheckpoints(root.toStdString() + "/stuck").back().first, std::int64_t(4));
    }

    void aSaveThatFailsOnAFullDiskLeavesNoPart_data()
    {
        QTest::addColumn<bool>("async");
        QTest::newRow("sync") << false;
        QTest::newRow("async") << true;
    }

    // On a full disk every save fails (the run trains on and says so); the
    // save's own failure path removes its step-N.tmp folder and every rank's
    // part, so a long run on a full disk does not leave one per save.
    void aSaveThatFailsOnAFullDiskLeavesNoPart()
    {
        QFETCH(bool, async);
        const QString root = dir_.filePath(async ? QStringLiteral("full-async") : QStringLiteral("full-sync"));
        // Room for the folders, not for a rank's file (a few hundred KiB).
        const sb::test::TmpfsMount disk(root, "16k");
        if (!disk.ok()) QSKIP(qPrintable(disk.why()));
        sb::Plan plan = ckptPlan(2, 6, root, 2);
        plan.training.checkpoint.async = async;
        const RunResult r = run(plan, async ? QStringLiteral("full-async.json") : QStringLiteral("full-sync.json"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<QJsonObject> saves = r.ranks[0].ofType(QStringLiteral("checkpoint"));
        QCOMPARE(saves.size(), std::size_t(3)); // steps 2, 4, 6
        for (const QJsonObject& e : saves) {
            QCOMPARE(e.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
            QVERIFY2(e.value(QStringLiteral("message")).toString().contains(QStringLiteral("No space left on device")),
                     qPrintable(e.value(QStringLiteral("message")).toString()));
        }
        // The run's folder is all that is left: no step-N.tmp, no part of a file.
        QCOMPARE(treeOf(root), QStringList{QStringLiteral("local")});
    }

    void damagedCheckpointsAreRefused_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated shard") << QStringLiteral("truncate") << QStringLiteral("rank-00001.safetensors");
        QTest::newRow("altered byte") << QStringLiteral("flip") << QStringLiteral("checksum mismatch");
        QTest::newRow("missing shard") << QStringLiteral("delete") << QStringLiteral("rank-00001.safetensors: missing");
        QTest::newRow("unknown version") << QStringLiteral("version") << QStringLiteral("version 99 is not supported");
        QTest::newRow("no index") << QStringLiteral("noindex") << QStringLiteral("holds no complete checkpoint");
        QTest::newRow("other model") << QStringLiteral("model") << QStringLiteral("in the plan's model");
        QTest::newRow("one digit of step edited") << QStringLiteral("step") << QStringLiteral("checksum mismatch with index.json.sha256");
        QTest::newRow("index checksum removed") << QStringLiteral("nosum") << QStringLiteral("never committed");
        QTest::newRow("FIFO for a shard") << QStringLiteral("fifo") << QStringLiteral("is a FIFO, not a regular file");
        QTest::newRow("/dev/zero for the index") << QStringLiteral("zero") << QStringLiteral("index.json: is a device, not a regular file");
    }

    void damagedCheckpointsAreRefused()
    {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        // A private copy of the step-20 checkpoint, then damage it.
        const QString src = dir_.filePath(QStringLiteral("half/local/step-000020"));
        const QString root = dir_.filePath(QStringLiteral("damaged-") + damage);
        const QString copy = copyCheckpoint(src, root + QStringLiteral("/local/step-000020"));
        QVERIFY(!copy.isEmpty());
        const QString shard = copy + QStringLiteral("/rank-00001.safetensors");
        sb::Plan plan = ckptPlan(4, 40, root, 0);
        if (damage == QStringLiteral("truncate")) {
            QFile f(shard);
            QVERIFY(f.resize(f.size() - 100));
        } else if (damage == QStringLiteral("flip")) {
            QFile f(shard);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(f.size() - 5);
            const char c = static_cast<char>(f.peek(1).at(0) ^ 0x40);
            f.write(&c, 1);
        } else if (damage == QStringLiteral("delete")) {
            QVERIFY(QFile::remove(shard));
        } else if (damage == QStringLiteral("version")) {
            QVERIFY(replaceInFile(copy + QStringLiteral("/index.json"), "\"version\": 2", "\"version\": 99"));
        } else if (damage == QStringLiteral("noindex")) {
            QVERIFY(QFile::remove(copy + QStringLiteral("/index.json")));
        } else if (damage == QStringLiteral("model")) {
            plan.model.ffnHidden = 128;
        } else if (damage == QStringLiteral("step")) {
            // The step resume would start at: 20 -> 21 (next_sample left as it was).
            QVERIFY(replaceInFile(copy + QStringLiteral("/index.json"), "\"step\": 20,", "\"step\": 21,"));
        } else if (damage == QStringLiteral("nosum")) {
            QVERIFY(QFile::remove(copy + QStringLiteral("/index.json.sha256")));
        } else if (damage == QStringLiteral("fifo")) {
            QVERIFY(QFile::remove(shard));
            QCOMPARE(::mkfifo(QFile::encodeName(shard).constData(), 0600), 0);
        } else if (damage == QStringLiteral("zero")) {
            QVERIFY(QFile::remove(copy + QStringLiteral("/index.json")));
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), copy + QStringLiteral("/index.json")));
        }
        // A hang (reading a FIFO or /dev/zero) fails within the runner's time limit.
        const RunResult r = LocalRunner::run(4, {QStringLiteral("--plan"), writePlan(dir_, damage + QStringLiteral(".json"), plan),
                                                 QStringLiteral("--resume"), root}, 60000);
        QVERIFY(!r.ok());
        QCOMPARE(r.ranks[0].exitCode, 2);
        const QString err = r.ranks[0].stdErr + r.ranks[1].stdErr + r.ranks[2].stdErr + r.ranks[3].stdErr;
        QVERIFY2(err.contains(message), qPrintable(err));
        // The verifier agrees (except for a model mismatch, which only a plan reveals).
        if (damage != QStringLiteral("model") && damage != QStringLiteral("noindex"))
            QVERIFY(!sb::ckpt::verifyCheckpoint(copy.toStdString()).ok());
    }

    void killDuringSavesNeverLosesACheckpoint()
    {
        // 2 ranks saving (async) after every step; kill -9 at random moments.
        const QString root = dir_.filePath(QStringLiteral("killed"));
        const QString plan = writePlan(dir_, QStringLiteral("killed.json"), ckptPlan(2, 100000, root, 1));
        QRandomGenerator rng(1234);
        int kills = 0, verified = 0;
        for (int round = 0; round < 20; ++round) {
            auto ranks = LocalRunner::start(2, {QStringLiteral("--plan"), plan, QStringLiteral("--resume"), QStringLiteral("auto")});
            // Kill once training is under way (a loaded machine starts slower:
            // a fixed delay killed some rounds before their first save), at a
            // random moment of the step and save that follow.
            (void)QTest::qWaitFor([&] { return ranks[0]->state() == QProcess::NotRunning || ranks[0]->peek(1 << 20).contains("{\"type\":\"step\""); }, 60000);
            QTest::qWait(300 + static_cast<int>(rng.bounded(1200)));
            for (auto& p : ranks) sb::test::signalProcess(p->processId(), SIGKILL);
            for (auto& p : ranks) p->waitForFinished();
            ++kills;
            const auto complete = sb::ckpt::listCheckpoints(root.toStdString() + "/local"); // the default run id
            if (complete.empty()) continue;
            // The newest complete checkpoint is intact and loadable.
            QCOMPARE(QString::fromStdString(sb::ckpt::verifyCheckpoint(complete.back().second).message()), QString());
            ++verified;
        }
        qInfo("%d kills, %d verified checkpoints", kills, verified);
        QVERIFY(verified >= 15);
        // And training resumes from it.
        sb::Plan p = ckptPlan(2, 0, root, 0);
        const auto complete = sb::ckpt::listCheckpoints(root.toStdString() + "/local");
        p.training.steps = static_cast<int>(complete.back().first) + 2;
        const RunResult r = run(p, QStringLiteral("after-kill.json"), {QStringLiteral("--resume"), root});
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        QCOMPARE(losses(r.ranks[0]).size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(EngineCheckpoint)
#include "tst_engine_checkpoint.moc"
