// One of the core's own CPU kernels against the ATen ops it replaces, inside
// one process (docs/performance.md, "Fused causal attention" and "GELU"):
// forward and backward of a plan's model on one thread, switching the
// kernel's variable (SB_ATTENTION by default, SB_ATTENTION_BF16_GEMM, SB_GELU, SB_LINEAR,
// SB_LAYER_NORM or SB_CROSS_ENTROPY) between "reference"
// and its default on every iteration, so load from other processes falls on
// both alike (runs of whole binaries on a shared 2-core host differed by more
// than one kernel's share). --bf16 runs the model with bf16 parameters.
// --profile TRACE.json then runs 10 more passes with every kernel at its
// default under LibTorch's profiler and writes a Chrome trace, which
// tools/bench/trace_self_time.py sums into self time per op and pass.
//
//   shardbench-attention-bench PLAN.json [--pairs N] [--switch VARIABLE (kSwitches below)] [--bf16]
//                              [--profile TRACE.json]
#include "cross_entropy.hpp"
#include "model.hpp"
#include "param_init.hpp"
#include "plan/model_config.hpp"
#include "plan/plan_json.hpp"

#include <torch/torch.h>
#include <torch/csrc/autograd/profiler_legacy.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <tuple>
#include <vector>

namespace {

// The kernels' variables --switch can flip (reference_switch.hpp).
const std::string kSwitches[] = {"SB_ATTENTION", "SB_ATTENTION_BF16_GEMM", "SB_GELU", "SB_LINEAR", "SB_LAYER_NORM", "SB_CROSS_ENTROPY"};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: shardbench-attention-bench PLAN.json [--pairs N] [--switch VARIABLE] [--bf16] [--profile TRACE.json]\n");
        return 2;
    }
    int pairs = 40;
    std::string variable = "SB_ATTENTION";
    bool bf16 = false;
    std::string profile;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--pairs") == 0 && i + 1 < argc) {
            pairs = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--switch") == 0 && i + 1 < argc) {
            variable = argv[++i];
        } else if (std::strcmp(argv[i], "--bf16") == 0) {
            bf16 = true;
        } else if (std::strcmp(argv[i], "--profile") == 0 && i + 1 < argc) {
            profile = argv[++i];
        } else {
            std::fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (std::find(std::begin(kSwitches), std::end(kSwitches), variable) == std::end(kSwitches)) {
        std::string all;
        for (const std::string& name : kSwitches) all += (all.empty() ? "" : ", ") + name;
        std::fprintf(stderr, "--switch takes one of %s\n", all.c_str());
        return 2;
    }
    const sb::PlanReadResult read = sb::loadPlanFile(argv[1]);
    if (!read.ok()) {
        std::fprintf(stderr, "cannot read plan %s\n", argv[1]);
        return 1;
    }
    const sb::Plan& plan = read.plan;
    if (const sb::Status why = sb::engine::TransformerModel::supports(plan.model); !why.ok()) {
        std::fprintf(stderr, "the core cannot run this plan's model\n");
        return 1;
    }
    torch::set_num_threads(1);
    // As the core sets them: freed blocks stay mapped, so no step faults them in again.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);

    const auto tree = sb::buildModuleTree(plan.model);
    sb::engine::TransformerModel model(plan.model, tree);
    std::vector<torch::Tensor> leaves;
    for (std::size_t i = 0; i < tree->params().size(); ++i) {
        const int tied = tree->param(static_cast<int>(i)).tiedTo;
        if (tied >= 0) continue;
        // Leaves in the compute dtype, as the core's unit parameters (a cast of
        // initFullParam's fp32 leaf would add a cast of every gradient).
        torch::Tensor p = sb::engine::initFullParam(*tree, static_cast<int>(i), 1).detach();
        if (bf16) p = p.to(torch::kBFloat16);
        model.params()[i] = p.set_requires_grad(true);
        leaves.push_back(model.params()[i]);
    }
    for (std::size_t i = 0; i < tree->params().size(); ++i)
        if (const int tied = tree->param(static_cast<int>(i)).tiedTo; tied >= 0)
            model.params()[i] = model.params()[static_cast<std::size_t>(tied)];
    const auto vocab = plan.model.vocabSize;
    const auto tokens = torch::randint(0, vocab, {plan.training.microBatch, plan.training.seqLen}, torch::kLong);
    const auto targets = torch::randint(0, vocab, {plan.training.microBatch, plan.training.seqLen}, torch::kLong);

    // One pass with fresh gradients: when it started (after the reset), and
    // when its forward and its backward ended.
    using Clock = std::chrono::steady_clock;
    auto pass = [&] {
        for (torch::Tensor& p : leaves) p.mutable_grad().reset();
        const auto start = Clock::now();
        const torch::Tensor loss = sb::engine::crossEntropyLoss(model.forward(tokens), targets);
        const auto forwardDone = Clock::now();
        loss.backward();
        return std::make_tuple(start, forwardDone, Clock::now());
    };
    std::vector<double> fwd[2], bwd[2], ratio;
    const int warmup = 4;
    for (int it = 0; it < 2 * pairs + warmup; ++it) {
        const int reference = it % 2;
        setenv(variable.c_str(), reference ? "reference" : "", 1);
        const auto [t0, t1, t2] = pass();
        if (it < warmup) continue;
        fwd[reference].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        bwd[reference].push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
        if (reference)
            ratio.push_back((fwd[0].back() + bwd[0].back()) / (fwd[1].back() + bwd[1].back()));
    }
    if (!profile.empty()) {
        setenv(variable.c_str(), "", 1);
        torch::autograd::profiler::RecordProfile guard{profile};
        for (int it = 0; it < 10; ++it) pass();
    }
    for (int r : {1, 0}) {
        std::vector<double> sum;
        for (std::size_t i = 0; i < fwd[r].size(); ++i) sum.push_back(fwd[r][i] + bwd[r][i]);
        std::printf("%-9s forward %6.1f ms  backward %6.1f ms  both %6.1f ms (medians of %d)\n",
                    r ? "reference" : "core", median(fwd[r]), median(bwd[r]), median(sum), pairs);
    }
    std::printf("core / reference (%s), forward+backward of the same pair: median %.3f\n", variable.c_str(), median(ratio));
    return 0;
}
