#include "size_bound.hpp"

#include <algorithm>

namespace sb {

ByteBound planByteBound(const Plan& plan, const ModuleTree& tree)
{
    using LD = long double;
    constexpr LD e = 8; // the widest dtype's bytes per element
    // Parameters: a padded copy of a parameter split W ways is at most
    // numel + W * rowNumel elements. Sharded state, gathered copies, gradients,
    // communication buffers and optimizer temporaries are each at most that,
    // summed over all parameters: 16 copies covers every category.
    const LD W = std::max(1, plan.mesh.shardSize());
    LD elements = 0, widest = 1;
    for (const Param& p : tree.params()) {
        LD numel = 1, rowNumel = 1;
        for (std::size_t i = 0; i < p.shape.size(); ++i) {
            numel *= static_cast<LD>(p.shape[i]);
            if (i > 0) rowNumel *= static_cast<LD>(p.shape[i]);
            widest = std::max(widest, static_cast<LD>(p.shape[i]));
        }
        elements += numel + W * rowNumel;
    }
    const LD params = 16 * e * elements;

    // Activations: every term is tokens x a width, times a small factor; the
    // widths are the model's sizes, the attention scores' heads x sequence,
    // and (for imported models) any parameter dimension. Each module, each
    // unit's checkpointed input and the loss add at most 16 such terms.
    const ModelConfig& m = plan.model;
    const LD seq = std::max(1, plan.training.seqLen);
    const LD tokens = static_cast<LD>(std::max(1, plan.training.microBatch)) * seq;
    if (m.arch != Arch::Imported)
        widest = std::max({widest, static_cast<LD>(m.dim), static_cast<LD>(m.ffnHidden), static_cast<LD>(m.vocabSize),
                           static_cast<LD>(m.nHeads) * seq, static_cast<LD>(m.nKvHeads) * static_cast<LD>(m.headDim())});
    const LD terms = static_cast<LD>(tree.modules().size() + plan.units.size() + 4);
    return {params, 16 * e * tokens * widest * terms};
}

} // namespace sb
