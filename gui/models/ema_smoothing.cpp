#include "ema_smoothing.hpp"

#include <cmath>

namespace sb::gui {

void EmaSmoother::reset(double weight)
{
    *this = EmaSmoother(weight);
}

double EmaSmoother::next(double value)
{
    if (!std::isfinite(value)) return value;
    if (!any_) {
        any_ = true;
        first_ = value;
    } else if (value != first_) {
        constant_ = false;
    }
    last_ = last_ * weight_ + (1 - weight_) * value;
    power_ *= weight_;
    // TensorBoard leaves a constant series alone (the average of equal values
    // is that value, but rounding would show a wiggle).
    if (constant_) return value;
    const double debias = weight_ == 1.0 ? 1.0 : 1.0 - power_;
    return last_ / debias;
}

std::vector<double> emaSmooth(const std::vector<double>& values, double weight)
{
    std::vector<double> out;
    out.reserve(values.size());
    EmaSmoother s(weight);
    for (double v : values) out.push_back(s.next(v));
    return out;
}

} // namespace sb::gui
