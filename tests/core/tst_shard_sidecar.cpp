// The sidecars a checkpoint's shard ranks leave for rank 0, and their word in
// the rendezvous store: a sidecar survives its round trip; a damaged one
// (truncated, a key missing or of the wrong type, rows backwards, a FIFO, an
// oversized file) is an error naming the file, never a crash or a hang; a word
// other than "ok" fails the checkpoint with the rank's message.
#include "checkpoint/shard_sidecar.hpp"

#include <QTemporaryDir>
#include <QTest>

#include <future>
#include <sys/stat.h>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

using namespace sb::ckpt;
using sb::Status;

namespace {

WrittenFile sample()
{
    WrittenFile w;
    w.file = {"rank-00001.safetensors", 4096, std::string(64, 'a')};
    w.shards.push_back({"param/layers.0.w", {"rank-00001.safetensors", 8, 16, "crc32c:01020304"}});
    w.shards.push_back({"exp_avg/layers.0.w", {"rank-00001.safetensors", 8, 16, "crc32c:05060708"}});
    return w;
}

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

} // namespace

class TestShardSidecar : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("rank-00001.json")).toStdString();
        writeText(path, sidecarToJson(sample()).dump());
        const sb::Result<WrittenFile> back = readSidecar(path);
        QVERIFY2(back.ok(), back.error().c_str());
        QCOMPARE(back.value().file.name, sample().file.name);
        QCOMPARE(back.value().file.bytes, std::uint64_t(4096));
        QCOMPARE(back.value().shards.size(), std::size_t(2));
        QCOMPARE(back.value().shards[1].first, std::string("exp_avg/layers.0.w"));
        QCOMPARE(back.value().shards[1].second.file, std::string("rank-00001.safetensors"));
        QCOMPARE(back.value().shards[1].second.rowBegin, std::int64_t(8));
        QCOMPARE(back.value().shards[1].second.rowEnd, std::int64_t(16));
        QCOMPARE(back.value().shards[1].second.crc32c, std::string("crc32c:05060708"));
    }

    void damagedSidecarsAreErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("why");
        const std::string good = sidecarToJson(sample()).dump();
        QTest::newRow("empty") << QString() << QStringLiteral("not valid JSON");
        QTest::newRow("truncated") << QString::fromStdString(good.substr(0, good.size() / 2)) << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QStringLiteral("[1,2]") << QStringLiteral("not a JSON object");
        QTest::newRow("no file") << QStringLiteral(R"({"bytes":1,"sha256":"x","shards":[]})") << QStringLiteral("lacks file, bytes or sha256");
        QTest::newRow("bytes text") << QStringLiteral(R"({"file":"f","bytes":"1","sha256":"x","shards":[]})") << QStringLiteral("lacks file, bytes or sha256");
        QTest::newRow("no shards") << QStringLiteral(R"({"file":"f","bytes":1,"sha256":"x"})") << QStringLiteral("lacks its list of shards");
        QTest::newRow("shard not object") << QStringLiteral(R"({"file":"f","bytes":1,"sha256":"x","shards":[7]})") << QStringLiteral("a shard lacks");
        QTest::newRow("one row") << QStringLiteral(R"({"file":"f","bytes":1,"sha256":"x","shards":[{"tensor":"t","rows":[3],"crc32c":"c"}]})")
                                 << QStringLiteral("a shard lacks");
        QTest::newRow("backwards") << QStringLiteral(R"({"file":"f","bytes":1,"sha256":"x","shards":[{"tensor":"t","rows":[9,3],"crc32c":"c"}]})")
                                   << QStringLiteral("rows of tensor \"t\" are not a range");
        QTest::newRow("negative") << QStringLiteral(R"({"file":"f","bytes":1,"sha256":"x","shards":[{"tensor":"t","rows":[-1,3],"crc32c":"c"}]})")
                                  << QStringLiteral("rows of tensor \"t\" are not a range");
    }
    void damagedSidecarsAreErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("rank-00003.json")).toStdString();
        writeText(path, text.toStdString());
        const sb::Result<WrittenFile> read = readSidecar(path);
        QVERIFY(!read.ok());
        const QString message = QString::fromStdString(read.error());
        QVERIFY2(message.startsWith(QString::fromStdString(path)), qPrintable(message));
        QVERIFY2(message.contains(why), qPrintable(message));
    }

    void specialFilesAreRefusedWithoutHanging()
    {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("rank-00001.json")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        auto read = std::async(std::launch::async, [&] { return readSidecar(fifo); });
        const bool finished = read.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
        if (!finished) { // unblock the reader before failing
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
        QVERIFY2(finished, "reading a FIFO as a sidecar hung");
        QVERIFY(!read.get().ok());
        QVERIFY(!readSidecar(dir.filePath(QStringLiteral("absent.json")).toStdString()).ok());

        const std::string huge = dir.filePath(QStringLiteral("rank-00002.json")).toStdString();
        writeText(huge, "{}");
        QCOMPARE(::truncate(huge.c_str(), 65ll << 20), 0); // sparse: larger than any sidecar, costs no disk
        const sb::Result<WrittenFile> big = readSidecar(huge);
        QVERIFY(!big.ok());
        QVERIFY2(QString::fromStdString(big.error()).contains(QStringLiteral("allowed")), big.error().c_str());
    }

    void storeWordsReadBack()
    {
        QCOMPARE(shardWriteRecord(Status()), std::string("ok"));
        QVERIFY(shardWriteStatus(shardWriteRecord(Status())).ok());
        const Status failed = shardWriteStatus(shardWriteRecord(Status::error("disk full")));
        QVERIFY(!failed.ok());
        QCOMPARE(failed.message(), std::string("disk full"));
        const Status garbage = shardWriteStatus("okay?");
        QVERIFY(!garbage.ok());
        QVERIFY(garbage.message().find("\"okay?\"") != std::string::npos);
        QVERIFY(!shardWriteStatus("").ok());
    }
};

QTEST_GUILESS_MAIN(TestShardSidecar)
#include "tst_shard_sidecar.moc"
