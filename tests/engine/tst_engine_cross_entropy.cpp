// The engine's fused cross-entropy (cross_entropy.hpp) against LibTorch's
// log_softmax and nll_loss in double on the same logits, loss and gradient,
// fp32 and bf16, for vocabularies around the 16-lane width and the bench's
// 1024; against the fp32 ATen route it replaces (SB_CROSS_ENTROPY=reference)
// within fp32 rounding. A bf16 gradient is the fp32 pass's gradient of the
// widened logits rounded once. A NaN logit makes the loss NaN; -inf logits get
// probability 0; a target outside the vocabulary is refused with its row
// named; what the pass does not take goes through ATen and still works.
#include "cross_entropy.hpp"

#include <QtTest>

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

using sb::engine::crossEntropyLoss;

namespace {

struct Result {
    torch::Tensor loss, grad;
};

template <typename F> Result run(F f, const torch::Tensor& logits, const torch::Tensor& targets, double g = 1.0)
{
    const torch::Tensor leaf = logits.detach().clone().requires_grad_(true);
    const torch::Tensor loss = f(leaf, targets);
    const torch::Tensor grad = torch::autograd::grad({loss}, {leaf}, {torch::full({}, g, loss.options())})[0];
    return {loss.detach(), grad};
}

Result fused(const torch::Tensor& logits, const torch::Tensor& targets, double g = 1.0)
{
    return run([](const torch::Tensor& l, const torch::Tensor& t) { return crossEntropyLoss(l, t); }, logits, targets, g);
}

Result inDouble(const torch::Tensor& logits, const torch::Tensor& targets, double g = 1.0)
{
    return run([](const torch::Tensor& l, const torch::Tensor& t) {
                   return torch::nll_loss(torch::log_softmax(l.reshape({-1, l.size(-1)}), -1), t.reshape({-1}));
               },
               logits.to(torch::kDouble), targets, g);
}

// The route the trainer took before: cast to fp32, then ATen.
Result throughAten(const torch::Tensor& logits, const torch::Tensor& targets)
{
    setenv("SB_CROSS_ENTROPY", "reference", 1);
    const Result r = fused(logits, targets);
    unsetenv("SB_CROSS_ENTROPY");
    return r;
}

double maxAbs(const torch::Tensor& a, const torch::Tensor& b)
{
    return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
}

} // namespace

