// Exponential moving average as TensorBoard smooths scalars: weight w in
// [0, 1), last = last * w + (1 - w) * value, divided by 1 - w^n so the first
// points are not pulled towards zero (debiasing). NaN and infinite values
// pass through unsmoothed, and a constant series stays as it is.
#pragma once

#include <vector>

namespace sb::gui {

class EmaSmoother {
public:
    explicit EmaSmoother(double weight = 0.6) : weight_(weight) {}
    double weight() const { return weight_; }
    void reset(double weight);
    // The smoothed value for the next point of the series.
    double next(double value);

private:
    double weight_;
    double last_ = 0;
    double power_ = 1; // weight^n
    bool constant_ = true;
    bool any_ = false;
    double first_ = 0;
};

// The whole series at once (the same values as next() point by point).
std::vector<double> emaSmooth(const std::vector<double>& values, double weight);

} // namespace sb::gui
