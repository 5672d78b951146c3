#include "checkpointing.hpp"

#include "fully_shard.hpp"

namespace sb::engine {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

struct PostBackwardFn : public torch::autograd::Function<PostBackwardFn> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, int64_t unit)
    {
        ctx->saved_data["unit"] = unit;
        return x;
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        FullyShard::active()->postBackward(static_cast<int>(ctx->saved_data["unit"].toInt()));
        return {grads[0], torch::Tensor()};
    }
};

struct CheckpointFn : public torch::autograd::Function<CheckpointFn> {
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& anchor, int64_t unit)
    {
        (void)anchor;
        ctx->saved_data["unit"] = unit;
        ctx->save_for_backward({x});
        torch::NoGradGuard noGrad;
        return FullyShard::active()->runCheckpointed(static_cast<int>(unit), x);
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads)
    {
        const int unit = static_cast<int>(ctx->saved_data["unit"].toInt());
        const torch::Tensor x = ctx->get_saved_variables()[0];
        torch::Tensor input = x.detach();
        const bool wantInputGrad = x.requires_grad() && torch::isFloatingType(x.scalar_type());
        if (wantInputGrad) input.set_requires_grad(true);
        torch::Tensor y;
        {
            torch::AutoGradMode enable(true);
            y = FullyShard::active()->recompute(unit, input);
        }
        // Reentrant backward through the recomputed graph: parameter gradients
        // accumulate into the unsharded parameters; nested units' hooks fire.
        std::vector<torch::Tensor> inputs;
        if (wantInputGrad) inputs.push_back(input);
        torch::Tensor inputGrad;
        if (y.requires_grad()) {
            torch::autograd::backward({y}, {grads[0]}, /*retain_graph=*/false, /*create_graph=*/false);
            if (wantInputGrad) inputGrad = input.grad();
        }
        return {inputGrad, torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor registerPostBackward(const torch::Tensor& x, int unit)
{
    return PostBackwardFn::apply(x, static_cast<int64_t>(unit));
}

torch::Tensor checkpointUnit(const torch::Tensor& x, const torch::Tensor& anchor, int unit)
{
    return CheckpointFn::apply(x, anchor, static_cast<int64_t>(unit));
}

} // namespace sb::engine
