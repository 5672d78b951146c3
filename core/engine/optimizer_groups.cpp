#include "optimizer_groups.hpp"

#include <algorithm>

namespace sb::engine {

namespace {
bool has(const OptimizerConfig& o, const char* kind)
{
    return std::find(o.noDecay.begin(), o.noDecay.end(), kind) != o.noDecay.end();
}
} // namespace

bool decays(const ModuleTree& tree, int param, const OptimizerConfig& o)
{
    const Param& p = tree.param(param);
    if (has(o, "1d") && p.shape.size() < 2) return false;
    const Param& owner = p.tiedTo >= 0 ? tree.param(p.tiedTo) : p;
    return !(has(o, "embeddings") && tree.module(owner.module).type == "Embedding");
}

std::unique_ptr<FusedAdamW> makeAdamW(const std::vector<torch::Tensor>& params, const std::vector<int>& index,
                                     const ModuleTree& tree, const OptimizerConfig& o)
{
    const auto options = torch::optim::AdamWOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps).weight_decay(o.weightDecay);
    std::vector<torch::Tensor> decayed, kept;
    for (std::size_t i = 0; i < params.size(); ++i) (decays(tree, index[i], o) ? decayed : kept).push_back(params[i]);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    if (!decayed.empty() || kept.empty()) groups.emplace_back(decayed);
    if (!kept.empty()) {
        auto noDecay = std::make_unique<torch::optim::AdamWOptions>(options);
        noDecay->weight_decay(0.0);
        groups.emplace_back(kept, std::move(noDecay));
    }
    return std::make_unique<FusedAdamW>(std::move(groups), options);
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr)
{
    for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
}

} // namespace sb::engine
