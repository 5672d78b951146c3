#include "labels.hpp"

#include <QCoreApplication>

namespace sb::gui {

namespace {
struct Labels {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::Labels)
};
} // namespace

QString categoryLabel(MemCategory c)
{
    switch (c) {
    case MemCategory::ShardedParams: return Labels::tr("Sharded parameters");
    case MemCategory::ShardedGrads: return Labels::tr("Sharded gradients");
    case MemCategory::OptimizerState: return Labels::tr("Optimizer state");
    case MemCategory::UnshardedParams: return Labels::tr("Unsharded parameters");
    case MemCategory::CommBuffers: return Labels::tr("Communication buffers");
    case MemCategory::UnshardedGrads: return Labels::tr("Unsharded gradients");
    case MemCategory::Activations: return Labels::tr("Activations");
    case MemCategory::LogitsLoss: return Labels::tr("Logits and loss");
    case MemCategory::Other: return Labels::tr("Other");
    case MemCategory::Count: break;
    }
    return {};
}

QString categoryDescription(MemCategory c)
{
    switch (c) {
    case MemCategory::ShardedParams: return Labels::tr("Dim-0 shards of the parameters (padded), unless offloaded");
    case MemCategory::ShardedGrads: return Labels::tr("Sharded gradients, in the parameters' dtype");
    case MemCategory::OptimizerState: return Labels::tr("AdamW exp_avg and exp_avg_sq, in the parameters' dtype");
    case MemCategory::UnshardedParams: return Labels::tr("Gathered parameters in param_dtype: computing, kept, prefetched, 1/k copies");
    case MemCategory::CommBuffers: return Labels::tr("All-gather outputs and reduce-scatter buffers");
    case MemCategory::UnshardedGrads: return Labels::tr("Full-size gradients before reduce-scatter");
    case MemCategory::Activations: return Labels::tr("Tensors saved for backward and backward workspace");
    case MemCategory::LogitsLoss: return Labels::tr("Logits, log-softmax and their gradients");
    case MemCategory::Other: return Labels::tr("Input tokens and optimizer temporaries");
    case MemCategory::Count: break;
    }
    return {};
}

QColor categoryColor(MemCategory c)
{
    // Persistent state in blues, gathered parameters green, transient buffers warm.
    switch (c) {
    case MemCategory::ShardedParams: return QColor(0x2f, 0x5d, 0x8a);
    case MemCategory::ShardedGrads: return QColor(0x4e, 0x79, 0xa7);
    case MemCategory::OptimizerState: return QColor(0xa0, 0xcb, 0xe8);
    case MemCategory::UnshardedParams: return QColor(0x59, 0xa1, 0x4f);
    case MemCategory::CommBuffers: return QColor(0xf2, 0x8e, 0x2b);
    case MemCategory::UnshardedGrads: return QColor(0xb0, 0x7a, 0xa1);
    case MemCategory::Activations: return QColor(0xed, 0xc9, 0x48);
    case MemCategory::LogitsLoss: return QColor(0xff, 0x9d, 0xa7);
    case MemCategory::Other: return QColor(0xba, 0xb0, 0xac);
    case MemCategory::Count: break;
    }
    return Qt::gray;
}

QColor overCapacityColor() { return QColor(0xc6, 0x28, 0x28); }

QColor capacityColor() { return QColor(0x33, 0x33, 0x33); }

