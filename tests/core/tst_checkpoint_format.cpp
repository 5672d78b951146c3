// The Torch-free checkpoint format pieces: SHA-256 against published test
// vectors (both the SHA-NI and the portable path, alone and with the CRC-32C
// folded in), page-aligned durable writes (O_DIRECT and the fallback),
// safetensors round trip,
// and the index's refusal of malformed or unknown-version files.
#include "checkpoint/checkpoint_index.hpp"
#include "checkpoint/checkpoint_io.hpp"
#include "checkpoint/crc32c.hpp"
#include "checkpoint/fs_util.hpp"
#include "checkpoint/safetensors.hpp"
#include "checkpoint/sha256.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

using namespace sb::ckpt;

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
            QCOMPARE(QString::fromStdString(writeAlignedFileDurably(path.toStdString(), raw, bytes)), QString());
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
        QCOMPARE(QString::fromStdString(w.open(path, {{"a", "F32", {2, 3}, 0, 24}, {"b", "F32", {1}, 24, 28}}, {{"k", "v"}})), QString());
        QVERIFY(w.write(a.data(), 24).empty());
        QVERIFY(w.write(b.data(), 4).empty());
        QCOMPARE(QString::fromStdString(w.close()), QString());
        std::string err;
        QCOMPARE(QString::fromStdString(sha256File(path, err)), QString::fromStdString(w.sha256()));
        SafetensorsFile f;
        QCOMPARE(QString::fromStdString(readSafetensorsHeader(path, f)), QString());
        QCOMPARE(f.entries.size(), std::size_t(2));
        QCOMPARE(f.metadata.at("k"), std::string("v"));
        QCOMPARE(f.dataStart % 8, std::uint64_t(0)); // aligned header, as the specification asks
        // A declared size that the data does not fill is refused.
        SafetensorsWriter shortW;
        QVERIFY(shortW.open(path, {{"a", "F32", {2}, 0, 8}}, {}).empty());
        QVERIFY(shortW.write(a.data(), 4).empty());
        QVERIFY(!shortW.close().empty());
    }

    void indexRefusesBadInput_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << QStringLiteral("[]") << QStringLiteral("not a JSON object");
        QTest::newRow("wrong format") << QStringLiteral("{\"format\":\"x\",\"version\":1}") << QStringLiteral("format");
        QTest::newRow("future version") << QStringLiteral("{\"format\":\"shardbench-checkpoint\",\"version\":2}") << QStringLiteral("version 2 is not supported");
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
        CheckpointIndex index;
        const QString err = QString::fromStdString(CheckpointIndex::fromJson(*parsed.value, index));
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
        CheckpointIndex index;
        const QString err = QString::fromStdString(readIndex(dir.path().toStdString(), index));
        QVERIFY2(err.contains(message), qPrintable(err));
    }

private:
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
