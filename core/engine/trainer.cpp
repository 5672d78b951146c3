#include "trainer.hpp"

#include "checkpointer.hpp"
#include "cross_entropy.hpp"
#include "data.hpp"
#include "device.hpp"
#include "full_import.hpp"
#include "events.hpp"
#include "full_export.hpp"
#include "fully_shard.hpp"
#include "model.hpp"
#include "optimizer_groups.hpp"
#include "param_init.hpp"
#include "torch_dtype.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "plan/resolve.hpp"

#include <chrono>
#include <cmath>

namespace sb::engine {

namespace {

using Clock = std::chrono::steady_clock;

double learningRate(const OptimizerConfig& o, int step, int steps)
{
    if (o.warmupSteps > 0 && step < o.warmupSteps) return o.lr * (step + 1) / o.warmupSteps;
    if (o.schedule == "cosine") {
        const double t = std::min(1.0, static_cast<double>(step - o.warmupSteps) / std::max(1, steps - o.warmupSteps));
        const double floor = o.lr * o.minLrRatio;
        return floor + (o.lr - floor) * 0.5 * (1.0 + std::cos(M_PI * t));
    }
    return o.lr;
}

// Full, unsharded parameters for reference mode (tied ones shared).
std::vector<torch::Tensor> materialiseFull(TransformerModel& model, std::uint64_t seed)
{
    const ModuleTree& tree = model.tree();
    std::vector<torch::Tensor> unique;
    for (std::size_t i = 0; i < tree.params().size(); ++i) {
        const Param& prm = tree.param(static_cast<int>(i));
        if (prm.tiedTo >= 0) continue;
        torch::Tensor t = initFullParam(tree, static_cast<int>(i), seed);
        model.params()[i] = t;
        unique.push_back(t);
    }
    for (std::size_t i = 0; i < tree.params().size(); ++i)
        if (tree.param(static_cast<int>(i)).tiedTo >= 0)
            model.params()[i] = model.params()[static_cast<std::size_t>(tree.param(static_cast<int>(i)).tiedTo)];
    return unique;
}

// Reference mode under the plan's mixed precision: the model's parameters
// become casts of the fp32 masters to their unit's param_dtype (tied ones share
// one cast). Autograd carries each gradient back through the cast to the
// master in fp32, as FSDP2 accumulates and reduces in fp32. Cast again for
// every micro-batch: a backward frees the cast's graph.
void castToUnitDtypes(TransformerModel& model, const std::vector<torch::Tensor>& masters, const ResolvedPlan& r)
{
    const ModuleTree& tree = model.tree();
    std::size_t k = 0;
    for (std::size_t i = 0; i < tree.params().size(); ++i) {
        if (tree.param(static_cast<int>(i)).tiedTo >= 0) continue;
        const int unit = r.paramOwner[i];
        const torch::Tensor& master = masters[k++];
        const torch::ScalarType dtype = unit >= 0 ? scalarType(r.units[static_cast<std::size_t>(unit)].paramDtype) : torch::kFloat;
        model.params()[i] = dtype == master.scalar_type() ? master : master.to(dtype);
    }
    for (std::size_t i = 0; i < tree.params().size(); ++i)
        if (const int tied = tree.param(static_cast<int>(i)).tiedTo; tied >= 0)
            model.params()[i] = model.params()[static_cast<std::size_t>(tied)];
}

protocol::PlanEvent planEvent(const LoadedPlan& lp, const ResolvedPlan& r, const DeviceMesh& mesh, FullyShard* fsdp)
{
    protocol::PlanEvent p;
    for (std::size_t u = 0; u < r.units.size(); ++u) {
        protocol::PlanUnit pu{lp.tree->module(r.units[u].module).path, static_cast<long long>(r.units[u].numel), {}, {}};
        if (fsdp) pu.shardNumel = static_cast<long long>(fsdp->units()[u]->shardNumel());
        if (fsdp && fsdp->units()[u]->offloaded()) pu.offloaded = true;
        p.units.push_back(std::move(pu));
    }
    p.paramsTotal = static_cast<long long>(lp.tree->totalParams());
    p.world = mesh.world();
    p.shardSize = mesh.shardSize();
    p.replicate = mesh.replicate();
    p.sharded = fsdp != nullptr;
    if (fsdp && mesh.shardSize() > 1) p.collectives = mesh.shardCollectives();
    return p;
}

// One rank's run, phase by phase: set-up (data, model, sharding, initial
// weights, optimizer, resume), steps, final export. Each method that can
// refuse returns the process exit code (0: go on).
class Trainer {
public:
    Trainer(const LoadedPlan& lp, DeviceMesh& mesh, const TrainerOptions& options)
        : lp_(lp), plan_(lp.plan), tc_(lp.plan.training), mesh_(mesh), options_(options),
          resolved_(resolvePlan(lp.plan, *lp.tree)), model_(lp.plan.model, lp.tree),
          // Reference mode runs the whole global batch in this one process.
          batch_(options.reference ? tc_.microBatch * plan_.mesh.worldSize() : tc_.microBatch),
          dataRanks_(options.reference ? 1 : mesh.world()), dataRank_(options.reference ? 0 : mesh.rank())
    {
    }

