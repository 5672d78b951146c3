// The Torch-free checkpoint format pieces: SHA-256 against published test
// vectors (both the SHA-NI and the portable path, alone and with the CRC-32C
// folded in), page-aligned durable writes (O_DIRECT and the fallback),
// safetensors round trip,
// and the index's refusal of malformed or unknown-version files. On small
// checkpoints written here: the index's own checksum (edited digits, dtypes,
// removed tensors), completeness against the plan's model, the version-1
// read-only path, FIFOs and /dev/zero in place of files (a hang fails),
// export's check of every file's size and SHA-256 (also through
// shardbench-cli), and checkpoint roots shared by several runs.
#include "checkpoint/checkpoint_index.hpp"
#include "checkpoint/checkpoint_io.hpp"
#include "checkpoint/crc32c.hpp"
#include "checkpoint/fs_util.hpp"
#include "checkpoint/safetensors.hpp"
#include "checkpoint/sha256.hpp"
#include "plan/model_config.hpp"
#include "plan/module_tree.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sb::ckpt;
using sb::Result;
using sb::Status;

namespace {
// An error's message as QCOMPARE shows it ("" when ok).
QString messageOf(const Status& s) { return QString::fromStdString(s.message()); }
} // namespace

class TestCheckpointFormat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sha256Vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("digest");
        // FIPS 180-4 examples and the empty string.
        QTest::newRow("empty") << QByteArray() << QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc") << QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("448 bits") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                  << QStringLiteral("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("million a") << QByteArray(1000000, 'a') << QStringLiteral("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    void sha256Vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        QCOMPARE(QString::fromStdString(sha256Hex(input.constData(), static_cast<std::size_t>(input.size()))), digest);
        // Streaming in uneven pieces gives the same digest.
        Sha256 h;
        std::size_t at = 0, step = 1;
        while (at < static_cast<std::size_t>(input.size())) {
            const std::size_t n = std::min<std::size_t>(step, static_cast<std::size_t>(input.size()) - at);
            h.update(input.constData() + at, n);
            at += n;
            step = step * 3 + 1;
        }
        QCOMPARE(QString::fromStdString(h.hex()), digest);
    }

    void crc32cVectors()
    {
        // The CRC-32C check value (RFC 3720) and an all-zero block.
        QCOMPARE(crc32c("123456789", 9), 0xE3069283u);
        const std::vector<unsigned char> zeros(32, 0);
        QCOMPARE(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
        QCOMPARE(QString::fromStdString(crc32cHex("123456789", 9)), QStringLiteral("e3069283"));
        // Incremental use continues the same CRC.
        QCOMPARE(crc32c("6789", 4, crc32c("12345", 5)), 0xE3069283u);
    }

    void acceleratedAndPortablePathsAgree()
    {
        // This process may use SHA-NI; a child with SB_SHA256_PORTABLE=1 uses the portable code.
        if (qEnvironmentVariableIsSet("SB_SHA256_CHILD")) return;
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SB_SHA256_PORTABLE"), QStringLiteral("1"));
        env.insert(QStringLiteral("SB_CRC32C_PORTABLE"), QStringLiteral("1"));
        env.insert(QStringLiteral("SB_SHA256_CHILD"), QStringLiteral("1"));
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("printRandomDigest")});
        QVERIFY(child.waitForFinished(60000));
        QString portable;
        for (const QString& line : QString::fromUtf8(child.readAllStandardOutput()).split(QLatin1Char('\n')))
            if (line.startsWith(QStringLiteral("digest "))) portable = line.mid(7).trimmed();
        QVERIFY2(!portable.isEmpty(), "the child printed no digest");
        QCOMPARE(portable, QString::fromStdString(randomDigest()));
    }

    void fusedHashAndCrcMatchSeparate()
    {
        const QStringList parts = QString::fromStdString(randomDigest()).split(QLatin1Char('-'));
        QCOMPARE(parts.size(), 4);
        QCOMPARE(parts[2], parts[0]); // SHA-256 with the CRC folded in = SHA-256 alone
        QCOMPARE(parts[3], parts[1]);
    }

    void alignedWriteKeepsTheExactBytes_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("disk (O_DIRECT)") << QString();
        // tmpfs refuses O_DIRECT: the write goes through the page cache instead.
        if (QFileInfo(QStringLiteral("/dev/shm")).isWritable()) QTest::newRow("tmpfs (fallback)") << QStringLiteral("/dev/shm");
    }

    void alignedWriteKeepsTheExactBytes()
    {
        QFETCH(QString, folder);
        QTemporaryDir dir(folder.isEmpty() ? QDir::tempPath() + QStringLiteral("/sb-XXXXXX") : folder + QStringLiteral("/sb-XXXXXX"));
        QVERIFY(dir.isValid());
        for (std::size_t bytes : {std::size_t{1}, std::size_t{4096}, std::size_t{3 * 4096 + 17}}) {
            const std::size_t pages = (bytes + 4095) / 4096;
            void* raw = std::aligned_alloc(4096, pages * 4096);
            QVERIFY(raw);
            std::unique_ptr<void, decltype(&std::free)> buf(raw, &std::free);
            std::mt19937 g(static_cast<unsigned>(bytes));
            for (std::size_t i = 0; i < pages * 4096; ++i) static_cast<unsigned char*>(raw)[i] = static_cast<unsigned char>(g());
            const QString path = dir.filePath(QStringLiteral("f%1").arg(bytes));
            QCOMPARE(messageOf(writeAlignedFileDurably(path.toStdString(), raw, bytes)), QString());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray back = f.readAll();
            QCOMPARE(static_cast<std::size_t>(back.size()), bytes); // cut back from the padded last page
            QVERIFY(std::memcmp(back.constData(), raw, bytes) == 0);
        }
    }

    void printRandomDigest()
    {
        if (qEnvironmentVariableIsSet("SB_SHA256_CHILD")) std::printf("digest %s\n", randomDigest().c_str());
    }

    void safetensorsRoundTrip()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.safetensors")).toStdString();
        std::vector<float> a{1, 2, 3, 4, 5, 6}, b{7};
        SafetensorsWriter w;
        QCOMPARE(messageOf(w.open(path, {{"a", "F32", {2, 3}, 0, 24}, {"b", "F32", {1}, 24, 28}}, {{"k", "v"}})), QString());
        QVERIFY(w.write(a.data(), 24).ok());
        QVERIFY(w.write(b.data(), 4).ok());
        QCOMPARE(messageOf(w.close()), QString());
        const Result<std::string> sha = sha256File(path);
        QVERIFY2(sha.ok(), sha.error().c_str());
        QCOMPARE(QString::fromStdString(sha.value()), QString::fromStdString(w.sha256()));
        const Result<SafetensorsFile> header = readSafetensorsHeader(path);
        QCOMPARE(messageOf(header.status()), QString());
        const SafetensorsFile& f = header.value();
        QCOMPARE(f.entries.size(), std::size_t(2));
        QCOMPARE(f.metadata.at("k"), std::string("v"));
        QCOMPARE(f.dataStart % 8, std::uint64_t(0)); // aligned header, as the specification asks
        // A declared size that the data does not fill is refused.
        SafetensorsWriter shortW;
        QVERIFY(shortW.open(path, {{"a", "F32", {2}, 0, 8}}, {}).ok());
        QVERIFY(shortW.write(a.data(), 4).ok());
        QVERIFY(!shortW.close().ok());
    }

    void indexRefusesBadInput_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << QStringLiteral("[]") << QStringLiteral("not a JSON object");
        QTest::newRow("wrong format") << QStringLiteral("{\"format\":\"x\",\"version\":1}") << QStringLiteral("format");
        QTest::newRow("future version") << QStringLiteral("{\"format\":\"shardbench-checkpoint\",\"version\":3}") << QStringLiteral("version 3 is not supported");
        QTest::newRow("no files")
            << QStringLiteral("{\"format\":\"shardbench-checkpoint\",\"version\":1,\"step\":1,\"optimizer_step\":1,\"world_size\":1,"
                              "\"shard_size\":1,\"replicate\":1,\"seed\":0,\"next_sample\":0,\"files\":{},\"tensors\":{}}")
            << QStringLiteral("lists no files");
        QTest::newRow("gap in rows")
            << QStringLiteral("{\"format\":\"shardbench-checkpoint\",\"version\":1,\"step\":1,\"optimizer_step\":1,\"world_size\":2,"
                              "\"shard_size\":2,\"replicate\":1,\"seed\":0,\"next_sample\":0,"
                              "\"files\":{\"rank-00000.safetensors\":{\"bytes\":1,\"sha256\":\"x\"}},"
                              "\"tensors\":{\"param/w\":{\"shape\":[4,2],\"shards\":[{\"file\":\"rank-00000.safetensors\",\"rows\":[0,2],\"crc32c\":\"x\"},"
                              "{\"file\":\"rank-00000.safetensors\",\"rows\":[3,4],\"crc32c\":\"x\"}]}}}")
            << QStringLiteral("do not cover its rows");
        QTest::newRow("path escape")
            << QStringLiteral("{\"format\":\"shardbench-checkpoint\",\"version\":1,\"step\":1,\"optimizer_step\":1,\"world_size\":1,"
                              "\"shard_size\":1,\"replicate\":1,\"seed\":0,\"next_sample\":0,"
                              "\"files\":{\"../../etc/passwd\":{\"bytes\":1,\"sha256\":\"x\"}},\"tensors\":{}}")
            << QStringLiteral("malformed");
    }

    void indexRefusesBadInput()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto parsed = sb::json::parse(json.toStdString());
        QVERIFY(parsed);
        const QString err = QString::fromStdString(CheckpointIndex::fromJson(*parsed.value).error());
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    // A repeated key or invalid UTF-8 in index.json is refused by the reader,
    // and the message names the file, line and column (and the key).
    void indexReaderRefusesDuplicateKeysAndInvalidUtf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("duplicate step") << QByteArray("{\"format\": \"shardbench-checkpoint\",\n \"step\": 100,\n \"step\": 1}")
                                        << QStringLiteral("index.json: invalid JSON at line 3, column 2: duplicate key \"step\"");
        QTest::newRow("invalid UTF-8") << QByteArray("{\"run_id\": \"r\xff\"}")
                                       << QStringLiteral("index.json: invalid JSON at line 1, column 14: invalid UTF-8");
    }
    void indexReaderRefusesDuplicateKeysAndInvalidUtf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("index.json")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        f.close();
        const QString err = QString::fromStdString(readIndex(dir.path().toStdString()).error());
        QVERIFY2(err.contains(message), qPrintable(err));
    }

    void indexChecksumCatchesEdits_data()
    {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::newRow("one digit of step") << QByteArray("\"step\": 3,") << QByteArray("\"step\": 2,");
        QTest::newRow("one digit of next_sample") << QByteArray("\"next_sample\": 36,") << QByteArray("\"next_sample\": 37,");
        QTest::newRow("a dtype") << QByteArray("\"dtype\": \"F32\"") << QByteArray("\"dtype\": \"F16\"");
        QTest::newRow("a shard's file") << QByteArray("\"file\": \"rank-00001.safetensors\"") << QByteArray("\"file\": \"rank-00000.safetensors\"");
    }

    void indexChecksumCatchesEdits()
    {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QTemporaryDir root;
        const std::string dir = makeCheckpoint(root.path(), "run-a", 3);
        QCOMPARE(messageOf(verifyCheckpoint(dir)), QString());
        QByteArray text = readAll(dir + "/index.json");
        QVERIFY2(text.contains(from), text.left(400).constData());
        text.replace(text.indexOf(from), from.size(), to);
        writeAll(dir + "/index.json", text);
        const QString read = QString::fromStdString(readIndex(dir).error());
        QVERIFY2(read.contains(QStringLiteral("checksum mismatch with index.json.sha256")), qPrintable(read));
        QVERIFY(messageOf(verifyCheckpoint(dir)).contains(QStringLiteral("checksum mismatch")));
        const std::string out = root.filePath(QStringLiteral("model.safetensors")).toStdString();
        QVERIFY(messageOf(exportCheckpoint(dir, out)).contains(QStringLiteral("checksum mismatch")));
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }

    void indexMustBeCompleteAgainstItsPlan_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("parameter removed") << QStringLiteral("drop param") << QStringLiteral("has no parameter \"layers.0.attention.wq.weight\"");
        QTest::newRow("optimizer state removed") << QStringLiteral("drop exp_avg_sq") << QStringLiteral("lacks the AdamW state \"exp_avg_sq/");
        QTest::newRow("wrong dtype") << QStringLiteral("dtype") << QStringLiteral("is BF16; sharded checkpoints hold F32");
        QTest::newRow("wrong shape") << QStringLiteral("shape") << QStringLiteral("in the plan's model");
        QTest::newRow("unknown tensor") << QStringLiteral("extra") << QStringLiteral("which the plan's model does not have");
        QTest::newRow("rows covered twice") << QStringLiteral("overlap") << QStringLiteral("do not cover its rows in order");
        QTest::newRow("step other than the folder's") << QStringLiteral("step") << QStringLiteral("in a folder named for step 3");
        QTest::newRow("no plan") << QStringLiteral("plan") << QStringLiteral("carries no plan");
    }

    void indexMustBeCompleteAgainstItsPlan()
    {
        // Edited and re-checksummed (as a careless tool would): completeness still refuses it.
        QFETCH(QString, change);
        QFETCH(QString, message);
        QTemporaryDir root;
        const std::string dir = makeCheckpoint(root.path(), "run-a", 3);
        Result<CheckpointIndex> read = readIndex(dir);
        QCOMPARE(QString::fromStdString(read.error()), QString());
        CheckpointIndex index = std::move(read).value();
        QVERIFY(index.checksummed);
        auto named = [&](const std::string& name) {
            return std::find_if(index.tensors.begin(), index.tensors.end(), [&](const TensorInfo& t) { return t.name == name; });
        };
        const std::string wq = "layers.0.attention.wq.weight";
        QVERIFY(named("param/" + wq) != index.tensors.end());
        if (change == QStringLiteral("drop param")) index.tensors.erase(named("param/" + wq));
        else if (change == QStringLiteral("drop exp_avg_sq")) index.tensors.erase(named("exp_avg_sq/" + wq));
        else if (change == QStringLiteral("dtype")) named("exp_avg/" + wq)->dtype = "BF16";
        else if (change == QStringLiteral("shape")) named("param/" + wq)->shape.back() += 1;
        else if (change == QStringLiteral("extra")) index.tensors.push_back(*named("param/" + wq)), index.tensors.back().name = "param/bogus";
        else if (change == QStringLiteral("overlap")) named("param/" + wq)->shards[1].rowBegin -= 1;
        else if (change == QStringLiteral("step")) index.step = 4;
        else if (change == QStringLiteral("plan")) index.plan = sb::json::Value();
        QCOMPARE(messageOf(writeIndex(dir, index)), QString());
        const QString back = QString::fromStdString(readIndex(dir).error());
        QVERIFY2(back.contains(message), qPrintable(back));
        QVERIFY(!verifyCheckpoint(dir).ok());
        const std::string out = root.filePath(QStringLiteral("model.safetensors")).toStdString();
        QVERIFY(!exportCheckpoint(dir, out).ok());
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }

    void versionOneIsReadOnly()
    {
        QTemporaryDir root;
        const std::string dir = makeCheckpoint(root.path(), "run-a", 3);
        // Version 2 without its commit record: never committed.
        QVERIFY(QFile::remove(QString::fromStdString(dir + "/index.json.sha256")));
        QVERIFY(QString::fromStdString(readIndex(dir).error()).contains(QStringLiteral("never committed")));
        // A version-1 index (no checksum then) reads, verifies and exports, flagged read-only.
        QByteArray text = readAll(dir + "/index.json");
        text.replace("\"version\": 2", "\"version\": 1");
        writeAll(dir + "/index.json", text);
        const Result<CheckpointIndex> read = readIndex(dir);
        QCOMPARE(QString::fromStdString(read.error()), QString());
        const CheckpointIndex& index = read.value();
        QCOMPARE(index.version, 1);
        QVERIFY(!index.checksummed);
        QVERIFY(QString::fromStdString(index.readOnlyReason()).contains(QStringLiteral("no index checksum")));
        QCOMPARE(messageOf(verifyCheckpoint(dir)), QString());
        const Result<std::string> described = describeCheckpoint(dir);
        QVERIFY2(described.ok(), described.error().c_str());
        QVERIFY(QString::fromStdString(described.value()).contains(QStringLiteral("READ-ONLY")));
        QCOMPARE(messageOf(exportCheckpoint(dir, root.filePath(QStringLiteral("m.safetensors")).toStdString())), QString());
    }

    void nonRegularFilesAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("kind");
        for (const char* f : {"rank-00001.safetensors", "index.json", "index.json.sha256"})
            for (const char* k : {"fifo", "dev-zero"})
                QTest::newRow(qPrintable(QStringLiteral("%1 as %2").arg(QLatin1String(f), QLatin1String(k)))) << QString::fromLatin1(f)
                                                                                                           << QString::fromLatin1(k);
    }

    void nonRegularFilesAreRefused()
    {
        QFETCH(QString, file);
        QFETCH(QString, kind);
        QTemporaryDir root;
        const std::string dir = makeCheckpoint(root.path(), "run-a", 3);
        const std::string path = dir + "/" + file.toStdString();
        QVERIFY(QFile::remove(QString::fromStdString(path)));
        if (kind == QStringLiteral("fifo")) QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
        else QCOMPARE(::symlink("/dev/zero", path.c_str()), 0);
        const QString expect = kind == QStringLiteral("fifo") ? QStringLiteral("is a FIFO, not a regular file") : QStringLiteral("is a device, not a regular file");
        const std::string out = root.filePath(QStringLiteral("model.safetensors")).toStdString();
        const std::vector<std::pair<const char*, std::function<std::string()>>> readers{
            {"verify", [dir] { return verifyCheckpoint(dir).message(); }},
            {"inspect", [dir] { return describeCheckpoint(dir).error(); }},
            {"export", [dir, out] { return exportCheckpoint(dir, out).message(); }},
            {"load", [dir] {
                 const Result<CheckpointIndex> read = readIndex(dir);
                 if (!read) return read.error();
                 const CheckpointIndex& index = read.value();
                 ShardReader reader(dir, index);
                 std::vector<float> rows(static_cast<std::size_t>(index.tensors[0].shape[0] * index.tensors[0].rowNumel()));
                 for (const TensorInfo& t : index.tensors) {
                     rows.resize(static_cast<std::size_t>(t.shape[0] * t.rowNumel()));
                     if (Status rowsRead = reader.readRows(t.name, 0, t.shape[0], rows.data()); !rowsRead) return rowsRead.message();
                 }
                 return std::string();
             }}};
        for (const auto& [what, read] : readers) {
            const std::optional<std::string> err = withTimeout(read, 5000);
            if (!err) {
                unblockFifo(path); // let the stuck reader go before failing
                QFAIL(qPrintable(QStringLiteral("%1 hangs on %2").arg(QLatin1String(what), QString::fromStdString(path))));
            }
            const QString e = QString::fromStdString(*err);
            if (e.isEmpty() && QLatin1String(what) == QLatin1String("inspect") && file.endsWith(QStringLiteral(".safetensors")))
                continue; // inspect reads the index only
            QVERIFY2(e.contains(QString::fromStdString(path)) && e.contains(expect), qPrintable(QLatin1String(what) + QStringLiteral(": ") + e));
        }
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }

    // Export checks every file's size and SHA-256 against the index before it
    // writes anything: damage the shard CRCs do not see (a byte of an optimizer
    // state, which export does not read; bytes added or cut at the end) is
    // refused, the library and the command line alike, and no output is left.
    void exportChecksEveryFilesSizeAndSha256_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("a byte flipped, same size") << QStringLiteral("flip") << QStringLiteral("SHA-256 is ");
        QTest::newRow("truncated") << QStringLiteral("truncate") << QStringLiteral("bytes, the index says");
        QTest::newRow("extended") << QStringLiteral("extend") << QStringLiteral("bytes, the index says");
    }

    void exportChecksEveryFilesSizeAndSha256()
    {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        QTemporaryDir root;
        const std::string dir = makeCheckpoint(root.path(), "run-a", 3);
        const std::string shard = dir + "/rank-00001.safetensors";
        QByteArray bytes = readAll(shard);
        QVERIFY(bytes.size() > 16);
        if (damage == QStringLiteral("flip")) bytes[bytes.size() - 1] = static_cast<char>(bytes[bytes.size() - 1] ^ 0x10); // exp_avg_sq's last float
        else if (damage == QStringLiteral("truncate")) bytes.chop(4);
        else bytes.append(QByteArray(8, '\0'));
        writeAll(shard, bytes);
        const QString out = root.filePath(QStringLiteral("model.safetensors"));
        const QString e = messageOf(exportCheckpoint(dir, out.toStdString()));
        QVERIFY2(e.contains(QString::fromStdString(shard)) && e.contains(message), qPrintable(e));
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(out + QStringLiteral(".tmp")));
        // The command line: a non-zero exit naming the file, and no output.
        QProcess cli;
        cli.start(QDir(QStringLiteral(SB_TEST_BIN_DIR)).filePath(QStringLiteral("shardbench-cli")),
                  {QStringLiteral("checkpoint"), QStringLiteral("export"), QString::fromStdString(dir), QStringLiteral("--quiet"),
                   QStringLiteral("-o"), out});
        QVERIFY(cli.waitForFinished(60000));
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(err.contains(QString::fromStdString(shard)) && err.contains(message), qPrintable(err));
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(out + QStringLiteral(".tmp")));
        // --format hf goes through the same export.
        const QString hfOut = root.filePath(QStringLiteral("hf"));
        cli.start(QDir(QStringLiteral(SB_TEST_BIN_DIR)).filePath(QStringLiteral("shardbench-cli")),
                  {QStringLiteral("checkpoint"), QStringLiteral("export"), QString::fromStdString(dir), QStringLiteral("--quiet"),
                   QStringLiteral("--format"), QStringLiteral("hf"), QStringLiteral("-o"), hfOut});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(QString::fromUtf8(cli.readAllStandardError()).contains(QString::fromStdString(shard)), "hf export");
        QVERIFY(!QFileInfo::exists(hfOut));
        QVERIFY(!QFileInfo::exists(hfOut + QStringLiteral(".core-export.tmp")));
    }

    void runsSharingARootStayApart()
    {
        QTemporaryDir tmp;
        const QString root = tmp.path();
        const std::string a2 = makeCheckpoint(root, "run-a", 2), a4 = makeCheckpoint(root, "run-a", 4);
        const std::string b3 = makeCheckpoint(root, "run-b", 3);
        QCOMPARE(listRunFolders(root.toStdString()), (std::vector<std::string>{"run-a", "run-b"}));
        QCOMPARE(listCheckpoints(root.toStdString() + "/run-a").size(), std::size_t(2));
        // The root holds two runs: which one is "the latest" is the user's to say.
        const Result<std::string> several = resolveCheckpoint(root.toStdString());
        QVERIFY(!several.ok());
        QVERIFY2(QString::fromStdString(several.error()).contains(QStringLiteral("several runs (run-a, run-b)")), several.error().c_str());
        QCOMPARE(resolveCheckpoint(root.toStdString(), "run-b").value(), b3);
        QCOMPARE(resolveCheckpoint(root.toStdString(), "run-a").value(), a4);
        const Result<std::string> noRun = resolveCheckpoint(root.toStdString(), "run-c");
        QVERIFY(!noRun.ok());
        QVERIFY(QString::fromStdString(noRun.error()).contains(QStringLiteral("no complete checkpoint of run run-c")));
        // A run's own folder, and a step folder, name themselves.
        QCOMPARE(resolveCheckpoint(root.toStdString() + "/run-a").value(), a4);
        QCOMPARE(resolveCheckpoint(a2).value(), a2);
        // A root with one run resolves to that run's latest.
        QTemporaryDir single;
        const std::string only = makeCheckpoint(single.path(), "solo", 7);
        QCOMPARE(resolveCheckpoint(single.path().toStdString()).value(), only);
        const Result<CheckpointIndex> index = readIndex(b3);
        QCOMPARE(QString::fromStdString(index.error()), QString());
        QCOMPARE(index.value().runId, std::string("run-b"));
        QVERIFY(isValidRunId("20261123-132658-a1b2c3") && !isValidRunId("../x") && !isValidRunId(".hidden") && !isValidRunId("a/b") &&
                !isValidRunId("") && !isValidRunId("step-000001"));
    }

