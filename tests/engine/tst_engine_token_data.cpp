// Token files as users have them (core/data/token_file.hpp): nanoGPT's
// headerless uint16/uint32, llm.c's headered .bin and Megatron-LM's
// .bin/.idx pairs, written here byte by byte from their formats. The same
// token stream in each format trains to the same losses, in the core and in
// the exported FSDP2 script under real PyTorch; ids of a 70,000-token
// vocabulary (beyond uint16) are read whole; bad files are refused before
// the first step with a message naming the file; the index reader survives
// fuzzing.
#include "engine_support.hpp"
#include "script_runner.hpp"
#include "data/token_file.hpp"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <sys/stat.h>

namespace {

constexpr std::int64_t kVocab = 70000; // Llama-3-like: needs 32-bit ids

QByteArray le(std::uint64_t v, int bytes) { return littleEndian(v, bytes); }

QByteArray tokenBytes(const std::vector<std::uint32_t>& ids, int width)
{
    QByteArray out;
    for (std::uint32_t id : ids) out.append(le(id, width));
    return out;
}

QByteArray llmcFile(const std::vector<std::uint32_t>& ids, int version, std::int64_t count = -1)
{
    QByteArray header(1024, '\0');
    const QByteArray fields = le(20240520, 4) + le(static_cast<std::uint32_t>(version), 4) +
                              le(static_cast<std::uint32_t>(count < 0 ? static_cast<std::int64_t>(ids.size()) : count), 4);
    header.replace(0, 12, fields);
    return header + tokenBytes(ids, version == 1 ? 2 : 4);
}

// Megatron's index of `ids` cut into `docs` documents of one sequence each.
QByteArray megatronIndex(std::size_t tokens, int docs, int code, int width)
{
    QByteArray idx("MMIDIDX\0\0", 9);
    idx += le(1, 8) + le(static_cast<std::uint64_t>(code), 1) + le(static_cast<std::uint64_t>(docs), 8) + le(static_cast<std::uint64_t>(docs) + 1, 8);
    std::vector<std::uint64_t> lengths;
    for (int d = 0; d < docs; ++d) lengths.push_back(tokens / docs + (d == docs - 1 ? tokens % docs : 0));
    for (std::uint64_t l : lengths) idx += le(l, 4);
    std::uint64_t at = 0;
    for (std::uint64_t l : lengths) {
        idx += le(at, 8);
        at += l * static_cast<std::uint64_t>(width);
    }
    for (int d = 0; d <= docs; ++d) idx += le(static_cast<std::uint64_t>(d), 8);
    return idx;
}

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

std::vector<std::uint32_t> randomIds(int n, std::uint32_t below, quint32 seed)
{
    QRandomGenerator random(seed);
    std::vector<std::uint32_t> ids;
    for (int i = 0; i < n; ++i) ids.push_back(random.bounded(below));
    return ids;
}

} // namespace

