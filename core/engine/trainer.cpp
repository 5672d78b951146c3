#include "trainer.hpp"

#include "checkpointer.hpp"
#include "data.hpp"
#include "device.hpp"
#include "full_import.hpp"
#include "events.hpp"
#include "full_export.hpp"
#include "fully_shard.hpp"
#include "model.hpp"
#include "param_init.hpp"

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

json::Value planEvent(const LoadedPlan& lp, const ResolvedPlan& r, const DeviceMesh& mesh, FullyShard* fsdp)
{
    json::Value units = json::Value::array();
    for (std::size_t u = 0; u < r.units.size(); ++u) {
        json::Value ju = json::Value::object();
        ju.set("module", lp.tree->module(r.units[u].module).path);
        ju.set("params", static_cast<long long>(r.units[u].numel));
        if (fsdp) ju.set("shard_numel", static_cast<long long>(fsdp->units()[u]->shardNumel()));
        units.push(ju);
    }
    json::Value f = json::Value::object();
    f.set("params_total", static_cast<long long>(lp.tree->totalParams()));
    f.set("units", units);
    f.set("world", mesh.world());
    f.set("shard_size", mesh.shardSize());
    f.set("replicate", mesh.replicate());
    f.set("sharded", fsdp != nullptr);
    return f;
}

} // namespace

