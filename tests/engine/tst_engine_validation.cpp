// The validation loss (training.eval): a fixed held-out set, evaluated every
// N steps and after the last, sharded across ranks as training is, without
// gradients. The same number at every world size and in the unsharded
// reference; training's losses are untouched by it, bit for bit; training
// never reads the held-out end of its file; a validation file of its own in
// another format; and the exported FSDP2 script under real PyTorch takes the
// same number.
#include "engine_support.hpp"
#include "script_runner.hpp"

#include <QFile>
#include <QTest>

#include <cmath>

namespace {

QByteArray le(std::uint64_t v, int bytes) { return littleEndian(v, bytes); }

// Token ids that a model can learn something from: short runs of counting.
std::vector<std::uint32_t> tokens(int n, std::uint32_t vocab, std::uint32_t seed)
{
    std::vector<std::uint32_t> ids;
    std::uint32_t x = seed;
    for (int i = 0; i < n; ++i) {
        if (i % 9 == 0) x = x * 1103515245u + 12345u;
        ids.push_back((x / 65536 + static_cast<std::uint32_t>(i % 9)) % vocab);
    }
    return ids;
}

bool write(const QString& path, const std::vector<std::uint32_t>& ids, int width, const QByteArray& header = {})
{
    QByteArray bytes = header;
    for (std::uint32_t id : ids) bytes += le(id, width);
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// The validation losses of rank 0's step events, by step (steps without one are left out).
std::map<int, double> evalLosses(const RankResult& rank)
{
    std::map<int, double> out;
    for (const QJsonObject& e : rank.ofType(QStringLiteral("step")))
        if (e.contains(QStringLiteral("eval_loss")))
            out[e.value(QStringLiteral("step")).toInt()] = e.value(QStringLiteral("eval_loss")).toDouble();
    return out;
}

double worstRelative(const std::map<int, double>& a, const std::map<int, double>& b)
{
    if (a.size() != b.size() || a.empty()) return INFINITY;
    double worst = 0;
    for (const auto& [step, v] : a) {
        const auto it = b.find(step);
        if (it == b.end()) return INFINITY;
        worst = std::max(worst, std::abs(v - it->second) / std::abs(it->second));
    }
    return worst;
}

} // namespace

class TestEngineValidation : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

    QString path(const QString& name) const { return tmp_.filePath(name); }

    // Llama, 6 sequences a micro-batch over all ranks (6 / world each), 2
    // micro-batches, 4 steps, the last 20 % of train.bin held out, evaluated
    // after steps 2 and 4 on 2 batches (12 sequences).
    sb::Plan plan(int world) const
    {
        sb::Plan p = smallPlan("llama3-8b", world, 4);
        p.training.microBatch = 6 / world;
        p.training.data = {sb::DataConfig::Tokens, path(QStringLiteral("train.bin")).toStdString(), sb::DataConfig::TokenDtype::U16};
        p.training.eval.every = 2;
        p.training.eval.batches = 2;
        p.training.eval.holdout = 0.2;
        return p;
    }

    RunResult core(const sb::Plan& p, const QString& name, const QStringList& extra = {})
    {
        const int ranks = extra.contains(QStringLiteral("--reference")) ? 1 : p.mesh.worldSize();
        return LocalRunner::run(ranks, QStringList{QStringLiteral("--plan"), writePlan(tmp_, name + QStringLiteral(".plan.json"), p)} + extra);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        QVERIFY(write(path(QStringLiteral("train.bin")), tokens(5000, 130, 1), 2));
        // A validation file of its own: llm.c's headered uint32 format.
        QByteArray header(1024, '\0');
        header.replace(0, 12, QByteArray(le(20240520, 4) + le(2, 4) + le(900, 4)));
        QVERIFY(write(path(QStringLiteral("val.bin")), tokens(900, 130, 2), 4, header));
    }