    int setUp()
    {
        Result<std::unique_ptr<DataSource>> data = DataSource::open(tc_, plan_.model.vocabSize);
        if (!data) {
            events().error(data.error(), "$.training.data");
            return code(CoreExit::BadInput);
        }
        data_ = std::move(data).value();
        if (tc_.eval.enabled()) {
            Result<std::unique_ptr<DataSource>> held = DataSource::openEval(tc_, plan_.model.vocabSize);
            if (!held) {
                events().error(held.error(), "$.training.eval");
                return code(CoreExit::BadInput);
            }
            evalData_ = std::move(held).value();
        }
        shardModel();
        events().emit(planEvent(lp_, resolved_, mesh_, fsdp_.get()));
        optimizer_ = makeAdamW(optimParams_, optimIndex_, *lp_.tree, tc_.optimizer);
        if (int rc = resume(); rc != 0) return rc;
        // A resumed checkpoint holds every parameter: initial weights would be
        // read for nothing (a restart of a run started from them resumes).
        return resumed_ ? code(CoreExit::Ok) : importInitialWeights();
    }

    int run()
    {
        for (int step = static_cast<int>(position_.stepsDone); step < tc_.steps; ++step) {
            if (!trainStep(step)) {
                // Every rank holds the same all-reduced loss: all stop here together. The
                // last good checkpoint's save completes; no checkpoint of this state is taken.
                if (checkpointer_) checkpointer_->waitForPendingSave();
                events().error("loss is not finite (" + std::string(std::isnan(lastLoss_) ? "nan" : "inf") + ") at step " +
                                   std::to_string(step + 1) + "; stopping the run (the weights or the learning rate diverged)",
                               "training");
                return code(CoreExit::Failed);
            }
            position_.stepsDone = step + 1;
            position_.nextSample += static_cast<std::uint64_t>(tc_.gradAccum) * dataRanks_ * static_cast<std::uint64_t>(batch_);
            if (checkpointer_) checkpointer_->afterStep(position_, step + 1 == tc_.steps);
        }
        if (checkpointer_) checkpointer_->waitForPendingSave();
        if (int rc = exportFinal(); rc != 0) return rc;

        events().emit(protocol::Done{"ok", tc_.steps, lastLoss_, static_cast<long long>(runPeak_)});
        return code(CoreExit::Ok);
    }

private:
    struct StepTimes {
        double forwardMs = 0, backwardMs = 0, optimizerMs = 0, exposedMs = 0;
    };

    // The parameters AdamW updates: full tensors (reference), or this rank's
    // shards with the engine's sharded gradients plus any ignored parameters.
    void shardModel()
    {
        if (options_.reference) {
            optimParams_ = materialiseFull(model_, tc_.seed);
            for (std::size_t i = 0; i < lp_.tree->params().size(); ++i)
                if (lp_.tree->param(static_cast<int>(i)).tiedTo < 0) optimIndex_.push_back(static_cast<int>(i));
            return;
        }
        fsdp_ = std::make_unique<FullyShard>(model_, plan_, resolved_, mesh_);
        for (auto& unit : fsdp_->units()) {
            for (ShardParam& p : unit->params()) {
                p.shard.mutable_grad() = p.grad;
                optimParams_.push_back(p.shard);
                optimIndex_.push_back(p.index);
            }
        }
        for (torch::Tensor& t : fsdp_->replicatedParams()) optimParams_.push_back(t);
        optimIndex_.insert(optimIndex_.end(), fsdp_->replicatedIndices().begin(), fsdp_->replicatedIndices().end());
    }

    int importInitialWeights()
    {
        if (options_.initFrom.empty()) return code(CoreExit::Ok);
        const Status imported = fsdp_ ? importFullModel(*fsdp_, *lp_.tree, plan_.model, mesh_, options_.initFrom)
                                      : importFullModel(optimParams_, *lp_.tree, plan_.model, options_.initFrom);
        if (imported) return code(CoreExit::Ok);
        events().error(imported.prefixed("cannot import initial weights").message(), "--init-from");
        return code(CoreExit::BadInput);
    }