int train(const LoadedPlan& lp, const DistEnv& /*env*/, DeviceMesh& mesh, const TrainerOptions& options)
{
    const Plan& plan = lp.plan;
    const TrainingConfig& tc = plan.training;
    const ResolvedPlan resolved = resolvePlan(plan, *lp.tree);

    std::string dataError;
    std::unique_ptr<DataSource> data = DataSource::open(tc, plan.model.vocabSize, dataError);
    if (!data) {
        events().error(dataError, "$.training.data");
        return 2;
    }

    TransformerModel model(plan.model, lp.tree);
    std::unique_ptr<FullyShard> fsdp;
    std::vector<torch::Tensor> optimParams;
    std::vector<torch::Tensor> shardGrads; // sharded mode: gradients owned by the engine
    if (options.reference) {
        optimParams = materialiseFull(model, tc.seed);
    } else {
        fsdp = std::make_unique<FullyShard>(model, plan, resolved, mesh);
        for (auto& unit : fsdp->units())
            for (ShardParam& p : unit->params()) {
                p.shard.mutable_grad() = p.grad;
                optimParams.push_back(p.shard);
                shardGrads.push_back(p.grad);
            }
        for (torch::Tensor& t : fsdp->replicatedParams()) optimParams.push_back(t);
    }
    events().emit("plan", planEvent(lp, resolved, mesh, fsdp.get()));

    if (!options.initFrom.empty()) {
        const std::string err = fsdp ? importFullModel(*fsdp, *lp.tree, mesh, options.initFrom)
                                     : importFullModel(optimParams, *lp.tree, options.initFrom);
        if (!err.empty()) {
            events().error("cannot import initial weights: " + err, "--init-from");
            return 2;
        }
    }

    torch::optim::AdamW optimizer(optimParams, torch::optim::AdamWOptions(tc.optimizer.lr)
                                                   .betas({tc.optimizer.beta1, tc.optimizer.beta2})
                                                   .eps(tc.optimizer.eps)
                                                   .weight_decay(tc.optimizer.weightDecay));

    std::unique_ptr<Checkpointer> checkpointer;
    TrainingPosition position;
    if (fsdp) {
        checkpointer = std::make_unique<Checkpointer>(plan, *lp.tree, *fsdp, optimizer, mesh, options.runId);
        if (!options.resumePath.empty()) {
            bool loaded = false;
            const std::string err = checkpointer->load(options.resumePath, position, loaded);
            // Every rank loads its own rows: refuse together if any rank refused.
            torch::Tensor failed = torch::full({1}, err.empty() ? 0.0 : 1.0, torch::kDouble);
            mesh.allReduceSumWorld(failed);
            if (!err.empty()) {
                events().error("refusing to resume: " + err, "--resume");
                return 2;
            }
            if (failed.item<double>() > 0) {
                events().error("refusing to resume: another rank could not load the checkpoint (see its message)", "--resume");
                return 2;
            }
        }
    } else if (!options.resumePath.empty()) {
        events().error("--reference runs cannot resume from sharded checkpoints", "--resume");
        return 2;
    }

    // Reference mode runs the whole global batch in this one process.
    const int batch = options.reference ? tc.microBatch * plan.mesh.worldSize() : tc.microBatch;
    const int dataRanks = options.reference ? 1 : mesh.world();
    const int dataRank = options.reference ? 0 : mesh.rank();
    const int accum = tc.gradAccum;
    const std::int64_t vocab = plan.model.vocabSize;
    double lastLoss = std::nan("");
    std::uint64_t runPeak = 0;

    const std::uint64_t samplesPerStep = static_cast<std::uint64_t>(accum) * dataRanks * static_cast<std::uint64_t>(batch);
    for (int step = static_cast<int>(position.stepsDone); step < tc.steps; ++step) {
        const double lr = learningRate(tc.optimizer, step, tc.steps);
        static_cast<torch::optim::AdamWOptions&>(optimizer.param_groups()[0].options()).lr(lr);
        {
            torch::NoGradGuard noGrad;
            // The engine's sharded gradients, then autograd's own on full tensors
            // (the reference's parameters, or those a unit left unsharded).
            for (torch::Tensor& g : shardGrads) g.zero_();
            for (torch::Tensor& p : fsdp ? fsdp->replicatedParams() : optimParams)
                if (p.grad().defined()) p.mutable_grad().zero_();
        }
        resetDevicePeak();
        if (fsdp) fsdp->takeExposedCommMs();
        const auto t0 = Clock::now();
        double forwardMs = 0, backwardMs = 0, lossSum = 0;
        for (int micro = 0; micro < accum; ++micro) {
            if (fsdp) fsdp->setRequiresGradientSync(micro == accum - 1);
            // Global sample index: the data position continues across resumes at any world size.
            const std::uint64_t first =
                position.nextSample + (static_cast<std::uint64_t>(micro) * dataRanks + dataRank) * static_cast<std::uint64_t>(batch);
            torch::Tensor inputs, targets;
            data->read(first, batch, tc.seqLen, inputs, targets);
            inputs = inputs.to(computeDevice());
            targets = targets.to(computeDevice());
            const auto tf = Clock::now();
            torch::Tensor logits = model.forward(inputs);
            torch::Tensor loss = torch::nll_loss(torch::log_softmax(logits.view({-1, vocab}), -1), targets.view({-1}));
            logits = torch::Tensor();
            loss = loss / accum;
            synchronizeDevice();
            forwardMs += msSince(tf);
            const auto tb = Clock::now();
            loss.backward();
            synchronizeDevice();
            backwardMs += msSince(tb);
            lossSum += loss.item<double>();
        }

        const auto to = Clock::now();
        double exposedMs = fsdp ? fsdp->takeExposedCommMs() : 0.0;
        double gradNorm = 0;
        {
            torch::NoGradGuard noGrad;
            if (options.reference) {
                // LibTorch's own global-norm clipping on the full gradients.
                gradNorm = tc.gradClip > 0 ? torch::nn::utils::clip_grad_norm_(optimParams, tc.gradClip)
                                           : torch::nn::utils::clip_grad_norm_(optimParams, 1e30);
            } else {
                // Sum of squares of the local shards, all-reduced over the shard group.
                torch::Tensor sq = torch::zeros({1}, onDevice(torch::kDouble));
                for (const torch::Tensor& p : optimParams)
                    if (p.grad().defined() && p.numel() > 0) sq += p.grad().to(torch::kDouble).pow(2).sum();
                const auto tc0 = Clock::now();
                mesh.allReduceSumShard(sq);
                exposedMs += msSince(tc0);
                gradNorm = std::sqrt(sq.item<double>());
                if (tc.gradClip > 0) {
                    const double coef = tc.gradClip / (gradNorm + 1e-6);
                    if (coef < 1.0)
                        for (const torch::Tensor& p : optimParams)
                            if (p.grad().defined()) p.grad().mul_(coef);
                }
            }
        }
        optimizer.step();
        synchronizeDevice();
        const double optimizerMs = msSince(to);

        torch::Tensor lossT = torch::full({1}, lossSum, torch::kDouble);
        if (!options.reference) mesh.allReduceSumWorld(lossT);
        lastLoss = lossT.item<double>() / (options.reference ? 1 : mesh.world());
        const double stepMs = msSince(t0);
        const MemoryStats mem = deviceMemoryStats();
        runPeak = std::max(runPeak, mem.peak);
        const double tokens = static_cast<double>(batch) * tc.seqLen * accum * dataRanks;

        json::Value f = json::Value::object();
        f.set("step", step + 1);
        f.set("steps", tc.steps);
        f.set("loss", lastLoss);
        f.set("lr", lr);
        f.set("grad_norm", gradNorm);
        f.set("tokens", tokens);
        f.set("tokens_per_s", tokens / (stepMs / 1000.0));
        f.set("step_ms", stepMs);
        f.set("forward_ms", forwardMs);
        f.set("backward_ms", backwardMs);
        f.set("optimizer_ms", optimizerMs);
        f.set("comm_exposed_ms", exposedMs);
        f.set("mem_current", static_cast<long long>(mem.current));
        f.set("mem_peak", static_cast<long long>(mem.peak));
        f.set("mem_reserved", static_cast<long long>(onCuda() ? deviceBytesHeld() : mem.current));
        f.set("device_mem_used", static_cast<long long>(deviceBytesHeld()));
        events().emit("step", f);

        position.stepsDone = step + 1;
        position.nextSample += samplesPerStep;
        if (checkpointer) checkpointer->afterStep(position, step + 1 == tc.steps);
    }
    if (checkpointer) checkpointer->waitForPendingSave();

    if (!options.exportPath.empty()) {
        const auto te = Clock::now();
        const std::map<std::string, std::string> meta{{"shardbench_step", std::to_string(tc.steps)},
                                                      {"shardbench_model", plan.model.preset}};
        const std::string err = fsdp ? exportFullModel(*fsdp, *lp.tree, mesh, options.exportPath, meta)
                                     : exportFullModel(optimParams, *lp.tree, options.exportPath, meta);
        if (mesh.rank() == 0) {
            json::Value ev = json::Value::object();
            ev.set("step", tc.steps);
            ev.set("path", options.exportPath);
            ev.set("kind", "full");
            ev.set("ms", msSince(te));
            ev.set("status", err.empty() ? "complete" : "failed");
            if (!err.empty()) ev.set("message", err);
            events().emit("checkpoint", ev);
            if (!err.empty()) {
                events().error(err, "export");
                return 1;
            }
        }
    }

    json::Value done = json::Value::object();
    done.set("status", "ok");
    done.set("steps", tc.steps);
    done.set("final_loss", lastLoss);
    done.set("peak_bytes", static_cast<long long>(runPeak));
    events().emit("done", done);
    return 0;
}

} // namespace sb::engine
