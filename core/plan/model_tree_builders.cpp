// Module trees of the presets, named as PyTorch prints them.
#include "model_config.hpp"

namespace sb {

namespace {

using Dims = std::vector<std::int64_t>;

void linear(ModuleTree& t, int parent, const char* name, std::int64_t in, std::int64_t out, bool bias, DType dt)
{
    int m = t.addModule(parent, name, "Linear");
    t.addParam(m, "weight", Dims{out, in}, dt);
    if (bias) t.addParam(m, "bias", Dims{out}, dt);
}

// Hugging Face Conv1D stores the weight as [in, out].
void conv1d(ModuleTree& t, int parent, const char* name, std::int64_t in, std::int64_t out, DType dt)
{
    int m = t.addModule(parent, name, "Conv1D");
    t.addParam(m, "weight", Dims{in, out}, dt);
    t.addParam(m, "bias", Dims{out}, dt);
}

void norm(ModuleTree& t, int parent, const char* name, std::int64_t dim, bool rms, DType dt)
{
    int m = t.addModule(parent, name, rms ? "RMSNorm" : "LayerNorm");
    t.addParam(m, "weight", Dims{dim}, dt);
    if (!rms) t.addParam(m, "bias", Dims{dim}, dt);
}

int embedding(ModuleTree& t, int parent, const char* name, std::int64_t n, std::int64_t dim, DType dt)
{
    int m = t.addModule(parent, name, "Embedding");
    return t.addParam(m, "weight", Dims{n, dim}, dt);
}

void buildTutorial(ModuleTree& t, const ModelConfig& c)
{
    const DType dt = c.dtype;
    int tok = embedding(t, 0, "tok_embeddings", c.vocabSize, c.dim, dt);
    embedding(t, 0, "pos_embeddings", c.maxSeqLen, c.dim, dt);
    int layers = t.addModule(0, "layers", "ModuleList");
    for (std::int64_t i = 0; i < c.nLayers; ++i) {
        int b = t.addModule(layers, std::to_string(i), "TransformerBlock");
        norm(t, b, "attention_norm", c.dim, false, dt);
        int a = t.addModule(b, "attention", "Attention");
        for (const char* w : {"wq", "wk", "wv", "wo"}) linear(t, a, w, c.dim, c.dim, false, dt);
        norm(t, b, "ffn_norm", c.dim, false, dt);
        int f = t.addModule(b, "feed_forward", "FeedForward");
        linear(t, f, "w1", c.dim, c.ffnHidden, true, dt);
        linear(t, f, "w2", c.ffnHidden, c.dim, true, dt);
    }
    norm(t, 0, "norm", c.dim, false, dt);
    if (c.tiedEmbeddings) {
        int o = t.addModule(0, "output", "Linear");
        t.addTiedParam(o, "weight", tok);
    } else {
        linear(t, 0, "output", c.dim, c.vocabSize, false, dt);
    }
}

void buildGpt2(ModuleTree& t, const ModelConfig& c)
{
    const DType dt = c.dtype;
    int tr = t.addModule(0, "transformer", "GPT2Model");
    int wte = embedding(t, tr, "wte", c.vocabSize, c.dim, dt);
    embedding(t, tr, "wpe", c.maxSeqLen, c.dim, dt);
    int h = t.addModule(tr, "h", "ModuleList");
    for (std::int64_t i = 0; i < c.nLayers; ++i) {
        int b = t.addModule(h, std::to_string(i), "GPT2Block");
        norm(t, b, "ln_1", c.dim, false, dt);
        int a = t.addModule(b, "attn", "GPT2Attention");
        conv1d(t, a, "c_attn", c.dim, 3 * c.dim, dt);
        conv1d(t, a, "c_proj", c.dim, c.dim, dt);
        norm(t, b, "ln_2", c.dim, false, dt);
        int m = t.addModule(b, "mlp", "GPT2MLP");
        conv1d(t, m, "c_fc", c.dim, c.ffnHidden, dt);
        conv1d(t, m, "c_proj", c.ffnHidden, c.dim, dt);
    }
    norm(t, tr, "ln_f", c.dim, false, dt);
    if (c.tiedEmbeddings) {
        int head = t.addModule(0, "lm_head", "Linear");
        t.addTiedParam(head, "weight", wte);
    } else {
        linear(t, 0, "lm_head", c.dim, c.vocabSize, false, dt);
    }
}

// Llama and the families of its form: Qwen2's q/k/v biases, Qwen3's per-head
// q/k norms (after wk and wv, as Hugging Face registers them).
void buildLlama(ModuleTree& t, const ModelConfig& c)
{
    const DType dt = c.dtype;
    const std::int64_t qDim = c.nHeads * c.headDim(), kvDim = c.nKvHeads * c.headDim();
    const bool bias = hasQkvBias(c.arch);
    int tok = embedding(t, 0, "tok_embeddings", c.vocabSize, c.dim, dt);
    int layers = t.addModule(0, "layers", "ModuleList");
    for (std::int64_t i = 0; i < c.nLayers; ++i) {
        int b = t.addModule(layers, std::to_string(i), "TransformerBlock");
        norm(t, b, "attention_norm", c.dim, true, dt);
        int a = t.addModule(b, "attention", "Attention");
        linear(t, a, "wq", c.dim, qDim, bias, dt);
        linear(t, a, "wk", c.dim, kvDim, bias, dt);
        linear(t, a, "wv", c.dim, kvDim, bias, dt);
        linear(t, a, "wo", qDim, c.dim, false, dt);
        if (hasQkNorm(c.arch)) {
            norm(t, a, "q_norm", c.headDim(), true, dt);
            norm(t, a, "k_norm", c.headDim(), true, dt);
        }
        norm(t, b, "ffn_norm", c.dim, true, dt);
        int f = t.addModule(b, "feed_forward", "FeedForward");
        linear(t, f, "w1", c.dim, c.ffnHidden, false, dt);
        linear(t, f, "w2", c.ffnHidden, c.dim, false, dt);
        linear(t, f, "w3", c.dim, c.ffnHidden, false, dt);
    }
    norm(t, 0, "norm", c.dim, true, dt);
    if (c.tiedEmbeddings) {
        int o = t.addModule(0, "output", "Linear");
        t.addTiedParam(o, "weight", tok);
    } else {
        linear(t, 0, "output", c.dim, c.vocabSize, false, dt);
    }
}

} // namespace

std::shared_ptr<const ModuleTree> buildModuleTree(const ModelConfig& c, Problems* problems)
{
    if (c.arch == Arch::Imported) {
        auto tree = std::make_shared<ModuleTree>();
        Problems local;
        if (!moduleTreeFromJson(c.importedTree, JsonPath().key("model").key("module_tree"), *tree, problems ? *problems : local)) {
            *tree = ModuleTree();
            tree->finish();
        }
        return tree;
    }
    auto tree = std::make_shared<ModuleTree>(c.arch == Arch::Gpt2 ? "GPT2LMHeadModel" : "Transformer");
    Problems sizes;
    c.validate(JsonPath().key("model"), sizes);
    if (!hasErrors(sizes)) {
        switch (c.arch) {
        case Arch::Tutorial: buildTutorial(*tree, c); break;
        case Arch::Gpt2: buildGpt2(*tree, c); break;
        case Arch::Llama:
        case Arch::Mistral:
        case Arch::Qwen2:
        case Arch::Qwen3: buildLlama(*tree, c); break;
        case Arch::Imported: break;
        }
    }
    tree->finish();
    return tree;
}

} // namespace sb