    int resume()
    {
        if (!fsdp_) {
            if (options_.resumePath.empty()) return code(CoreExit::Ok);
            events().error("--reference runs cannot resume from sharded checkpoints", "--resume");
            return code(CoreExit::BadInput);
        }
        checkpointer_ = std::make_unique<Checkpointer>(plan_, *lp_.tree, *fsdp_, *optimizer_, mesh_, options_.runId);
        if (checkpointer_->enabled() && !ckpt::isValidRunId(options_.runId)) {
            // It names the run's checkpoint folder, DIR/<run id>.
            events().error("the run id \"" + options_.runId + "\" cannot name a checkpoint folder (1 to 128 of A-Z a-z 0-9 . _ -, not starting with a dot or \"step-\")",
                           "--run-id");
            return code(CoreExit::BadInput);
        }
        if (options_.resumePath.empty()) return code(CoreExit::Ok);
        const Result<bool> loaded = checkpointer_->load(options_.resumePath, position_);
        // Every rank loads its own rows: refuse together if any rank refused.
        torch::Tensor failed = torch::full({1}, loaded ? 0.0 : 1.0, torch::kDouble);
        mesh_.allReduceSumWorld(failed);
        if (!loaded) {
            events().error(loaded.status().prefixed("refusing to resume").message(), "--resume");
            return code(CoreExit::BadInput);
        }
        if (failed.item<double>() > 0) {
            events().error("refusing to resume: another rank could not load the checkpoint (see its message)", "--resume");
            return code(CoreExit::BadInput);
        }
        resumed_ = loaded.value();
        return code(CoreExit::Ok);
    }

    void zeroGradients()
    {
        torch::NoGradGuard noGrad;
        // The engine's sharded gradients are released (held again at each
        // unit's first reduce), then autograd's own on full tensors (the
        // reference's parameters, or those a unit left unsharded) zeroed.
        if (fsdp_)
            for (auto& unit : fsdp_->units()) {
                unit->releaseGrad();
                unit->endPass(); // the optimizer has changed the shards
            }
        for (torch::Tensor& p : fsdp_ ? fsdp_->replicatedParams() : optimParams_)
            if (p.grad().defined()) p.mutable_grad().zero_();
    }

    // Forward and backward of every micro-batch; returns the summed loss.
    double forwardBackward(StepTimes& times)
    {
        const int accum = tc_.gradAccum;
        double lossSum = 0;
        for (int micro = 0; micro < accum; ++micro) {
            if (fsdp_) fsdp_->setRequiresGradientSync(micro == accum - 1);
            // Global sample index: the data position continues across resumes at any world size.
            const std::uint64_t first = position_.nextSample + (static_cast<std::uint64_t>(micro) * dataRanks_ + dataRank_) *
                                                                   static_cast<std::uint64_t>(batch_);
            if (options_.reference) castToUnitDtypes(model_, optimParams_, resolved_);
            torch::Tensor inputs, targets;
            data_->read(first, batch_, tc_.seqLen, inputs, targets);
            inputs = inputs.to(computeDevice());
            targets = targets.to(computeDevice());
            const auto tf = Clock::now();
            torch::Tensor loss = crossEntropyLoss(model_.forward(inputs), targets);
            loss = loss / accum;
            synchronizeDevice();
            times.forwardMs += msSince(tf);
            const auto tb = Clock::now();
            loss.backward();
            synchronizeDevice();
            times.backwardMs += msSince(tb);
            lossSum += loss.item<double>();
        }
        return lossSum;
    }

