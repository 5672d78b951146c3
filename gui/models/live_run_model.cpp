#include "live_run_model.hpp"

#include <algorithm>
#include <cmath>

namespace sb::gui {

namespace {
double nanIfNegative(double v) { return v < 0 ? std::nan("") : v; }
} // namespace

LiveRunModel::LiveRunModel(QObject* parent) : QObject(parent), system_(new SystemSeries(this))
{
    // The stacked split is drawn as filled bands of per-pixel means.
    for (int c : {ForwardMs, UpToBackward, UpToOptimizer, UpToComm}) {
        table_.keepMeans(c);
        byTime_.keepMeans(c);
    }
}

void LiveRunModel::reset(int worldSize, int totalSteps, const std::vector<qint64>& predictedPeaks)
{
    table_.clear();
    byTime_.clear();
    smoother_.reset(smoother_.weight());
    totalSteps_ = totalSteps;
    lastEvalLoss_ = std::nan("");
    system_->clear();
    ranks_.clear();
    for (int r = 0; r < worldSize; ++r) {
        RankMemory m;
        m.rank = r;
        if (static_cast<std::size_t>(r) < predictedPeaks.size()) m.predicted = predictedPeaks[static_cast<std::size_t>(r)];
        ranks_ << m;
    }
    Q_EMIT modelReset();
}

double LiveRunModel::firstStepTime() const { return byTime_.isEmpty() ? std::nan("") : t0_; }

double LiveRunModel::lastLoss() const
{
    return table_.isEmpty() ? std::nan("") : table_.column(Loss).back();
}

double LiveRunModel::etaSeconds() const
{
    const qsizetype n = table_.size();
    if (n < 2 || totalSteps_ <= 0) return std::nan("");
    const qsizetype k = std::min<qsizetype>(20, n - 1);
    const double seconds = table_.value(Time, n - 1) - table_.value(Time, n - 1 - k);
    const double steps = table_.x(n - 1) - table_.x(n - 1 - k);
    if (!(seconds > 0) || !(steps > 0)) return std::nan("");
    return std::max(0.0, (totalSteps_ - table_.x(n - 1)) * seconds / steps);
}

void LiveRunModel::setSmoothing(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == smoother_.weight()) return;
    smoother_.reset(weight);
    // Recompute the whole column, then keep going from its state.
    std::vector<double> smoothed;
    smoothed.reserve(table_.column(Loss).size());
    for (double v : table_.column(Loss)) smoothed.push_back(smoother_.next(v));
    byTime_.setColumn(LossSmoothed, smoothed);
    table_.setColumn(LossSmoothed, std::move(smoothed));
    Q_EMIT smoothingChanged(weight);
}

void LiveRunModel::log(const protocol::StepMetrics& s)
{
    if (s.rank >= 0 && s.rank < ranks_.size()) {
        RankMemory& m = ranks_[s.rank];
        if (s.memCurrent >= 0) m.current = s.memCurrent;
        if (s.memPeak > m.peak) m.peak = s.memPeak;
        m.lastStep = s.step;
        Q_EMIT ranksChanged();
    }
    if (s.rank != 0) return;
    if (!table_.isEmpty() && s.step <= table_.xs().back()) {
        // A restarted attempt repeats steps: what it reports now replaces them.
        const auto [first, last] = table_.rowsBetween(-1e300, s.step - 0.5);
        (void)first;
        table_.truncate(static_cast<qsizetype>(last));
        byTime_.truncate(static_cast<qsizetype>(last));
        smoother_.reset(smoother_.weight());
        for (double v : table_.column(Loss)) smoother_.next(v);
    }
    const double fwd = nanIfNegative(s.forwardMs), bwd = nanIfNegative(s.backwardMs);
    const double opt = nanIfNegative(s.optimizerMs), comm = nanIfNegative(s.commExposedMs);
    double row[ColumnCount];
    row[Loss] = s.loss;
    row[LossSmoothed] = smoother_.next(s.loss);
    row[TokensPerS] = s.tokensPerS;
    row[StepMs] = s.stepMs;
    row[ForwardMs] = fwd;
    row[BackwardMs] = bwd;
    row[OptimizerMs] = opt;
    row[CommMs] = comm;
    row[UpToBackward] = fwd + bwd;
    row[UpToOptimizer] = fwd + bwd + opt;
    row[UpToComm] = fwd + bwd + opt + comm;
    row[EvalLoss] = s.evalLoss;
    row[Time] = s.t;
    if (!std::isnan(s.evalLoss)) lastEvalLoss_ = s.evalLoss;
    table_.append(s.step, row);
    // Seconds since the first step; never backwards (a clock step, a step without a time).
    if (byTime_.isEmpty()) t0_ = std::isfinite(s.t) ? s.t : 0;
    const double last = byTime_.isEmpty() ? 0.0 : byTime_.xs().back();
    byTime_.append(std::isfinite(s.t) ? std::max(last, s.t - t0_) : last, row);
    if (s.steps > totalSteps_) totalSteps_ = s.steps;
    Q_EMIT stepAppended(s.step);
}

} // namespace sb::gui
