// The engine's FusedAdamW against LibTorch's torch::optim::AdamW, in process:
// the same parameters, groups (decayed and not), gradients and clipping
// factor, several steps; parameters and both moments must agree to fp32
// rounding (the fused pass may contract multiply-adds as LibTorch's vector
// kernels do), and the state must sit where checkpoints read it.
#include "fused_adamw.hpp"
#include "torch_compat.hpp"

#include <QtTest>

#include <torch/torch.h>

namespace {

struct Set {
    std::vector<torch::Tensor> decayed, kept;
    std::vector<torch::Tensor> all() const
    {
        std::vector<torch::Tensor> v = decayed;
        v.insert(v.end(), kept.begin(), kept.end());
        return v;
    }
};

// Odd sizes on purpose: vector loops must handle their tails.
Set makeSet()
{
    torch::manual_seed(7);
    Set s;
    for (std::vector<std::int64_t> shape : {std::vector<std::int64_t>{37, 29}, {256, 64}, {1000}})
        s.decayed.push_back((torch::randn(shape) * 0.02).set_requires_grad(true));
    for (std::vector<std::int64_t> shape : {std::vector<std::int64_t>{3}, {129}})
        s.kept.push_back((torch::randn(shape) * 0.02).set_requires_grad(true));
    return s;
}

Set copyOf(const Set& s)
{
    Set c;
    for (const auto& t : s.decayed) c.decayed.push_back(t.detach().clone().set_requires_grad(true));
    for (const auto& t : s.kept) c.kept.push_back(t.detach().clone().set_requires_grad(true));
    return c;
}

template <class Optim>
std::unique_ptr<Optim> make(const Set& s)
{
    const auto options = torch::optim::AdamWOptions(1e-3).betas({0.9, 0.95}).eps(1e-8).weight_decay(0.1);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(s.decayed);
    auto noDecay = std::make_unique<torch::optim::AdamWOptions>(options);
    noDecay->weight_decay(0.0);
    groups.emplace_back(s.kept, std::move(noDecay));
    return std::make_unique<Optim>(std::move(groups), options);
}

// fp32 rounding of the terms: relative to the tensor's largest value, since
// m*b1 + (1-b1)*g may cancel to far less than its terms.
bool close(const torch::Tensor& a, const torch::Tensor& b)
{
    const double scale = b.abs().max().item<double>();
    const double diff = (a - b).abs().max().item<double>();
    if (diff > 4e-7 * scale) qWarning("max difference %.3g, largest value %.3g", diff, scale);
    return diff <= 4e-7 * scale;
}

} // namespace

class EngineFusedAdamW : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void matchesLibTorchAdamW_data()
    {
        QTest::addColumn<double>("maxNorm");
        QTest::newRow("clipped") << 0.5;   // the factor is below 1 every step
        QTest::newRow("unclipped") << 1e30; // factor 1: the gradients as they are
    }

    void matchesLibTorchAdamW()
    {
        QFETCH(double, maxNorm);
        torch::NoGradGuard noGrad;
        const Set ref = makeSet();
        const Set fused = copyOf(ref);
        auto libtorch = make<torch::optim::AdamW>(ref);
        auto engine = make<sb::engine::FusedAdamW>(fused);
        for (int step = 0; step < 6; ++step) {
            const auto r = ref.all(), f = fused.all();
            for (std::size_t i = 0; i < r.size(); ++i) {
                torch::Tensor g = torch::randn(r[i].sizes()) * (step + 1);
                r[i].mutable_grad() = g.clone();
                f[i].mutable_grad() = g.clone();
            }
            const double expectedNorm = torch::nn::utils::clip_grad_norm_(r, maxNorm);
            double norm = 0;
            engine->setGradScale(sb::engine::clipFactor(f, maxNorm, norm));
            QCOMPARE(norm, expectedNorm);
            libtorch->step();
            engine->step();
            for (std::size_t i = 0; i < r.size(); ++i) {
                QVERIFY2(close(r[i], f[i]), qPrintable(QStringLiteral("step %1 param %2: max diff %3").arg(step).arg(i).arg(
                                                (r[i] - f[i]).abs().max().item<double>())));
                const auto key = sb::engine::optimizerStateKey(f[i]);
                const auto& fs = static_cast<torch::optim::AdamWParamState&>(*engine->state().at(key));
                const auto& rs = static_cast<torch::optim::AdamWParamState&>(
                    *libtorch->state().at(sb::engine::optimizerStateKey(r[i])));
                QCOMPARE(fs.step(), rs.step());
                QVERIFY(close(fs.exp_avg(), rs.exp_avg()));
                QVERIFY(close(fs.exp_avg_sq(), rs.exp_avg_sq()));
            }
        }
    }

    // The gradients are left unscaled; the scale lasts one step.
    void scaleLastsOneStep()
    {
        torch::NoGradGuard noGrad;
        const Set ref = makeSet();
        const Set fused = copyOf(ref);
        auto libtorch = make<torch::optim::AdamW>(ref);
        auto engine = make<sb::engine::FusedAdamW>(fused);
        const auto r = ref.all(), f = fused.all();
        for (std::size_t i = 0; i < r.size(); ++i) {
            torch::Tensor g = torch::randn(r[i].sizes());
            r[i].mutable_grad() = g * 0.25f;
            f[i].mutable_grad() = g.clone();
        }
        engine->setGradScale(0.25f);
        libtorch->step();
        engine->step();
        for (std::size_t i = 0; i < r.size(); ++i) {
            QVERIFY(close(r[i], f[i]));
            QVERIFY(torch::equal(f[i].grad(), r[i].grad() / 0.25f));
            f[i].mutable_grad() = r[i].grad().clone(); // next step: no scale
        }
        libtorch->step();
        engine->step();
        for (std::size_t i = 0; i < r.size(); ++i) QVERIFY(close(r[i], f[i]));
    }

    void sumOfSquaresMatchesDoubleOps()
    {
        // The in-place pass against the ops it replaces (widen, square, sum),
        // for sizes around its 16 lanes, a gradient-sized buffer, a
        // non-contiguous view and bf16 (which take the ops).
        torch::manual_seed(3);
        for (std::int64_t n : {0, 1, 15, 16, 17, 1000, 786433}) {
            const torch::Tensor t = torch::randn({n}) * 0.01;
            QVERIFY(sb::engine::sumsSquaresInPlace(t));
            const double expected = t.to(torch::kDouble).pow(2).sum().item<double>();
            const double got = sb::engine::sumOfSquares(t);
            QVERIFY2(std::abs(got - expected) <= 1e-12 * std::max(expected, 1e-300) || (n == 0 && got == 0.0),
                     qPrintable(QStringLiteral("n=%1: %2 against %3").arg(n).arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        }
        const torch::Tensor m = torch::randn({64, 48});
        const torch::Tensor strided = m.t();
        QVERIFY(!sb::engine::sumsSquaresInPlace(strided));
        QCOMPARE(sb::engine::sumOfSquares(strided), strided.to(torch::kDouble).pow(2).sum().item<double>());
        const torch::Tensor half = m.to(torch::kBFloat16);
        QVERIFY(!sb::engine::sumsSquaresInPlace(half));
        QCOMPARE(sb::engine::sumOfSquares(half), half.to(torch::kDouble).pow(2).sum().item<double>());
    }
};

QTEST_GUILESS_MAIN(EngineFusedAdamW)
#include "tst_engine_fused_adamw.moc"