    // The held-out set is the same samples whoever reads them: W=1, 2 and 3
    // (6 sequences split 6, 3+3, 2+2+2) and the unsharded reference agree to
    // fp32 rounding, only on the steps that evaluate.
    void sameAtEveryWorldSize()
    {
        const RunResult ref = core(plan(1), QStringLiteral("reference"), {QStringLiteral("--reference")});
        QVERIFY2(ref.ok(), qPrintable(ref.describe()));
        const std::map<int, double> expected = evalLosses(ref.ranks[0]);
        QCOMPARE(expected.size(), std::size_t(2));
        QVERIFY(expected.count(2) && expected.count(4));
        QVERIFY2(expected.at(4) < expected.at(2), "the model learns the counting runs: the validation loss falls");
        // Not the training loss under another name.
        QVERIFY(std::abs(expected.at(4) - losses(ref.ranks[0]).back()) > 1e-4);
        for (int world : {1, 2, 3}) {
            const RunResult r = core(plan(world), QStringLiteral("w%1").arg(world));
            QVERIFY2(r.ok(), qPrintable(r.describe()));
            const double diff = worstRelative(evalLosses(r.ranks[0]), expected);
            // The training losses agree to 1e-6 here; two more steps of AdamW on them
            // stay near that.
            qInfo("W=%d: validation loss within %.2e (relative) of the reference's", world, diff);
            QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("W=%1: relative difference %2").arg(world).arg(diff)));
            // Every rank reports the same number.
            for (const RankResult& rank : r.ranks) QCOMPARE(evalLosses(rank), evalLosses(r.ranks[0]));
            const QJsonObject last = r.ranks[0].ofType(QStringLiteral("step")).back();
            QCOMPARE(last.value(QStringLiteral("eval_perplexity")).toDouble(), std::exp(last.value(QStringLiteral("eval_loss")).toDouble()));
        }
    }

    // Evaluating touches no gradient, optimizer state or training sample: the
    // same run without it trains to the same bits.
    void evaluationLeavesTrainingAlone()
    {
        const sb::Plan with = plan(2);
        sb::Plan without = with;
        without.training.eval = {};
        without.training.data.path = path(QStringLiteral("train-part.bin")).toStdString();
        // The same training tokens: the first 80 % of train.bin (4000 of 5000).
        std::vector<std::uint32_t> part = tokens(5000, 130, 1);
        part.resize(4000);
        QVERIFY(write(path(QStringLiteral("train-part.bin")), part, 2));
        const RunResult a = core(with, QStringLiteral("with"));
        const RunResult b = core(without, QStringLiteral("without"));
        QVERIFY2(a.ok(), qPrintable(a.describe()));
        QVERIFY2(b.ok(), qPrintable(b.describe()));
        QVERIFY(evalLosses(b.ranks[0]).empty());
        QCOMPARE(worstDifference(coreSteps(a.ranks[0]), coreSteps(b.ranks[0])), 0.0);
    }

    // The held-out end of the training file holds ids the model has no row
    // for: training's three steps never meet them, the evaluation after the
    // last does, and names where; without the holdout, training meets them.
    void trainingNeverReadsTheHeldOutEnd()
    {
        std::vector<std::uint32_t> ids = tokens(4000, 130, 3);
        for (std::size_t i = 3000; i < ids.size(); ++i) ids[i] = 200;
        QVERIFY(write(path(QStringLiteral("poisoned.bin")), ids, 2));
        sb::Plan p = plan(1);
        p.training.steps = 3;
        p.training.eval.every = 0;
        p.training.eval.holdout = 0.25; // int(4000 x 0.25) = 1000 tokens
        p.training.data.path = path(QStringLiteral("poisoned.bin")).toStdString();
        const RunResult held = core(p, QStringLiteral("held"));
        QVERIFY(!held.timedOut && !held.ranks[0].crashed);
        QVERIFY(held.ranks[0].exitCode != 0);
        QCOMPARE(held.ranks[0].ofType(QStringLiteral("step")).size(), std::size_t(2)); // the third step's evaluation failed
        QVERIFY2(held.ranks[0].stdErr.contains(QStringLiteral("poisoned.bin: token id 200 at token 3000 ")), qPrintable(held.ranks[0].stdErr));

        p.training.eval = {};
        const RunResult open = core(p, QStringLiteral("open"));
        QVERIFY(open.ranks[0].exitCode != 0);
        QVERIFY2(open.ranks[0].ofType(QStringLiteral("step")).size() < 2, qPrintable(open.ranks[0].stdErr));
    }

    // A validation file of its own, in another format than the training file;
    // one that is missing or too short is refused before the first step.
    void aValidationFileOfItsOwn()
    {
        sb::Plan p = plan(2);
        p.training.eval.holdout = 0;
        p.training.eval.path = path(QStringLiteral("val.bin")).toStdString();
        const RunResult r = core(p, QStringLiteral("own"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::map<int, double> own = evalLosses(r.ranks[0]);
        QCOMPARE(own.size(), std::size_t(2));
        QVERIFY(worstRelative(own, evalLosses(core(plan(2), QStringLiteral("holdout")).ranks[0])) > 1e-4); // other samples

        for (const auto& [file, message] : {std::pair{QStringLiteral("missing.bin"), QStringLiteral("missing.bin")},
                                            std::pair{QStringLiteral("tiny.bin"), QStringLiteral("fewer than one sequence of 17")}}) {
            if (file == QLatin1String("tiny.bin")) QVERIFY(write(path(file), tokens(10, 130, 4), 2));
            p.training.eval.path = path(file).toStdString();
            const RunResult bad = core(p, QStringLiteral("bad-") + file.section(QLatin1Char('.'), 0, 0));
            QVERIFY(!bad.timedOut);
            QCOMPARE(bad.ranks[0].exitCode, 2);
            QVERIFY(bad.ranks[0].ofType(QStringLiteral("step")).empty());
            QVERIFY2(bad.ranks[0].stdErr.contains(message), qPrintable(bad.ranks[0].stdErr));
        }
    }

    // Synthetic data has a held-out stream of its own.
    void syntheticDataHoldsOutItsOwnStream()
    {
        sb::Plan p = smallPlan("gpt2-124m", 2, 6);
        p.training.eval.every = 3;
        p.training.eval.batches = 1;
        const RunResult r = core(p, QStringLiteral("synthetic"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::map<int, double> e = evalLosses(r.ranks[0]);
        QCOMPARE(e.size(), std::size_t(2));
        QVERIFY2(e.at(6) < e.at(3), "the held-out sequences follow the same rule: their loss falls too");
    }

    // The exported FSDP2 script under real PyTorch takes the same validation
    // loss on the same steps.
    void matchesTheExportedScript()
    {
        SB_REQUIRE_TORCH2();
        const sb::Plan p = plan(2);
        const QString script = exportScript(tmp_, p, QStringLiteral("script"));
        QVERIFY(!script.isEmpty());
        const ScriptRun py = runScript(script, 2, QString());
        QVERIFY2(py.exitCode == 0, qPrintable(py.describe()));
        const RunResult r = core(p, QStringLiteral("script-core"));
        QVERIFY2(r.ok(), qPrintable(r.describe()));
        const std::vector<StepLine> mine = coreSteps(r.ranks[0]);
        QCOMPARE(py.steps.size(), mine.size());
        QVERIFY(worstDifference(py.steps, mine) < 1e-4);
        int evaluated = 0;
        for (std::size_t i = 0; i < mine.size(); ++i) {
            QCOMPARE(std::isnan(py.steps[i].evalLoss), std::isnan(mine[i].evalLoss));
            if (std::isnan(mine[i].evalLoss)) continue;
            ++evaluated;
            const double diff = std::abs(py.steps[i].evalLoss - mine[i].evalLoss) / mine[i].evalLoss;
            qInfo("step %zu: the script's validation loss within %.2e (relative) of the core's", i + 1, diff);
            QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("step %1: script %2, core %3").arg(i + 1).arg(py.steps[i].evalLoss).arg(mine[i].evalLoss)));
        }
        QCOMPARE(evaluated, 2);
    }
};

QTEST_GUILESS_MAIN(TestEngineValidation)
#include "tst_engine_validation.moc"
