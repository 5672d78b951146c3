// The engine's bf16 layer norm (layer_norm.hpp) against layer norm computed
// in double by LibTorch from the same bf16 values, forward and backward (x, w
// and b), for row widths around the 16-lane vector width and the bench's 256.
// Each result is one bf16 rounding of an fp32 computation: within 2^-8 of the
// double value relative to itself, plus an fp32 error term relative to the
// largest value of that result (backward's dx subtracts near-equal terms).
// Against the fp32 route it replaces (ATen through fp32, rounded once): within
// one bf16 step. Rows are independent (a NaN stays in its row; a constant row
// gives b and a finite gradient); dw and db are the same bits on every call with
// the same threads; what the pass does not take is ATen's route, bit for bit.
#include "layer_norm.hpp"

#include <QtTest>

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>

using sb::engine::applyLayerNorm;

namespace {

constexpr double kEps = 1e-5;

struct Result {
    torch::Tensor y, dx, dw, db;
};

// Forward and backward of f on fresh leaves copied from x, w, b, with dy.
template <typename F>
Result run(F f, const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, const torch::Tensor& dy)
{
    const torch::Tensor xl = x.detach().clone().requires_grad_(true), wl = w.detach().clone().requires_grad_(true),
                        bl = b.detach().clone().requires_grad_(true);
    const torch::Tensor y = f(xl, wl, bl);
    const auto g = torch::autograd::grad({y}, {xl, wl, bl}, {dy.to(y.scalar_type())});
    return {y.detach(), g[0], g[1], g[2]};
}

Result ours(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, const torch::Tensor& dy)
{
    return run([](auto& a, auto& c, auto& d) { return applyLayerNorm(a, c, d, kEps); }, x, w, b, dy);
}

Result inDouble(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, const torch::Tensor& dy)
{
    const auto d = torch::kDouble;
    return run([](auto& a, auto& c, auto& e) { return torch::layer_norm(a, {a.size(-1)}, c, e, kEps); }, x.to(d), w.to(d),
               b.to(d), dy.to(d));
}

// The fp32 route the model took before this pass.
Result throughFp32(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, const torch::Tensor& dy)
{
    return run([](auto& a, auto& c, auto& e) {
                   return torch::layer_norm(a.to(torch::kFloat), {a.size(-1)}, c.to(torch::kFloat), e.to(torch::kFloat), kEps)
                       .to(a.scalar_type());
               },
               x, w, b, dy);
}

// Largest |got - want| beyond relative * |want| + absolute * max |want| (at
// least 1e-6: a result that is 0 in exact arithmetic comes out of double as
// ~1e-14, and as exactly 0 or ~1e-7 out of fp32).
double excess(const torch::Tensor& got, const torch::Tensor& want, double relative, double absolute)
{
    const torch::Tensor g = got.to(torch::kDouble), wnt = want.to(torch::kDouble);
    const double scale = std::max(wnt.abs().max().item<double>(), 1e-6);
    return ((g - wnt).abs() - wnt.abs() * relative - absolute * scale).max().item<double>();
}

torch::Tensor bf16Randn(std::vector<std::int64_t> shape, double mean = 0, double std = 1)
{
    return (torch::randn(shape, torch::kDouble) * std + mean).to(torch::kBFloat16);
}

} // namespace