QString presetDescription(const std::string& preset)
{
    if (preset == "transformer") return Labels::tr("FSDP2 tutorial Transformer (editable sizes)");
    if (preset == "gpt2-124m") return Labels::tr("GPT-2 small, 12 layers, 768 wide");
    if (preset == "gpt2-355m") return Labels::tr("GPT-2 medium, 24 layers, 1024 wide");
    if (preset == "gpt2-774m") return Labels::tr("GPT-2 large, 36 layers, 1280 wide");
    if (preset == "gpt2-1.5b") return Labels::tr("GPT-2 XL, 48 layers, 1600 wide");
    if (preset == "llama3-8b") return Labels::tr("Llama-3 8B, 32 layers, 4096 wide, GQA 32/8");
    if (preset == "llama3-70b") return Labels::tr("Llama-3 70B, 80 layers, 8192 wide, GQA 64/8");
    if (preset == "llama3-405b") return Labels::tr("Llama-3 405B, 126 layers, 16384 wide, GQA 128/8");
    if (preset == "llama3.1-8b") return Labels::tr("Llama 3.1 8B (Llama-3 8B with RoPE scaling, 128k positions)");
    if (preset == "llama3.1-70b") return Labels::tr("Llama 3.1 and 3.3 70B (Llama-3 70B with RoPE scaling, 128k positions)");
    if (preset == "llama3.1-405b") return Labels::tr("Llama 3.1 405B, 126 layers, 16384 wide, RoPE scaling");
    if (preset == "llama3.2-1b") return Labels::tr("Llama 3.2 1B, 16 layers, 2048 wide, GQA 32/8, tied embeddings");
    if (preset == "llama3.2-3b") return Labels::tr("Llama 3.2 3B, 28 layers, 3072 wide, GQA 24/8, tied embeddings");
    if (preset == "mistral-7b") return Labels::tr("Mistral 7B v0.3, 32 layers, 4096 wide, GQA 32/8");
    if (preset == "qwen2.5-0.5b") return Labels::tr("Qwen2.5 0.5B, 24 layers, 896 wide, GQA 14/2, q/k/v bias, tied embeddings");
    if (preset == "qwen2.5-1.5b") return Labels::tr("Qwen2.5 1.5B, 28 layers, 1536 wide, GQA 12/2, q/k/v bias, tied embeddings");
    if (preset == "qwen2.5-3b") return Labels::tr("Qwen2.5 3B, 36 layers, 2048 wide, GQA 16/2, q/k/v bias, tied embeddings");
    if (preset == "qwen2.5-7b") return Labels::tr("Qwen2.5 7B, 28 layers, 3584 wide, GQA 28/4, q/k/v bias");
    if (preset == "qwen2.5-14b") return Labels::tr("Qwen2.5 14B, 48 layers, 5120 wide, GQA 40/8, q/k/v bias");
    if (preset == "qwen2.5-32b") return Labels::tr("Qwen2.5 32B, 64 layers, 5120 wide, GQA 40/8, q/k/v bias");
    if (preset == "qwen2.5-72b") return Labels::tr("Qwen2.5 72B, 80 layers, 8192 wide, GQA 64/8, q/k/v bias");
    if (preset == "qwen3-0.6b") return Labels::tr("Qwen3 0.6B, 28 layers, 1024 wide, GQA 16/8, q/k norms, tied embeddings");
    if (preset == "qwen3-1.7b") return Labels::tr("Qwen3 1.7B, 28 layers, 2048 wide, GQA 16/8, q/k norms, tied embeddings");
    if (preset == "qwen3-4b") return Labels::tr("Qwen3 4B, 36 layers, 2560 wide, GQA 32/8, q/k norms, tied embeddings");
    if (preset == "qwen3-8b") return Labels::tr("Qwen3 8B, 36 layers, 4096 wide, GQA 32/8, q/k norms");
    if (preset == "qwen3-14b") return Labels::tr("Qwen3 14B, 40 layers, 5120 wide, GQA 40/8, q/k norms");
    if (preset == "qwen3-32b") return Labels::tr("Qwen3 32B, 64 layers, 5120 wide, GQA 64/8, q/k norms");
    if (preset == "imported") return Labels::tr("Imported module tree");
    return QString::fromStdString(preset);
}

QString archLabel(Arch arch)
{
    switch (arch) {
    case Arch::Tutorial: return Labels::tr("Tutorial Transformer");
    case Arch::Gpt2: return Labels::tr("GPT-2");
    case Arch::Llama: return Labels::tr("Llama-3");
    case Arch::Imported: return Labels::tr("Imported");
    case Arch::Mistral: return Labels::tr("Mistral");
    case Arch::Qwen2: return Labels::tr("Qwen2");
    case Arch::Qwen3: return Labels::tr("Qwen3");
    }
    return {};
}

QString reshardLabel(const Reshard& r)
{
    switch (r.kind) {
    case Reshard::Default: return Labels::tr("default");
    case Reshard::True: return QStringLiteral("True");
    case Reshard::False: return QStringLiteral("False");
    case Reshard::Group: return Labels::tr("k = %1").arg(r.group);
    }
    return {};
}

} // namespace sb::gui