class TestEngineTokenData : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    QString path(const QString& name) const { return tmp_.filePath(name); }

    sb::Plan plan(const QString& data, int world = 1, sb::DataConfig::TokenDtype dtype = sb::DataConfig::TokenDtype::Auto) const
    {
        sb::Plan p = smallPlan("llama3-8b", world, 3);
        p.model.vocabSize = kVocab;
        p.training.data = {sb::DataConfig::Tokens, data.toStdString(), dtype};
        return p;
    }

    RunResult core(const sb::Plan& p, const QString& name)
    {
        return LocalRunner::run(p.mesh.worldSize(), {QStringLiteral("--plan"), writePlan(tmp_, name + QStringLiteral(".plan.json"), p)});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        const std::vector<std::uint32_t> ids = randomIds(3000, kVocab, 20261129);
        QVERIFY(write(path(QStringLiteral("plain32.bin")), tokenBytes(ids, 4)));
        QVERIFY(write(path(QStringLiteral("llmc32.bin")), llmcFile(ids, 2)));
        QVERIFY(write(path(QStringLiteral("mega32.bin")), tokenBytes(ids, 4)));
        QVERIFY(write(path(QStringLiteral("mega32.idx")), megatronIndex(ids.size(), 7, 4, 4)));
        const std::vector<std::uint32_t> small = randomIds(3000, 60000, 7);
        QVERIFY(write(path(QStringLiteral("plain16.bin")), tokenBytes(small, 2)));
        QVERIFY(write(path(QStringLiteral("llmc16.bin")), llmcFile(small, 1)));
        QVERIFY(write(path(QStringLiteral("mega16.bin")), tokenBytes(small, 2)));
        QVERIFY(write(path(QStringLiteral("mega16.idx")), megatronIndex(small.size(), 3, 8, 2)));
    }

    // What the reader makes of each format: where the tokens start, how many,
    // how wide, whatever name of a Megatron pair is given.
    void recognisesEachFormat_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("width");
        QTest::addColumn<qint64>("offset");
        QTest::newRow("headerless, auto: uint32 for a 70,000 vocabulary") << QStringLiteral("plain32.bin") << QStringLiteral("headerless") << 4 << qint64(0);
        QTest::newRow("llm.c version 2 (uint32)") << QStringLiteral("llmc32.bin") << QStringLiteral("llm.c") << 4 << qint64(1024);
        QTest::newRow("llm.c version 1 (uint16)") << QStringLiteral("llmc16.bin") << QStringLiteral("llm.c") << 2 << qint64(1024);
        QTest::newRow("megatron by its .bin") << QStringLiteral("mega32.bin") << QStringLiteral("megatron") << 4 << qint64(0);
        QTest::newRow("megatron by its .idx") << QStringLiteral("mega32.idx") << QStringLiteral("megatron") << 4 << qint64(0);
        QTest::newRow("megatron by its prefix") << QStringLiteral("mega16") << QStringLiteral("megatron") << 2 << qint64(0);
    }

    void recognisesEachFormat()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(int, width);
        QFETCH(qint64, offset);
        const sb::Result<sb::data::TokenFile> f = sb::data::openTokenFile(path(file).toStdString(), sb::DataConfig::TokenDtype::Auto, kVocab);
        QVERIFY2(f, f ? "" : f.status().message().c_str());
        QCOMPARE(QString::fromStdString(f.value().format), format);
        QCOMPARE(f.value().width, width);
        QCOMPARE(static_cast<qint64>(f.value().offset), offset);
        QCOMPARE(f.value().tokens, std::uint64_t(3000));
    }

    // The same stream in each format: the same windows, so the same losses,
    // at W=1 and W=2; and the exported script under real FSDP2 reads the
    // llm.c and Megatron files to the core's losses.
    void formatsTrainAlike()
    {
        std::vector<double> reference;
        for (int world : {1, 2}) {
            std::vector<double> first;
            for (const char* file : {"plain32.bin", "llmc32.bin", "mega32.bin", "mega32"}) {
                const RunResult r = core(plan(path(QLatin1String(file)), world), QStringLiteral("alike-%1-%2").arg(world).arg(QLatin1String(file)));
                QVERIFY2(r.ok(), qPrintable(r.describe()));
                const std::vector<double> l = losses(r.ranks[0]);
                QCOMPARE(l.size(), std::size_t(3));
                if (first.empty()) first = l;
                QVERIFY2(maxRelativeDifference(l, first) == 0, file); // the same tokens: the same bits
            }
            if (reference.empty()) reference = first; // W=1's (W=2's steps take twice the samples)
        }
        // uint16 streams: headerless (a 70,000 vocabulary needs the plan to say uint16), llm.c v1, Megatron uint16.
        std::vector<double> narrow;
        for (const char* file : {"plain16.bin", "llmc16.bin", "mega16.idx"}) {
            const RunResult r = core(plan(path(QLatin1String(file)), 1, sb::DataConfig::TokenDtype::U16), QStringLiteral("narrow-%1").arg(QLatin1String(file)));
            QVERIFY2(r.ok(), qPrintable(r.describe()));
            if (narrow.empty()) narrow = losses(r.ranks[0]);
            QVERIFY2(maxRelativeDifference(losses(r.ranks[0]), narrow) == 0, file);
        }
        QVERIFY(maxRelativeDifference(narrow, reference) > 1e-6); // another stream: the comparison above has teeth

        if (!haveTorch2()) {
            if (qEnvironmentVariableIsSet("CI")) QFAIL("SB_PYTHON lacks PyTorch 2.x (scripts/install-deps.sh)");
            QSKIP("SB_PYTHON lacks PyTorch 2.x");
        }
        for (const char* file : {"llmc32.bin", "mega32.idx"}) {
            const sb::Plan p = plan(path(QLatin1String(file)), 2);
            const QString name = QStringLiteral("script-%1").arg(QLatin1String(file)).replace(QLatin1Char('.'), QLatin1Char('-'));
            const QString script = exportScript(tmp_, p, name);
            QVERIFY(!script.isEmpty());
            const ScriptRun py = runScript(script, 2, QString());
            QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
            const RunResult r = core(p, name + QStringLiteral("-core"));
            QVERIFY2(r.ok(), qPrintable(r.describe()));
            const double diff = worstDifference(py.steps, coreSteps(r.ranks[0]));
            // Other tokens move the loss by 1e-3 or more; fp32 rounding of a 70,000-row
            // vocabulary's logits between two implementations stays near 1e-5.
            QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("%1: relative difference %2").arg(QLatin1String(file)).arg(diff)));
        }
    }

    // A glob pattern, as llm.c's loaders take "fineweb_train_*.bin": the files
    // it matches, in name order, are one stream, each in its own format (llm.c,
    // Megatron pairs, headerless), windows running from one file into the
    // next (30 files of 100 tokens: nearly every window of 17 crosses one).
    // The same losses as the whole stream in one file, in the core and in the
    // exported script; a pattern that matches nothing is refused.
    void aGlobReadsItsFilesAsOneStream()
    {
        const std::vector<std::uint32_t> ids = randomIds(3000, kVocab, 20261129); // plain32.bin's
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("shards")));
        for (int f = 0; f < 30; ++f) {
            const std::vector<std::uint32_t> part(ids.begin() + f * 100, ids.begin() + (f + 1) * 100);
            const QString stem = path(QStringLiteral("shards/train_%1").arg(f, 3, 10, QLatin1Char('0')));
            if (f % 3 == 0) QVERIFY(write(stem + QStringLiteral(".bin"), llmcFile(part, 2)));
            if (f % 3 == 1) {
                QVERIFY(write(stem + QStringLiteral(".bin"), tokenBytes(part, 4)));
                QVERIFY(write(stem + QStringLiteral(".idx"), megatronIndex(part.size(), 2, 4, 4)));
            }
            if (f % 3 == 2) QVERIFY(write(stem + QStringLiteral(".bin"), llmcFile(part, 2)));
        }
        QVERIFY(write(path(QStringLiteral("shards/notes.txt")), "not matched"));
        const QString pattern = path(QStringLiteral("shards/train_*"));
        const sb::Result<std::vector<std::string>> files = sb::data::dataFiles(pattern.toStdString());
        QVERIFY(files);
        QCOMPARE(files.value().size(), std::size_t(30)); // each Megatron pair once
        QVERIFY(QString::fromStdString(files.value()[1]).endsWith(QStringLiteral("train_001.bin")));

        const RunResult whole = core(plan(path(QStringLiteral("plain32.bin")), 2), QStringLiteral("glob-whole"));
        const RunResult glob = core(plan(pattern, 2), QStringLiteral("glob"));
        QVERIFY2(whole.ok() && glob.ok(), qPrintable(whole.describe() + glob.describe()));
        QCOMPARE(maxRelativeDifference(losses(glob.ranks[0]), losses(whole.ranks[0])), 0.0);

        const RunResult none = core(plan(path(QStringLiteral("shards/val_*.bin")), 1), QStringLiteral("glob-none"));
        QCOMPARE(none.ranks[0].exitCode, 2);
        QVERIFY2(none.ranks[0].stdErr.contains(QStringLiteral("no file matches the data pattern")), qPrintable(none.ranks[0].stdErr));

        if (!haveTorch2()) {
            if (qEnvironmentVariableIsSet("CI")) QFAIL("SB_PYTHON lacks PyTorch 2.x (scripts/install-deps.sh)");
            QSKIP("SB_PYTHON lacks PyTorch 2.x");
        }
        const sb::Plan p = plan(pattern, 2);
        const QString script = exportScript(tmp_, p, QStringLiteral("script-glob"));
        QVERIFY(!script.isEmpty());
        const ScriptRun py = runScript(script, 2, QString());
        QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
        const double diff = worstDifference(py.steps, coreSteps(glob.ranks[0]));
        QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("relative difference %1").arg(diff)));
    }

    // A token id the model has no row for: refused naming the file, the token
    // and its byte, not an index error inside the embedding.
    void anIdBeyondTheVocabularyNamesItsPlace()
    {
        std::vector<std::uint32_t> ids(100, 5);
        ids[40] = kVocab + 5;
        QVERIFY(write(path(QStringLiteral("beyond.bin")), llmcFile(ids, 2)));
        sb::Plan p = plan(path(QStringLiteral("beyond.bin")));
        p.training.seqLen = 97; // every window covers token 40
        p.training.microBatch = 1;
        p.training.gradAccum = 1;
        const RunResult r = core(p, QStringLiteral("beyond"));
        QVERIFY(!r.timedOut && !r.ranks[0].crashed);
        QCOMPARE(r.ranks[0].exitCode, 2); // bad input: a restart would read the same token again
        QVERIFY(r.ranks[0].ofType(QStringLiteral("step")).empty());
        const QString e = r.ranks[0].stdErr;
        QVERIFY2(e.contains(QStringLiteral("beyond.bin")) && e.contains(QStringLiteral("token id 70005 at token 40 (byte 1184)")), qPrintable(e));
    }

    void badFilesAreRefusedBeforeTheFirstStep_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("dtype");
        const std::vector<std::uint32_t> ids = randomIds(200, 1000, 3);
        auto make = [&](const char* name, const QByteArray& bytes) { QVERIFY(write(path(QLatin1String(name)), bytes)); };
        make("llmc-v7.bin", llmcFile(ids, 7));
        make("llmc-short.bin", llmcFile(ids, 2, 500));
        make("odd.bin", tokenBytes(ids, 4) + QByteArray(2, '\0'));
        make("badmagic.bin", tokenBytes(ids, 4));
        make("badmagic.idx", QByteArray("NOTANIDX!") + megatronIndex(ids.size(), 2, 4, 4).mid(9));
        make("short.bin", tokenBytes(ids, 4).left(400));
        make("short.idx", megatronIndex(ids.size(), 2, 4, 4));
        make("lying.bin", tokenBytes(ids, 4));
        make("lying.idx", megatronIndex(ids.size(), 2, 4, 4).replace(18, 8, QByteArray(le(1000000, 8))));
        make("float.bin", tokenBytes(ids, 4));
        make("float.idx", megatronIndex(ids.size(), 2, 6, 4));
        make("nobin.idx", megatronIndex(ids.size(), 2, 4, 4));
        QVERIFY(QDir(tmp_.path()).mkpath(QStringLiteral("adir")));
        QVERIFY(::mkfifo(path(QStringLiteral("fifo.bin")).toLocal8Bit().constData(), 0600) == 0);
        const int dflt = static_cast<int>(sb::DataConfig::TokenDtype::Auto), u32 = static_cast<int>(sb::DataConfig::TokenDtype::U32);
        QTest::newRow("llm.c version 7") << QStringLiteral("llmc-v7.bin") << QStringLiteral("version 7") << dflt;
        QTest::newRow("llm.c header counts more than the file holds") << QStringLiteral("llmc-short.bin") << QStringLiteral("header counts 500 tokens") << dflt;
        QTest::newRow("headerless uint32 with a stray half token") << QStringLiteral("odd.bin") << QStringLiteral("whole number of uint32 tokens") << dflt;
        QTest::newRow("megatron index with another magic") << QStringLiteral("badmagic.idx") << QStringLiteral("not a Megatron index") << dflt;
        QTest::newRow("megatron index past the end of its .bin") << QStringLiteral("short.bin") << QStringLiteral("does not end where") << dflt;
        QTest::newRow("megatron counts that do not fit the index") << QStringLiteral("lying.idx") << QStringLiteral("do not match the index's size") << dflt;
        QTest::newRow("megatron float64 tokens") << QStringLiteral("float.idx") << QStringLiteral("token dtype code 6") << dflt;
        QTest::newRow("megatron index without its .bin") << QStringLiteral("nobin.idx") << QStringLiteral("nobin.bin") << dflt;
        QTest::newRow("llm.c uint16 file, plan says uint32") << QStringLiteral("llmc16.bin") << QStringLiteral("training.data.dtype is uint32") << u32;
        QTest::newRow("a directory") << QStringLiteral("adir") << QStringLiteral("is not a regular file") << dflt;
        QTest::newRow("a FIFO (never read: it would block)") << QStringLiteral("fifo.bin") << QStringLiteral("is not a regular file") << dflt;
    }

    void badFilesAreRefusedBeforeTheFirstStep()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        QFETCH(int, dtype);
        const RunResult r = core(plan(path(file), 1, static_cast<sb::DataConfig::TokenDtype>(dtype)), QStringLiteral("bad-") + QString(file).replace(QLatin1Char('.'), QLatin1Char('-')));
        QVERIFY(!r.timedOut);
        QCOMPARE(r.ranks[0].exitCode, 2);
        QVERIFY(r.ranks[0].ofType(QStringLiteral("step")).empty());
        const QString stem = file.section(QLatin1Char('.'), 0, 0);
        QVERIFY2(r.ranks[0].stdErr.contains(message) && r.ranks[0].stdErr.contains(stem), qPrintable(r.ranks[0].stdErr));
    }

    // Random damage to a valid index (flipped bytes, cut or grown files):
    // the reader answers every time, and what it accepts lies inside its .bin.
    void fuzzedIndexNeverMisleads()
    {
        const QByteArray good = megatronIndex(3000, 7, 4, 4);
        const QString idx = path(QStringLiteral("fuzz.idx")), bin = path(QStringLiteral("fuzz.bin"));
        QVERIFY(QFile::copy(path(QStringLiteral("mega32.bin")), bin));
        QRandomGenerator random(99);
        int accepted = 0;
        for (int round = 0; round < 3000; ++round) {
            QByteArray bytes = good;
            const int kind = random.bounded(4);
            if (kind == 0) bytes.truncate(random.bounded(bytes.size()));
            if (kind == 1) bytes.append(QByteArray(random.bounded(1, 64), static_cast<char>(random.bounded(256))));
            for (int flips = kind >= 2 ? random.bounded(1, 6) : 0; flips > 0; --flips)
                bytes[random.bounded(bytes.size())] = static_cast<char>(random.bounded(256));
            QVERIFY(write(idx, bytes));
            const auto f = sb::data::openTokenFile(idx.toStdString(), sb::DataConfig::TokenDtype::Auto, kVocab);
            if (!f) continue;
            ++accepted;
            QVERIFY(f.value().offset + f.value().tokens * static_cast<std::uint64_t>(f.value().width) <= 3000 * 4);
        }
        qInfo("%d of 3000 damaged indexes accepted (damage in lengths or pointers of the middle, which sampling never reads)", accepted);
    }
};

QTEST_GUILESS_MAIN(TestEngineTokenData)
#include "tst_engine_token_data.moc"
