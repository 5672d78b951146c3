// The engine's GELU pass (gelu.hpp) against GELU computed in double by
// LibTorch (exact erf and the tanh form), forward and backward, over every
// range where the formula changes character: around zero, the tails where
// erfc underflows and the tanh gate saturates, and the special values. fp32:
// the value within 2e-7 of the double result per unit of max(|x|, 1) (the
// Abramowitz-Stegun erf's 1.5e-7 absolute error, halved by GELU's factor
// 0.5 x, plus fp32 rounding), the slope within 3.5e-7. bf16: within one bf16 step (2^-8 relative) of
// the double result. Through autograd, over several intra-op threads, and
// its fallbacks (double, non-contiguous, SB_GELU=reference) equal ATen's bits.
#include "gelu.hpp"

#include "bf16_span.hpp"

#include <QtTest>

#include <torch/torch.h>

#include <cmath>
#include <cstdlib>
#include <limits>

using sb::engine::GeluForm;

namespace {

const char* formName(GeluForm f) { return f == GeluForm::Erf ? "none" : "tanh"; }

// Every fp32 input the tests use: a dense sweep of [-16, 16], a denser one of
// [-0.25, 0.25] (the slope's worst, 3.3e-7 near x = 0.044, lies between the
// first sweep's points: the erf polynomial's terms cancel in fp32 near 0) and
// the tails.
torch::Tensor sweep()
{
    return torch::cat({torch::linspace(-16, 16, 400001), torch::linspace(-0.25, 0.25, 2000001), torch::linspace(-1e-3, 1e-3, 2001),
                       torch::tensor({-1e4f, -88.f, -20.f, 1e-30f, -1e-30f, 0.f, 20.f, 88.f, 1e4f})});
}

// The largest error per unit of max(|x|, 1).
double worst(const torch::Tensor& got, const torch::Tensor& want, const torch::Tensor& x)
{
    const torch::Tensor unit = x.to(torch::kDouble).abs().clamp_min(1.0);
    return ((got.to(torch::kDouble) - want) / unit).abs().max().item<double>();
}

// fp32 values rounded by the core's narrowSpan, as raw 16-bit patterns.
torch::Tensor narrowed(const torch::Tensor& f)
{
    torch::Tensor h = torch::empty(f.sizes(), torch::kShort);
    sb::engine::narrowSpan(f.data_ptr<float>(), reinterpret_cast<std::uint16_t*>(h.data_ptr<std::int16_t>()), f.numel());
    return h;
}

} // namespace

