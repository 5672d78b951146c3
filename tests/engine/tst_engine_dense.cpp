// The engine's dense layer (dense_layer.hpp: Linear and Conv1D through
// oneDNN's sgemm) against the same layer computed in double by LibTorch: the
// output and the gradients of input, weight and bias, for both weight
// layouts, with and without bias, odd sizes (one row, one input feature),
// batched and non-contiguous inputs, a frozen weight or input. fp32 rounding
// of a sum of K products: within 1e-5 of each tensor's largest value.
// Without oneDNN in the process the layer is ATen's: the test says so and
// skips. Its fallbacks (double, SB_LINEAR=reference) equal ATen's bits.
#include "dense_layer.hpp"

#include <QtTest>

#include <torch/torch.h>

using sb::engine::WeightLayout;

namespace {

double relative(const torch::Tensor& got, const torch::Tensor& want)
{
    const double scale = std::max(want.abs().max().item<double>(), 1e-30);
    return (got.to(torch::kDouble) - want).abs().max().item<double>() / scale;
}

torch::Tensor atenLayer(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b, WeightLayout layout)
{
    const torch::Tensor y = torch::matmul(x, layout == WeightLayout::OutIn ? w.t() : w);
    return b.defined() ? y + b : y;
}

} // namespace

class EngineDense : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!sb::engine::haveDnnlSgemm()) QSKIP("this process has no oneDNN sgemm: the layer is ATen's");
        if (sb::engine::referenceLinearForced()) QSKIP("SB_LINEAR=reference turns the layer off");
    }

    void matchesDouble_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<int>("layout");
        // 0: [rows, in]; 1: [2, rows, in]; 2: [in, rows] transposed (not contiguous)
        QTest::addColumn<int>("shape");
        for (int layout : {0, 1}) {
            const char* l = layout == 0 ? "linear" : "conv1d";
            QTest::addRow("%s bench", l) << 512 << 256 << 1024 << true << layout << 0;
            QTest::addRow("%s odd, no bias", l) << 37 << 65 << 19 << false << layout << 0;
            QTest::addRow("%s one row", l) << 1 << 8 << 3 << true << layout << 0;
            QTest::addRow("%s one feature", l) << 9 << 1 << 5 << true << layout << 0;
            QTest::addRow("%s batched", l) << 33 << 40 << 24 << true << layout << 1;
            QTest::addRow("%s transposed input", l) << 21 << 30 << 17 << false << layout << 2;
        }
    }

    void matchesDouble()
    {
        QFETCH(int, rows);
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, bias);
        QFETCH(int, layout);
        QFETCH(int, shape);
        const auto lay = static_cast<WeightLayout>(layout);
        torch::Tensor x = shape == 1 ? torch::randn({2, rows, in}) : shape == 2 ? torch::randn({in, rows}).t() : torch::randn({rows, in});
        x.requires_grad_(true);
        const torch::Tensor w = (layout == 0 ? torch::randn({out, in}) : torch::randn({in, out})).requires_grad_(true);
        const torch::Tensor b = bias ? torch::randn({out}).requires_grad_(true) : torch::Tensor();

        const torch::Tensor y = sb::engine::denseLayer(x, w, b, lay);
        const torch::Tensor dy = torch::randn_like(y);
        std::vector<torch::Tensor> inputs{x, w};
        if (bias) inputs.push_back(b);
        const auto grads = torch::autograd::grad({y}, inputs, {dy});

        std::vector<torch::Tensor> doubles;
        for (const torch::Tensor& t : inputs) doubles.push_back(t.detach().to(torch::kDouble).requires_grad_(true));
        const torch::Tensor yd = atenLayer(doubles[0], doubles[1], bias ? doubles[2] : torch::Tensor(), lay);
        const auto want = torch::autograd::grad({yd}, doubles, {dy.to(torch::kDouble)});

        QCOMPARE(y.sizes(), yd.sizes());
        QVERIFY2(relative(y.detach(), yd.detach()) < 1e-5, "output");
        const char* names[] = {"input gradient", "weight gradient", "bias gradient"};
        for (std::size_t i = 0; i < grads.size(); ++i) {
            QCOMPARE(grads[i].sizes(), inputs[i].sizes());
            QVERIFY2(relative(grads[i], want[i]) < 1e-5, names[i]);
        }
    }

    // A frozen weight gets no gradient and a frozen input none either; what
    // needs one is still right.
    void onlyWhatNeedsAGradient()
    {
        const torch::Tensor x = torch::randn({16, 12});
        const torch::Tensor w = torch::randn({10, 12}).requires_grad_(true);
        const torch::Tensor y = sb::engine::denseLayer(x, w, torch::Tensor(), WeightLayout::OutIn);
        const torch::Tensor dw = torch::autograd::grad({y.sum()}, {w})[0];
        QVERIFY(relative(dw, torch::ones({16, 10}, torch::kDouble).t().mm(x.to(torch::kDouble))) < 1e-5);

        const torch::Tensor x2 = torch::randn({16, 12}).requires_grad_(true);
        const torch::Tensor frozen = torch::randn({10, 12});
        const torch::Tensor y2 = sb::engine::denseLayer(x2, frozen, torch::Tensor(), WeightLayout::OutIn);
        const torch::Tensor dx = torch::autograd::grad({y2.sum()}, {x2})[0];
        QVERIFY(relative(dx, torch::ones({16, 10}, torch::kDouble).mm(frozen.to(torch::kDouble))) < 1e-5);
        QVERIFY(!frozen.grad().defined());

        torch::NoGradGuard off;
        QVERIFY(!sb::engine::denseLayer(x2, w, torch::Tensor(), WeightLayout::OutIn).requires_grad());
    }

    // What the layer does not take is ATen's, bit for bit.
    void fallbacksAreAten()
    {
        const torch::Tensor xd = torch::randn({8, 6}, torch::kDouble), wd = torch::randn({4, 6}, torch::kDouble);
        QVERIFY(torch::equal(sb::engine::denseLayer(xd, wd, torch::Tensor(), WeightLayout::OutIn),
                             torch::nn::functional::linear(xd, wd)));
        const torch::Tensor x = torch::randn({64, 300}), w = torch::randn({200, 300}), b = torch::randn({200});
        qputenv("SB_LINEAR", "reference");
        const torch::Tensor forced = sb::engine::denseLayer(x, w, b, WeightLayout::OutIn);
        const torch::Tensor forcedConv = sb::engine::denseLayer(x, w.t().contiguous(), b, WeightLayout::InOut);
        qunsetenv("SB_LINEAR");
        QVERIFY(torch::equal(forced, torch::nn::functional::linear(x, w, b)));
        QVERIFY(torch::equal(forcedConv, torch::addmm(b, x, w.t().contiguous())));
    }
};

QTEST_APPLESS_MAIN(EngineDense)
#include "tst_engine_dense.moc"