    // Global gradient norm, and clipping to the plan's grad_clip. `loss`, this
    // rank's, becomes the world's sum: in the norm's all-reduce when the shard
    // group is the world (one collective at the end of a step, not two).
    double clipGradients(StepTimes& times, double& loss)
    {
        torch::NoGradGuard noGrad;
        // The gradients are not scaled here: AdamW's pass applies the factor.
        if (options_.reference) { // clip_grad_norm_'s global norm and factor on the full gradients
            double norm = 0.0;
            optimizer_->setGradScale(clipFactor(optimParams_, tc_.gradClip > 0 ? tc_.gradClip : 1e30, norm));
            return norm;
        }
        // A unit that received no gradient this step holds zeros.
        for (auto& unit : fsdp_->units()) unit->holdGrad();
        // Sum of squares of the local shards, all-reduced over the shard group.
        // A GPU's shards: each one's norm in fp32 (as clip_grad_norm_ takes
        // per-tensor norms), squared and summed in double on the device: one
        // read of each gradient, where widening it to double wrote and re-read
        // two temporaries of twice its size (about 17 GB of traffic a step for
        // the 0.54B model of docs/performance-h100.md; not yet timed there).
        const bool withLoss = mesh_.replicate() == 1;
        torch::Tensor sq = torch::zeros({withLoss ? 2 : 1}, onDevice(torch::kDouble));
        torch::Tensor squares = sq.narrow(0, 0, 1);
        double onHost = 0.0;
        std::vector<torch::Tensor> gpuNorms;
        for (const torch::Tensor& p : optimParams_) {
            if (!p.grad().defined() || p.numel() == 0) continue;
            if (sumsSquaresInPlace(p.grad())) onHost += sumOfSquares(p.grad()); // the CPU, or offloaded shards
            else if (p.grad().is_cuda()) gpuNorms.push_back(torch::norm(p.grad(), 2, torch::kFloat).to(sq.device()));
            else squares += p.grad().to(sq.device(), torch::kDouble).pow(2).sum();
        }
        if (!gpuNorms.empty()) squares += torch::stack(gpuNorms).to(torch::kDouble).pow(2).sum();
        squares += onHost;
        if (withLoss) sq.narrow(0, 1, 1).fill_(loss);
        const auto t0 = Clock::now();
        mesh_.allReduceSumShard(sq);
        times.exposedMs += msSince(t0);
        const torch::Tensor sums = sq.cpu();
        const double norm = std::sqrt(sums[0].item<double>());
        if (withLoss) {
            loss = sums[1].item<double>();
        } else {
            torch::Tensor lossT = torch::full({1}, loss, torch::kDouble);
            mesh_.allReduceSumWorld(lossT);
            loss = lossT.item<double>();
        }
        if (tc_.gradClip > 0) {
            const double coef = tc_.gradClip / (norm + 1e-6);
            if (coef < 1.0) optimizer_->setGradScale(static_cast<float>(coef)); // as grad.mul_(coef) rounds it
        }
        return norm;
    }

    // False when the step's loss is not finite: the optimizer step is skipped
    // and the run stops (a NaN never trains into a "done: ok").
    bool trainStep(int step)
    {
        const double lr = learningRate(tc_.optimizer, step, tc_.steps);
        setLearningRate(*optimizer_, lr);
        resetDevicePeak();
        if (fsdp_) fsdp_->takeExposedCommMs();
        const auto t0 = Clock::now(); // the whole step, zeroing the gradients included (as PyTorch's peers time it)
        zeroGradients();
        StepTimes times;
        const double lossSum = forwardBackward(times);

        const auto to = Clock::now();
        times.exposedMs += fsdp_ ? fsdp_->takeExposedCommMs() : 0.0;
        double lossTotal = lossSum; // over the world, after clipGradients
        const double gradNorm = clipGradients(times, lossTotal);
        lastLoss_ = lossTotal / (options_.reference ? 1 : mesh_.world());
        if (!std::isfinite(lastLoss_)) return false;
        optimizer_->step();
        synchronizeDevice();
        times.optimizerMs = msSince(to);
        const double stepMs = msSince(t0);
        const double evalLoss = tc_.eval.dueAfter(step + 1, tc_.steps) ? evaluate() : std::nan("");
        emitStep(step, lr, gradNorm, stepMs, times, evalLoss);
        return true;
    }

    // The validation loss: the mean token loss over the fixed held-out set of
    // eval.batches x micro_batch x the plan's world samples, without gradients.
    // The samples go out in micro-batches, round robin over the data ranks, as
    // training's; every rank runs the same number of forwards (a sharded
    // forward gathers with all of them), one without a micro-batch of its own
    // on the first samples, its loss not counted.
    double evaluate()
    {
        torch::NoGradGuard noGrad;
        const std::uint64_t samples = static_cast<std::uint64_t>(tc_.eval.batches) * static_cast<std::uint64_t>(tc_.microBatch) *
                                      static_cast<std::uint64_t>(plan_.mesh.worldSize());
        const std::uint64_t chunk = static_cast<std::uint64_t>(batch_);
        const std::uint64_t chunks = (samples + chunk - 1) / chunk;
        const std::uint64_t rounds = (chunks + dataRanks_ - 1) / dataRanks_;
        if (options_.reference) castToUnitDtypes(model_, optimParams_, resolved_);
        double sum = 0.0;
        for (std::uint64_t round = 0; round < rounds; ++round) {
            const std::uint64_t c = round * dataRanks_ + static_cast<std::uint64_t>(dataRank_);
            const bool counted = c < chunks;
            const std::uint64_t first = counted ? c * chunk : 0;
            const int n = static_cast<int>(std::min(chunk, samples - first));
            torch::Tensor inputs, targets;
            evalData_->read(first, n, tc_.seqLen, inputs, targets);
            const torch::Tensor loss = crossEntropyLoss(model_.forward(inputs.to(computeDevice())), targets.to(computeDevice()));
            if (counted) sum += loss.item<double>() * n;
        }
        if (fsdp_) fsdp_->endForwardOnly();
        if (!options_.reference) {
            torch::Tensor total = torch::full({1}, sum, torch::kDouble);
            mesh_.allReduceSumWorld(total);
            sum = total.item<double>();
        }
        return sum / static_cast<double>(samples);
    }