class EngineGelu : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every test function draws its random inputs from the same seed, so a
    // failure reproduces alone and in any order.
    void init() { torch::manual_seed(20261128); }

    void initTestCase()
    {
        if (sb::engine::referenceGeluForced()) QSKIP("SB_GELU=reference turns the pass off");
    }

    void forwardAndSlopeMatchDouble_data()
    {
        QTest::addColumn<int>("form");
        QTest::newRow("erf") << static_cast<int>(GeluForm::Erf);
        QTest::newRow("tanh") << static_cast<int>(GeluForm::Tanh);
    }

    void forwardAndSlopeMatchDouble()
    {
        QFETCH(int, form);
        const auto f = static_cast<GeluForm>(form);
        const torch::Tensor x = sweep();
        const torch::Tensor xd = x.to(torch::kDouble).requires_grad_(true);
        const torch::Tensor yd = torch::gelu(xd, formName(f));
        const torch::Tensor slope = torch::autograd::grad({yd.sum()}, {xd})[0].detach();

        torch::Tensor y = torch::empty_like(x), dx = torch::empty_like(x);
        const torch::Tensor dy = torch::ones_like(x);
        sb::engine::geluForwardSpan(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), f);
        sb::engine::geluBackwardSpan(x.data_ptr<float>(), dy.data_ptr<float>(), dx.data_ptr<float>(), x.numel(), f);
        const double fwd = worst(y, yd.detach(), x), bwd = worst(dx, slope, x);
        QVERIFY2(fwd < 2e-7, qPrintable(QStringLiteral("forward off by %1 per unit").arg(fwd)));
        QVERIFY2(bwd < 3.5e-7, qPrintable(QStringLiteral("slope off by %1 per unit").arg(bwd)));
        // The tails: exactly 0 far left, exactly x far right.
        QCOMPARE(y[x.numel() - 9].item<float>(), -0.0f);
        QCOMPARE(y[x.numel() - 1].item<float>(), 1e4f);
        QCOMPARE(dx[x.numel() - 1].item<float>(), 1.0f);
    }

    void specialValues()
    {
        const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
        for (GeluForm f : {GeluForm::Erf, GeluForm::Tanh}) {
            float x[3] = {nan, inf, 0.0f}, y[3], dx[3];
            const float dy[3] = {1, 1, 1};
            sb::engine::geluForwardSpan(x, y, 3, f);
            sb::engine::geluBackwardSpan(x, dy, dx, 3, f);
            QVERIFY(std::isnan(y[0]) && std::isnan(dx[0]));
            QCOMPARE(y[1], inf);
            QCOMPARE(y[2], 0.0f);
            QCOMPARE(dx[2], 0.5f);
        }
    }

    // bf16 in and out, computed in fp32: one rounding of a value within 2e-7 per unit.
    void bf16WithinOneStep()
    {
        for (GeluForm f : {GeluForm::Erf, GeluForm::Tanh}) {
            const torch::Tensor x = torch::linspace(-12, 12, 20001).to(torch::kBFloat16).requires_grad_(true);
            const torch::Tensor y = sb::engine::applyGelu(x, f);
            QCOMPARE(y.scalar_type(), torch::kBFloat16);
            const torch::Tensor dy = torch::rand_like(y);
            const torch::Tensor dx = torch::autograd::grad({y}, {x}, {dy})[0];
            QCOMPARE(dx.scalar_type(), torch::kBFloat16);

            const torch::Tensor xd = x.detach().to(torch::kDouble).requires_grad_(true);
            const torch::Tensor yd = torch::gelu(xd, formName(f));
            const torch::Tensor dxd = torch::autograd::grad({yd}, {xd}, {dy.to(torch::kDouble)})[0];
            const auto step = [](const torch::Tensor& want) { return want.abs() * std::ldexp(1.0, -8) + 1e-30; };
            QVERIFY(((y.detach().to(torch::kDouble) - yd.detach()).abs() <= step(yd.detach()) + 1e-7).all().item<bool>());
            QVERIFY(((dx.to(torch::kDouble) - dxd).abs() <= step(dxd) + 1e-6).all().item<bool>());
        }
    }

    // bf16 is all 65,536 of its values: forward and backward over every one
    // (NaNs, infinities and subnormals included) are the fp32 pass on the
    // widened values, rounded once to nearest even by narrowSpan (every NaN
    // the quiet 0x7FC0; ATen's vectorised cast keeps a NaN's sign), bit for bit.
    void bf16IsTheFp32PassRounded()
    {
        const torch::Tensor bits = torch::arange(-32768, 32768, torch::kInt).to(torch::kShort);
        const torch::Tensor x = bits.view(torch::kBFloat16);
        const torch::Tensor dy = (torch::randn({x.numel()}) * 0.01).to(torch::kBFloat16);
        const torch::Tensor wide = x.to(torch::kFloat), dyWide = dy.to(torch::kFloat);
        for (GeluForm f : {GeluForm::Erf, GeluForm::Tanh}) {
            torch::Tensor y = torch::empty_like(wide), dx = torch::empty_like(wide);
            sb::engine::geluForwardSpan(wide.data_ptr<float>(), y.data_ptr<float>(), wide.numel(), f);
            sb::engine::geluBackwardSpan(wide.data_ptr<float>(), dyWide.data_ptr<float>(), dx.data_ptr<float>(), wide.numel(), f);
            const torch::Tensor xg = x.clone().requires_grad_(true);
            const torch::Tensor got = sb::engine::applyGelu(xg, f);
            const torch::Tensor gotDx = torch::autograd::grad({got}, {xg}, {dy})[0];
            // Compared as bits: NaN == NaN, and -0 is not 0.
            QVERIFY(torch::equal(got.detach().view(torch::kShort), narrowed(y)));
            QVERIFY(torch::equal(gotDx.view(torch::kShort), narrowed(dx)));
        }
    }

    // Through autograd, split over threads (the split points are not multiples
    // of the vector width), and as many elements as the sweep.
    void autogradOverThreads()
    {
        const int threads = at::get_num_threads();
        at::set_num_threads(3);
        const torch::Tensor x = (torch::randn({7, 33331}) * 3).requires_grad_(true);
        const torch::Tensor y = sb::engine::applyGelu(x);
        const torch::Tensor dy = torch::randn_like(y);
        const torch::Tensor dx = torch::autograd::grad({y}, {x}, {dy})[0];
        at::set_num_threads(threads);

        const torch::Tensor xd = x.detach().to(torch::kDouble).requires_grad_(true);
        const torch::Tensor yd = torch::gelu(xd);
        const torch::Tensor dxd = torch::autograd::grad({yd}, {xd}, {dy.to(torch::kDouble)})[0];
        QVERIFY(worst(y.detach(), yd.detach(), x.detach()) < 2e-7);
        // The slope's error, and the rounding of dy * slope (2^-24 of dx).
        const torch::Tensor allowed = dy.abs().to(torch::kDouble) * 3.5e-7 * x.detach().abs().clamp_min(1).to(torch::kDouble) +
                                      dxd.abs() * std::ldexp(1.0, -24) + 1e-12;
        QVERIFY(((dx.to(torch::kDouble) - dxd).abs() <= allowed).all().item<bool>());
        // Without grad mode, no graph.
        torch::NoGradGuard off;
        QVERIFY(!sb::engine::applyGelu(x).requires_grad());
    }

    // What the pass does not take is ATen's GELU, bit for bit.
    void fallbacksAreAten()
    {
        const torch::Tensor d = torch::randn({64, 9}, torch::kDouble);
        QVERIFY(torch::equal(sb::engine::applyGelu(d), torch::gelu(d)));
        const torch::Tensor strided = torch::randn({64, 9}).t();
        QVERIFY(!strided.is_contiguous());
        QVERIFY(torch::equal(sb::engine::applyGelu(strided, GeluForm::Tanh), torch::gelu(strided, "tanh")));
        const torch::Tensor x = torch::randn({64, 9});
        qputenv("SB_GELU", "reference");
        const torch::Tensor forced = sb::engine::applyGelu(x);
        qunsetenv("SB_GELU");
        QVERIFY(torch::equal(forced, torch::gelu(x)));
        QVERIFY(!torch::equal(sb::engine::applyGelu(x), torch::gelu(x))); // the pass itself rounds differently
    }
};

QTEST_APPLESS_MAIN(EngineGelu)
#include "tst_engine_gelu.moc"