private:
    // A complete checkpoint of a tiny model (values made up), as `world` ranks
    // save it: root/<runId>/step-NNNNNN with one file per rank and the index.
    static std::string makeCheckpoint(const QString& root, const std::string& runId, std::int64_t step, int world = 2)
    {
        sb::ModelConfig m;
        m.vocabSize = 16;
        m.dim = 8;
        m.nLayers = 1;
        m.nHeads = 2;
        m.nKvHeads = 2;
        m.ffnHidden = 16;
        m.maxSeqLen = 8;
        sb::Plan plan = sb::defaultPlan(m);
        plan.mesh.procsPerNode = world;
        const auto tree = sb::buildModuleTree(plan.model);
        const std::string dir = root.toStdString() + "/" + runId + "/" + stepDirName(step);
        if (!makeDirs(dir).ok()) return {};
        CheckpointIndex index;
        index.step = step;
        index.optimizerStep = step;
        index.worldSize = index.shardSize = world;
        index.nextSample = static_cast<std::uint64_t>(step) * 12;
        index.runId = runId;
        index.plan = sb::planToJson(plan);
        std::map<std::string, TensorInfo> tensors;
        for (int r = 0; r < world; ++r) {
            std::vector<ShardTensor> parts;
            for (const sb::Param& p : tree->params()) {
                if (p.tiedTo >= 0) continue;
                const std::vector<std::int64_t> shape = p.shardedShape();
                const std::int64_t chunk = (shape[0] + world - 1) / world;
                const std::int64_t begin = std::min(shape[0], r * chunk), end = std::min(shape[0], begin + chunk);
                for (const char* kind : {"param/", "exp_avg/", "exp_avg_sq/"}) {
                    parts.push_back({kind + p.path, shape, begin, end, nullptr});
                    tensors[kind + p.path].name = kind + p.path;
                    tensors[kind + p.path].shape = shape;
                }
            }
            ShardImage image(std::move(parts));
            for (std::size_t i = 0; i < image.tensors().size(); ++i)
                for (std::size_t k = 0; k < image.tensors()[i].bytes() / 4; ++k) image.data(i)[k] = static_cast<float>(i * 0.01 + k + r);
            char name[64];
            std::snprintf(name, sizeof name, "rank-%05d.safetensors", r);
            const Result<WrittenFile> shardFile = writeShardFile(dir, name, image);
            if (!shardFile) return {};
            const WrittenFile& written = shardFile.value();
            index.files.push_back(written.file);
            for (const auto& [tensor, ref] : written.shards)
                if (ref.rowEnd > ref.rowBegin) tensors[tensor].shards.push_back(ref);
        }
        for (auto& [name, t] : tensors) index.tensors.push_back(t);
        if (!writeIndex(dir, index)) return {};
        return dir;
    }

    static QByteArray readAll(const std::string& path)
    {
        QFile f(QString::fromStdString(path));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    static void writeAll(const std::string& path, const QByteArray& bytes)
    {
        QFile f(QString::fromStdString(path));
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(bytes);
    }

    // Runs `f` on a thread of its own; nullopt when it is still running after `ms`
    // (the thread is left behind, blocked, and ends with the process).
    static std::optional<std::string> withTimeout(std::function<std::string()> f, int ms)
    {
        auto result = std::make_shared<std::promise<std::string>>();
        std::future<std::string> done = result->get_future();
        std::thread([result, f] { result->set_value(f()); }).detach();
        if (done.wait_for(std::chrono::milliseconds(ms)) != std::future_status::ready) return std::nullopt;
        return done.get();
    }

    // A reader blocked opening a FIFO gets end-of-file once a writer comes and goes.
    static void unblockFifo(const std::string& path)
    {
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
    }

    static std::string randomDigest()
    {
        std::vector<unsigned char> v((5 << 20) + 13);
        std::mt19937 g(7);
        for (auto& x : v) x = static_cast<unsigned char>(g());
        // And both again in one pass, fed in uneven pieces.
        Sha256 h;
        std::uint32_t crc = 0;
        std::size_t at = 0;
        for (std::size_t piece : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{4097}, v.size()}) {
            piece = std::min(piece, v.size() - at);
            h.update(v.data() + at, piece, crc);
            at += piece;
        }
        return sha256Hex(v.data(), v.size()) + "-" + crc32cHex(v.data(), v.size()) + "-" + h.hex() + "-" + crc32cHex(crc);
    }
};

QTEST_GUILESS_MAIN(TestCheckpointFormat)
#include "tst_checkpoint_format.moc"