class EngineLayerNorm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void initTestCase()
    {
        if (sb::engine::referenceLayerNormForced()) QSKIP("SB_LAYER_NORM=reference turns the pass off");
        torch::manual_seed(7);
    }

    void matchesDouble_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("dim");
        QTest::addColumn<double>("offset"); // a mean far from 0 tests the statistics' cancellation
        QTest::newRow("one value") << 5 << 1 << 0.0;
        QTest::newRow("7 wide") << 9 << 7 << 0.0;
        QTest::newRow("16 wide") << 4 << 16 << 0.0;
        QTest::newRow("33 wide") << 11 << 33 << 3.0;
        QTest::newRow("bench 512x256") << 512 << 256 << 0.0;
        QTest::newRow("offset 100") << 64 << 256 << 100.0;
        QTest::newRow("1000 wide") << 3 << 1000 << -2.0;
    }

    void matchesDouble()
    {
        QFETCH(int, rows);
        QFETCH(int, dim);
        QFETCH(double, offset);
        const torch::Tensor x = bf16Randn({rows, dim}, offset, 2.0);
        const torch::Tensor w = bf16Randn({dim}, 1.0, 0.3), b = bf16Randn({dim}, 0.0, 0.5);
        const torch::Tensor dy = bf16Randn({rows, dim});
        const Result got = ours(x, w, b, dy), want = inDouble(x, w, b, dy);
        for (const torch::Tensor* t : {&got.y, &got.dx, &got.dw, &got.db}) QCOMPARE(t->scalar_type(), torch::kBFloat16);
        const double step = std::ldexp(1.0, -8);
        // A one-value row normalises to 0: y = b exactly, dx = 0.
        const double fp32 = 1e-5;
        QVERIFY2(excess(got.y, want.y, step, fp32) <= 0, qPrintable(QString::number(excess(got.y, want.y, step, fp32))));
        QVERIFY2(excess(got.dx, want.dx, step, 1e-4) <= 0, qPrintable(QString::number(excess(got.dx, want.dx, step, 1e-4))));
        QVERIFY2(excess(got.dw, want.dw, step, fp32) <= 0, qPrintable(QString::number(excess(got.dw, want.dw, step, fp32))));
        QVERIFY2(excess(got.db, want.db, step, fp32) <= 0, qPrintable(QString::number(excess(got.db, want.db, step, fp32))));
    }

    // Against the route it replaces: one bf16 step at most, and mostly the same bits.
    void withinOneStepOfTheFp32Route()
    {
        const torch::Tensor x = bf16Randn({512, 256}, 0.5, 1.5);
        const torch::Tensor w = bf16Randn({256}, 1.0, 0.2), b = bf16Randn({256}, 0.0, 0.2);
        const torch::Tensor dy = bf16Randn({512, 256}, 0.0, 0.01);
        const Result got = ours(x, w, b, dy), old = throughFp32(x, w, b, dy);
        const double step = std::ldexp(1.0, -7);
        QVERIFY(excess(got.y, old.y, step, 0) <= 0);
        QVERIFY(excess(got.dx, old.dx, step, 1e-3) <= 0);
        QVERIFY(excess(got.dw, old.dw, step, 0) <= 0);
        QVERIFY(excess(got.db, old.db, step, 0) <= 0);
        const double same = got.y.eq(old.y).to(torch::kDouble).mean().item<double>();
        QVERIFY2(same > 0.98, qPrintable(QString::number(same)));
    }

    void rowsAreIndependent()
    {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        torch::Tensor x = bf16Randn({4, 40});
        x[1].fill_(3.0);       // constant: zero variance
        x[2][5] = nan;         // NaN in one row only
        const torch::Tensor w = bf16Randn({40}, 1.0, 0.3), b = bf16Randn({40});
        const torch::Tensor dy = bf16Randn({4, 40});
        const Result got = ours(x, w, b, dy);
        QVERIFY(torch::equal(got.y[1], b));
        // dx = rstd (g - mean(g)) with rstd = 1 / sqrt(eps): large, and finite.
        const Result want = inDouble(x[1], w, b, dy[1]);
        QVERIFY(excess(got.dx[1], want.dx, std::ldexp(1.0, -8), 1e-4) <= 0);
        QVERIFY(got.y[2].isnan().all().item<bool>());
        QVERIFY(torch::isfinite(got.y.index({torch::tensor({0, 1, 3})})).all().item<bool>());
        QVERIFY(torch::isfinite(got.dx.index({torch::tensor({0, 1, 3})})).all().item<bool>());
    }

    // Rows split over threads (not a multiple of anything): the same bits on
    // every call; against one thread only dw's and db's summation order differs.
    void threadsAndDeterminism()
    {
        const torch::Tensor x = bf16Randn({1037, 96}), w = bf16Randn({96}, 1.0, 0.3), b = bf16Randn({96});
        const torch::Tensor dy = bf16Randn({1037, 96});
        const int threads = at::get_num_threads();
        at::set_num_threads(3);
        const Result a = ours(x, w, b, dy), again = ours(x, w, b, dy);
        at::set_num_threads(1);
        const Result one = ours(x, w, b, dy);
        at::set_num_threads(threads);
        for (auto m : {&Result::y, &Result::dx, &Result::dw, &Result::db}) QVERIFY(torch::equal(a.*m, again.*m));
        QVERIFY(torch::equal(a.y, one.y));
        QVERIFY(torch::equal(a.dx, one.dx));
        QVERIFY(excess(a.dw, one.dw, std::ldexp(1.0, -7), 0) <= 0);
        QVERIFY(excess(a.db, one.db, std::ldexp(1.0, -7), 0) <= 0);
        const Result want = inDouble(x, w, b, dy);
        QVERIFY(excess(a.dw, want.dw, std::ldexp(1.0, -8), 1e-5) <= 0);
    }

    // Leading dimensions are rows; without grad mode there is no graph; a
    // frozen weight still gets x's gradient.
    void shapesAndGradModes()
    {
        const torch::Tensor x = bf16Randn({2, 3, 64}), w = bf16Randn({64}, 1.0, 0.3), b = bf16Randn({64});
        const Result got = ours(x, w, b, bf16Randn({2, 3, 64}));
        QCOMPARE(got.y.sizes(), x.sizes());
        QCOMPARE(got.dx.sizes(), x.sizes());
        const torch::Tensor xl = x.clone().requires_grad_(true);
        const torch::Tensor y = applyLayerNorm(xl, w, b, kEps); // w and b frozen
        const torch::Tensor dx = torch::autograd::grad({y.sum()}, {xl})[0];
        QCOMPARE(dx.scalar_type(), torch::kBFloat16);
        {
            torch::NoGradGuard off;
            QVERIFY(!applyLayerNorm(xl, w, b, kEps).requires_grad());
        }
    }

    // What the pass does not take is ATen's layer norm (2-byte dtypes through fp32), bit for bit.
    void fallbacksAreAten()
    {
        const torch::Tensor xf = torch::randn({8, 32}), wf = torch::randn({32}), bf = torch::randn({32});
        QVERIFY(torch::equal(applyLayerNorm(xf, wf, bf, kEps), torch::layer_norm(xf, {32}, wf, bf, kEps)));
        const torch::Tensor x = bf16Randn({32, 8}), w = bf16Randn({8}), b = bf16Randn({8});
        const auto route = [&](const torch::Tensor& in) {
            return torch::layer_norm(in.to(torch::kFloat), {8}, w.to(torch::kFloat), b.to(torch::kFloat), kEps).to(torch::kBFloat16);
        };
        const torch::Tensor strided = x.t().contiguous().t();
        QVERIFY(!strided.is_contiguous());
        QVERIFY(torch::equal(applyLayerNorm(strided, w, b, kEps), route(strided)));
        const torch::Tensor half = torch::randn({4, 8}).to(torch::kHalf);
        QCOMPARE(applyLayerNorm(half, w.to(torch::kHalf), b.to(torch::kHalf), kEps).scalar_type(), torch::kHalf);
        qputenv("SB_LAYER_NORM", "reference");
        const torch::Tensor forced = applyLayerNorm(x, w, b, kEps);
        qunsetenv("SB_LAYER_NORM");
        QVERIFY(torch::equal(forced, route(x)));
    }
};

QTEST_APPLESS_MAIN(EngineLayerNorm)
#include "tst_engine_layer_norm.moc"