    void emitStep(int step, double lr, double gradNorm, double stepMs, const StepTimes& times, double evalLoss)
    {
        const MemoryStats mem = deviceMemoryStats();
        runPeak_ = std::max(runPeak_, mem.peak);
        const double tokens = static_cast<double>(batch_) * tc_.seqLen * tc_.gradAccum * dataRanks_;
        protocol::Step f;
        f.step = step + 1;
        f.steps = tc_.steps;
        f.loss = lastLoss_;
        f.lr = lr;
        f.gradNorm = gradNorm;
        f.tokens = static_cast<std::int64_t>(tokens);
        f.tokensPerS = tokens / (stepMs / 1000.0);
        f.stepMs = stepMs;
        f.forwardMs = times.forwardMs;
        f.backwardMs = times.backwardMs;
        f.optimizerMs = times.optimizerMs;
        f.commExposedMs = times.exposedMs;
        f.memCurrent = static_cast<std::int64_t>(mem.current);
        f.memPeak = static_cast<std::int64_t>(mem.peak);
        const std::uint64_t held = deviceBytesHeld();
        f.memReserved = static_cast<std::int64_t>(onCuda() ? held : mem.current);
        f.deviceMemUsed = static_cast<std::int64_t>(held);
        f.evalLoss = evalLoss;
        f.evalPerplexity = std::exp(evalLoss);
        events().emit(f);
    }

    int exportFinal()
    {
        if (options_.exportPath.empty()) return code(CoreExit::Ok);
        const auto te = Clock::now();
        const std::map<std::string, std::string> meta{{"shardbench_step", std::to_string(tc_.steps)},
                                                      {"shardbench_model", plan_.model.preset}};
        const Status exported = fsdp_ ? exportFullModel(*fsdp_, *lp_.tree, mesh_, options_.exportPath, meta)
                                      : exportFullModel(optimParams_, *lp_.tree, options_.exportPath, meta);
        if (mesh_.rank() != 0) return code(CoreExit::Ok);
        protocol::CheckpointEvent ev;
        ev.step = tc_.steps;
        ev.path = options_.exportPath;
        ev.kind = "full";
        ev.ms = msSince(te);
        ev.status = exported ? "complete" : "failed";
        if (!exported) ev.message = exported.message();
        events().emit(ev);
        if (exported) return code(CoreExit::Ok);
        events().error(exported.message(), "export");
        return code(CoreExit::Failed);
    }

    const LoadedPlan& lp_;
    const Plan& plan_;
    const TrainingConfig& tc_;
    DeviceMesh& mesh_;
    const TrainerOptions& options_;
    const ResolvedPlan resolved_;
    std::unique_ptr<DataSource> data_;
    std::unique_ptr<DataSource> evalData_; // training.eval's held-out samples
    TransformerModel model_;
    std::unique_ptr<FullyShard> fsdp_;
    std::vector<torch::Tensor> optimParams_;
    std::vector<int> optimIndex_;           // the tree parameter of each entry of optimParams_
    std::unique_ptr<FusedAdamW> optimizer_;
    std::unique_ptr<Checkpointer> checkpointer_;
    TrainingPosition position_;
    bool resumed_ = false; // a checkpoint was loaded
    const int batch_, dataRanks_, dataRank_;
    double lastLoss_ = std::nan("");
    std::uint64_t runPeak_ = 0;
};

} // namespace

int train(const LoadedPlan& lp, const DistEnv& /*env*/, DeviceMesh& mesh, const TrainerOptions& options)
{
    Trainer trainer(lp, mesh, options);
    if (int rc = trainer.setUp(); rc != 0) return rc;
    return trainer.run();
}

} // namespace sb::engine