class EngineCrossEntropy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void initTestCase()
    {
        if (sb::engine::referenceCrossEntropyForced()) QSKIP("SB_CROSS_ENTROPY=reference turns the pass off");
        torch::manual_seed(11);
    }

    void matchesDouble_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("vocab");
        QTest::addColumn<double>("spread");
        QTest::addColumn<bool>("bf16");
        for (const bool bf16 : {false, true}) {
            const QLatin1String t(bf16 ? "bf16" : "fp32");
            QTest::newRow(qPrintable(QStringLiteral("%1 one class").arg(t))) << 3 << 1 << 1.0 << bf16;
            QTest::newRow(qPrintable(QStringLiteral("%1 vocab 17").arg(t))) << 9 << 17 << 2.0 << bf16;
            QTest::newRow(qPrintable(QStringLiteral("%1 vocab 16").arg(t))) << 4 << 16 << 2.0 << bf16;
            QTest::newRow(qPrintable(QStringLiteral("%1 bench 512x1024").arg(t))) << 512 << 1024 << 1.0 << bf16;
            QTest::newRow(qPrintable(QStringLiteral("%1 wide logits").arg(t))) << 33 << 1000 << 30.0 << bf16;
        }
    }

    // Loss within fp32 rounding of the double computation on the same logits
    // (relative 1e-6); the gradient within a few fp32 ulps of its scale, and
    // for bf16 within one bf16 rounding of each element.
    void matchesDouble()
    {
        QFETCH(int, rows);
        QFETCH(int, vocab);
        QFETCH(double, spread);
        QFETCH(bool, bf16);
        const torch::Tensor logits = (torch::randn({rows, vocab}, torch::kDouble) * spread + 3.0).to(bf16 ? torch::kBFloat16 : torch::kFloat);
        const torch::Tensor targets = torch::randint(0, vocab, {rows}, torch::kLong);
        const Result got = fused(logits, targets, 0.75), want = inDouble(logits, targets, 0.75);
        QCOMPARE(got.loss.scalar_type(), torch::kFloat);
        QCOMPARE(got.loss.dim(), 0);
        QCOMPARE(got.grad.scalar_type(), logits.scalar_type());
        const double loss = want.loss.item<double>();
        QVERIFY2(std::abs(got.loss.item<double>() - loss) <= 1e-6 * std::max(1.0, std::abs(loss)),
                 qPrintable(QStringLiteral("%1 against %2").arg(got.loss.item<double>(), 0, 'g', 10).arg(loss, 0, 'g', 10)));
        const double scale = want.grad.abs().max().item<double>();
        const torch::Tensor err = (got.grad.to(torch::kDouble) - want.grad).abs();
        const double relative = bf16 ? std::ldexp(1.0, -8) : 0.0;
        const double beyond = (err - want.grad.abs() * relative - 4e-7 * scale).max().item<double>();
        QVERIFY2(beyond <= 0, qPrintable(QString::number(beyond)));
        // Rows of the gradient sum to zero (softmax minus one-hot), up to rounding.
        QVERIFY(got.grad.to(torch::kDouble).sum(1).abs().max().item<double>() <= (bf16 ? 1e-2 : 1e-6) * scale * vocab);
    }

    // The ATen route the pass replaces: the same loss to fp32 rounding and
    // gradients a few fp32 ulps apart (exp's and the sums' order differ).
    void closeToTheAtenRoute()
    {
        for (const auto dtype : {torch::kFloat, torch::kBFloat16}) {
            const torch::Tensor logits = (torch::randn({256, 1000}) * 2).to(dtype);
            const torch::Tensor targets = torch::randint(0, 1000, {2, 128}, torch::kLong).reshape({256});
            const Result got = fused(logits, targets), old = throughAten(logits, targets);
            QVERIFY(std::abs(got.loss.item<double>() - old.loss.item<double>()) <= 1e-6 * old.loss.item<double>());
            const double scale = old.grad.abs().max().item<double>();
            QVERIFY2(maxAbs(got.grad, old.grad) <= (dtype == torch::kFloat ? 1e-6 : std::ldexp(1.0, -7)) * scale,
                     qPrintable(QString::number(maxAbs(got.grad, old.grad) / scale)));
        }
    }

    // bf16: the fp32 pass on the widened logits, rounded once to nearest even.
    void bf16GradientIsOneRounding()
    {
        const torch::Tensor logits = (torch::randn({64, 1024}) * 3).to(torch::kBFloat16);
        const torch::Tensor targets = torch::randint(0, 1024, {64}, torch::kLong);
        const Result narrow = fused(logits, targets), wide = fused(logits.to(torch::kFloat), targets);
        QCOMPARE(narrow.loss.item<float>(), wide.loss.item<float>());
        QVERIFY(torch::equal(narrow.grad, wide.grad.to(torch::kBFloat16)));
    }

    // The logits' batch and sequence dimensions flatten into rows, as the
    // trainer's [B, S, V] logits against [B, S] targets.
    void leadingDimensionsAreRows()
    {
        const torch::Tensor logits = torch::randn({2, 5, 40});
        const torch::Tensor targets = torch::randint(0, 40, {2, 5}, torch::kLong);
        const Result got = fused(logits, targets), flat = fused(logits.reshape({10, 40}), targets.reshape({10}));
        QCOMPARE(got.grad.sizes(), logits.sizes());
        QCOMPARE(got.loss.item<float>(), flat.loss.item<float>());
        QVERIFY(torch::equal(got.grad.reshape({10, 40}), flat.grad));
    }

    // Rows split over threads: the same bits as one thread (the mean is summed in row order).
    void threadsGiveTheSameBits()
    {
        const torch::Tensor logits = torch::randn({1037, 300}).to(torch::kBFloat16);
        const torch::Tensor targets = torch::randint(0, 300, {1037}, torch::kLong);
        const int threads = at::get_num_threads();
        at::set_num_threads(3);
        const Result many = fused(logits, targets);
        at::set_num_threads(1);
        const Result one = fused(logits, targets);
        at::set_num_threads(threads);
        QCOMPARE(many.loss.item<float>(), one.loss.item<float>());
        QVERIFY(torch::equal(many.grad, one.grad));
    }

    void nanAndInfinities()
    {
        torch::Tensor logits = torch::randn({4, 50});
        logits[1][7] = std::numeric_limits<float>::quiet_NaN();
        QVERIFY(std::isnan(fused(logits, torch::randint(0, 50, {4}, torch::kLong)).loss.item<float>()));
        // -inf logits (masked classes): probability 0, gradient 0, the loss finite.
        torch::Tensor masked = torch::randn({4, 50});
        masked.narrow(1, 30, 20).fill_(-std::numeric_limits<float>::infinity());
        const torch::Tensor targets = torch::randint(0, 30, {4}, torch::kLong);
        const Result got = fused(masked, targets), want = inDouble(masked, targets);
        QVERIFY(std::isfinite(got.loss.item<float>()));
        QVERIFY(std::abs(got.loss.item<double>() - want.loss.item<double>()) <= 1e-6 * want.loss.item<double>());
        QVERIFY(torch::equal(got.grad.narrow(1, 30, 20), torch::zeros({4, 20})));
    }

    // A token id at or past the vocabulary (a data file for another
    // tokenizer) is refused, naming the id and the row, before anything is computed.
    void targetOutsideTheVocabularyIsRefused()
    {
        for (const std::int64_t bad : {std::int64_t{50}, std::int64_t{-1}, std::int64_t{1} << 40}) {
            torch::Tensor targets = torch::randint(0, 50, {6}, torch::kLong);
            targets[4] = bad;
            try {
                fused(torch::randn({6, 50}), targets);
                QFAIL("an out-of-range target was accepted");
            } catch (const c10::Error& e) {
                const std::string what = e.what_without_backtrace();
                QVERIFY2(what.find("target " + std::to_string(bad) + " of row 4") != std::string::npos, what.c_str());
                QVERIFY2(what.find("[0, 50)") != std::string::npos, what.c_str());
            }
        }
        // Targets that do not match the logits' rows.
        bool refused = false;
        try {
            fused(torch::randn({6, 50}), torch::zeros({5}, torch::kLong));
        } catch (const c10::Error& e) {
            refused = std::string(e.what_without_backtrace()).find("5 targets for logits of shape") != std::string::npos;
        }
        QVERIFY(refused);
    }

    // What the pass does not take (double logits, a strided view) is ATen's
    // route: same loss as the double reference.
    void fallbacksWork()
    {
        const torch::Tensor d = torch::randn({8, 30}, torch::kDouble);
        const torch::Tensor targets = torch::randint(0, 30, {8}, torch::kLong);
        QVERIFY(maxAbs(fused(d, targets).loss, inDouble(d, targets).loss) <= 1e-6);
        const torch::Tensor strided = torch::randn({30, 8}).t();
        QVERIFY(!strided.is_contiguous());
        const Result got = fused(strided, targets), want = inDouble(strided, targets);
        QVERIFY(maxAbs(got.loss, want.loss) <= 1e-5);
        QVERIFY(maxAbs(got.grad, want.grad) <= 1e-6);
        {
            torch::NoGradGuard off; // no graph: the loss alone
            QVERIFY(!crossEntropyLoss(torch::randn({4, 30}), targets.narrow(0, 0, 4)).requires_grad());
        }
    }
};

QTEST_GUILESS_MAIN(EngineCrossEntropy)
#include "tst_engine_cross_entropy.moc"
