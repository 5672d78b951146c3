// The core's bf16 <-> fp32 spans (bf16_span.hpp) against c10::BFloat16, bit
// for bit: every bf16 high half with the low halves that decide rounding
// (ties both ways, just below and above a tie), so subnormals, infinities,
// overflow to infinity and NaNs of any payload are all in; lengths around the
// 16-float vector width and unaligned starts, for the path this CPU takes
// (AVX512-BF16's conversion where it has it) and the portable one.
#include "bf16_span.hpp"

#include <QtTest>

#include <c10/util/BFloat16.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

float fromBits(std::uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

std::uint32_t toBits(float f)
{
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

std::uint16_t c10Bits(float f) { return c10::BFloat16(f).x; }

} // namespace

class EngineBf16Span : public QObject {
    Q_OBJECT

    std::vector<float> values_;

private Q_SLOTS:
    void initTestCase()
    {
        for (std::uint32_t high = 0; high <= 0xFFFF; ++high)
            for (const std::uint32_t low : {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
                values_.push_back(fromBits(high << 16 | low));
        QCOMPARE(values_.size(), std::size_t{65536 * 6});
    }

    void narrowsAsC10_data()
    {
        QTest::addColumn<bool>("portable");
        QTest::newRow("this CPU's path") << false;
        QTest::newRow("portable") << true;
    }

    void narrowsAsC10()
    {
        QFETCH(bool, portable);
        const auto narrow = portable ? sb::engine::narrowSpanPortable : sb::engine::narrowSpan;
        std::vector<std::uint16_t> got(values_.size());
        narrow(values_.data(), got.data(), static_cast<std::int64_t>(values_.size()));
        int wrong = 0;
        for (std::size_t i = 0; i < values_.size(); ++i)
            if (got[i] != c10Bits(values_[i]) && ++wrong <= 5)
                qWarning("0x%08x: got 0x%04x, c10 0x%04x", static_cast<unsigned>(toBits(values_[i])), got[i],
                         c10Bits(values_[i]));
        QCOMPARE(wrong, 0);
        // Short spans from unaligned starts: the vector body and the tail agree.
        for (std::int64_t start = 0; start < 3; ++start)
            for (std::int64_t n = 0; n <= 40; ++n) {
                std::vector<std::uint16_t> out(static_cast<std::size_t>(n) + 1, 0xABCD);
                const float* src = values_.data() + 1000 * n + start;
                narrow(src, out.data(), n);
                for (std::int64_t i = 0; i < n; ++i) QCOMPARE(out[static_cast<std::size_t>(i)], c10Bits(src[i]));
                QCOMPARE(out[static_cast<std::size_t>(n)], std::uint16_t{0xABCD}); // nothing past the end
            }
    }

    void widensExactly()
    {
        std::vector<std::uint16_t> h(65536);
        for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint16_t>(i);
        std::vector<float> f(h.size());
        sb::engine::widenSpan(h.data(), f.data(), static_cast<std::int64_t>(h.size()));
        for (std::size_t i = 0; i < h.size(); ++i) {
            c10::BFloat16 b;
            b.x = h[i];
            QCOMPARE(toBits(f[i]), toBits(static_cast<float>(b)));
        }
    }
};

QTEST_GUILESS_MAIN(EngineBf16Span)
#include "tst_engine_bf16_span.moc"
