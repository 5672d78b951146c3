#include "model_config.hpp"
#include "plan_limits.hpp"

namespace sb {

namespace {

ModelConfig gpt2(const char* name, std::int64_t layers, std::int64_t dim, std::int64_t heads)
{
    ModelConfig c;
    c.preset = name;
    c.arch = Arch::Gpt2;
    c.vocabSize = 50257;
    c.dim = dim;
    c.nLayers = layers;
    c.nHeads = heads;
    c.nKvHeads = heads;
    c.ffnHidden = 4 * dim;
    c.maxSeqLen = 1024;
    c.tiedEmbeddings = true;
    return c;
}

ModelConfig llama3(const char* name, std::int64_t layers, std::int64_t dim, std::int64_t heads, std::int64_t ffn)
{
    ModelConfig c;
    c.preset = name;
    c.arch = Arch::Llama;
    c.vocabSize = 128256;
    c.dim = dim;
    c.nLayers = layers;
    c.nHeads = heads;
    c.nKvHeads = 8;
    c.ffnHidden = ffn;
    c.maxSeqLen = 8192;
    c.tiedEmbeddings = false;
    c.dtype = DType::F32;
    return c;
}

// Llama 3.1 and 3.2: Llama 3's sizes with RoPE scaling, 131072 positions.
ModelConfig llama31(const char* name, std::int64_t layers, std::int64_t dim, std::int64_t heads, std::int64_t ffn, double factor,
                    bool tied)
{
    ModelConfig c = llama3(name, layers, dim, heads, ffn);
    c.maxSeqLen = 131072;
    c.tiedEmbeddings = tied;
    c.ropeScaling = RopeScaling{true, factor, 1.0, 4.0, 8192};
    return c;
}

// Qwen2.5 and Qwen3: vocabulary 151,936 (the larger sizes 152,064), RoPE
// base 1e6, RMSNorm eps 1e-6, 32k positions in their config.json (Qwen3: 40k).
ModelConfig qwen(const char* name, Arch arch, std::int64_t layers, std::int64_t dim, std::int64_t heads, std::int64_t kvHeads,
                 std::int64_t ffn, bool tied, std::int64_t vocab)
{
    ModelConfig c = llama3(name, layers, dim, heads, ffn);
    c.arch = arch;
    c.nKvHeads = kvHeads;
    c.vocabSize = vocab;
    c.tiedEmbeddings = tied;
    c.ropeTheta = 1000000.0;
    c.normEps = 1e-6;
    c.maxSeqLen = arch == Arch::Qwen3 ? 40960 : 32768;
    if (arch == Arch::Qwen3) c.explicitHeadDim = 128;
    return c;
}

// Mistral 7B v0.3: Llama's form, 32,768 tokens, RoPE base 1e6, no sliding window.
ModelConfig mistral7b()
{
    ModelConfig c = llama3("mistral-7b", 32, 4096, 32, 14336);
    c.arch = Arch::Mistral;
    c.vocabSize = 32768;
    c.ropeTheta = 1000000.0;
    c.maxSeqLen = 32768;
    return c;
}

} // namespace

const std::vector<PresetInfo>& modelPresets()
{
    static const std::vector<PresetInfo> presets = {
        {"transformer", "FSDP2 tutorial Transformer (editable sizes)"},
        {"gpt2-124m", "GPT-2 small, 12 layers, 768 wide"},
        {"gpt2-355m", "GPT-2 medium, 24 layers, 1024 wide"},
        {"gpt2-774m", "GPT-2 large, 36 layers, 1280 wide"},
        {"gpt2-1.5b", "GPT-2 XL, 48 layers, 1600 wide"},
        {"llama3-8b", "Llama-3 8B, 32 layers, 4096 wide, GQA 32/8"},
        {"llama3-70b", "Llama-3 70B, 80 layers, 8192 wide, GQA 64/8"},
        {"llama3-405b", "Llama-3 405B, 126 layers, 16384 wide, GQA 128/8"},
        {"llama3.1-8b", "Llama 3.1 8B (Llama-3 8B with RoPE scaling, 128k positions)"},
        {"llama3.1-70b", "Llama 3.1 and 3.3 70B (Llama-3 70B with RoPE scaling, 128k positions)"},
        {"llama3.1-405b", "Llama 3.1 405B, 126 layers, 16384 wide, RoPE scaling"},
        {"llama3.2-1b", "Llama 3.2 1B, 16 layers, 2048 wide, GQA 32/8, tied embeddings"},
        {"llama3.2-3b", "Llama 3.2 3B, 28 layers, 3072 wide, GQA 24/8, tied embeddings"},
        {"mistral-7b", "Mistral 7B v0.3, 32 layers, 4096 wide, GQA 32/8"},
        {"qwen2.5-0.5b", "Qwen2.5 0.5B, 24 layers, 896 wide, GQA 14/2, q/k/v bias, tied embeddings"},
        {"qwen2.5-1.5b", "Qwen2.5 1.5B, 28 layers, 1536 wide, GQA 12/2, q/k/v bias, tied embeddings"},
        {"qwen2.5-3b", "Qwen2.5 3B, 36 layers, 2048 wide, GQA 16/2, q/k/v bias, tied embeddings"},
        {"qwen2.5-7b", "Qwen2.5 7B, 28 layers, 3584 wide, GQA 28/4, q/k/v bias"},
        {"qwen2.5-14b", "Qwen2.5 14B, 48 layers, 5120 wide, GQA 40/8, q/k/v bias"},
        {"qwen2.5-32b", "Qwen2.5 32B, 64 layers, 5120 wide, GQA 40/8, q/k/v bias"},
        {"qwen2.5-72b", "Qwen2.5 72B, 80 layers, 8192 wide, GQA 64/8, q/k/v bias"},
        {"qwen3-0.6b", "Qwen3 0.6B, 28 layers, 1024 wide, GQA 16/8, q/k norms, tied embeddings"},
        {"qwen3-1.7b", "Qwen3 1.7B, 28 layers, 2048 wide, GQA 16/8, q/k norms, tied embeddings"},
        {"qwen3-4b", "Qwen3 4B, 36 layers, 2560 wide, GQA 32/8, q/k norms, tied embeddings"},
        {"qwen3-8b", "Qwen3 8B, 36 layers, 4096 wide, GQA 32/8, q/k norms"},
        {"qwen3-14b", "Qwen3 14B, 40 layers, 5120 wide, GQA 40/8, q/k norms"},
        {"qwen3-32b", "Qwen3 32B, 64 layers, 5120 wide, GQA 64/8, q/k norms"},
    };
    return presets;
}

ModelConfig tutorialTransformer(std::int64_t vocab, std::int64_t dim, std::int64_t layers, std::int64_t heads,
                                std::int64_t ffnHidden, std::int64_t maxSeqLen)
{
    ModelConfig c;
    c.vocabSize = vocab;
    c.dim = dim;
    c.nLayers = layers;
    c.nHeads = heads;
    c.nKvHeads = heads;
    c.ffnHidden = ffnHidden;
    c.maxSeqLen = maxSeqLen;
    return c;
}

std::optional<ModelConfig> presetConfig(std::string_view name)
{
    if (name == "transformer") return ModelConfig{};
    if (name == "gpt2-124m") return gpt2("gpt2-124m", 12, 768, 12);
    if (name == "gpt2-355m") return gpt2("gpt2-355m", 24, 1024, 16);
    if (name == "gpt2-774m") return gpt2("gpt2-774m", 36, 1280, 20);
    if (name == "gpt2-1.5b") return gpt2("gpt2-1.5b", 48, 1600, 25);
    if (name == "llama3-8b") return llama3("llama3-8b", 32, 4096, 32, 14336);
    if (name == "llama3-70b") return llama3("llama3-70b", 80, 8192, 64, 28672);
    if (name == "llama3-405b") return llama3("llama3-405b", 126, 16384, 128, 53248);
    if (name == "llama3.1-8b") return llama31("llama3.1-8b", 32, 4096, 32, 14336, 8.0, false);
    if (name == "llama3.1-70b") return llama31("llama3.1-70b", 80, 8192, 64, 28672, 8.0, false);
    if (name == "llama3.1-405b") return llama31("llama3.1-405b", 126, 16384, 128, 53248, 8.0, false);
    if (name == "llama3.2-1b") return llama31("llama3.2-1b", 16, 2048, 32, 8192, 32.0, true);
    if (name == "llama3.2-3b") return llama31("llama3.2-3b", 28, 3072, 24, 8192, 32.0, true);
    if (name == "mistral-7b") return mistral7b();
    constexpr std::int64_t kSmall = 151936, kLarge = 152064; // Qwen's two vocabulary sizes
    if (name == "qwen2.5-0.5b") return qwen("qwen2.5-0.5b", Arch::Qwen2, 24, 896, 14, 2, 4864, true, kSmall);
    if (name == "qwen2.5-1.5b") return qwen("qwen2.5-1.5b", Arch::Qwen2, 28, 1536, 12, 2, 8960, true, kSmall);
    if (name == "qwen2.5-3b") return qwen("qwen2.5-3b", Arch::Qwen2, 36, 2048, 16, 2, 11008, true, kSmall);
    if (name == "qwen2.5-7b") return qwen("qwen2.5-7b", Arch::Qwen2, 28, 3584, 28, 4, 18944, false, kLarge);
    if (name == "qwen2.5-14b") return qwen("qwen2.5-14b", Arch::Qwen2, 48, 5120, 40, 8, 13824, false, kLarge);
    if (name == "qwen2.5-32b") return qwen("qwen2.5-32b", Arch::Qwen2, 64, 5120, 40, 8, 27648, false, kLarge);
    if (name == "qwen2.5-72b") return qwen("qwen2.5-72b", Arch::Qwen2, 80, 8192, 64, 8, 29568, false, kLarge);
    if (name == "qwen3-0.6b") return qwen("qwen3-0.6b", Arch::Qwen3, 28, 1024, 16, 8, 3072, true, kSmall);
    if (name == "qwen3-1.7b") return qwen("qwen3-1.7b", Arch::Qwen3, 28, 2048, 16, 8, 6144, true, kSmall);
    if (name == "qwen3-4b") return qwen("qwen3-4b", Arch::Qwen3, 36, 2560, 32, 8, 9728, true, kSmall);
    if (name == "qwen3-8b") return qwen("qwen3-8b", Arch::Qwen3, 36, 4096, 32, 8, 12288, false, kSmall);
    if (name == "qwen3-14b") return qwen("qwen3-14b", Arch::Qwen3, 40, 5120, 40, 8, 17408, false, kSmall);
    if (name == "qwen3-32b") return qwen("qwen3-32b", Arch::Qwen3, 64, 5120, 64, 8, 25600, false, kSmall);
    return std::nullopt;
}

json::Value ropeScalingJson(const RopeScaling& r)
{
    json::Value v = json::Value::object();
    v.set("rope_type", "llama3");
    v.set("factor", r.factor);
    v.set("low_freq_factor", r.lowFreqFactor);
    v.set("high_freq_factor", r.highFreqFactor);
    v.set("original_max_position_embeddings", r.originalMaxPositions);
    return v;
}

const char* archName(Arch a)
{
    switch (a) {
    case Arch::Tutorial: return "tutorial";
    case Arch::Gpt2: return "gpt2";
    case Arch::Llama: return "llama";
    case Arch::Imported: return "imported";
    case Arch::Mistral: return "mistral";
    case Arch::Qwen2: return "qwen2";
    case Arch::Qwen3: return "qwen3";
    }
    return "tutorial";
}

std::optional<Arch> parseArch(std::string_view s)
{
    if (s == "tutorial") return Arch::Tutorial;
    if (s == "gpt2") return Arch::Gpt2;
    if (s == "llama") return Arch::Llama;
    if (s == "imported") return Arch::Imported;
    if (s == "mistral") return Arch::Mistral;
    if (s == "qwen2") return Arch::Qwen2;
    if (s == "qwen3") return Arch::Qwen3;
    return std::nullopt;
}

void ModelConfig::validate(const JsonPath& where, Problems& ps) const
{
    if (arch == Arch::Imported) return; // checked when the tree is parsed
    auto positive = [&](std::int64_t v, const char* key, std::int64_t max) {
        if (v < 1 || v > max) {
            ps.push_back({Severity::Error, where.key(key), ProblemCode::ModelSize, {key, max, v}});
            return false;
        }
        return true;
    };
    using namespace plan_limits;
    bool ok = positive(vocabSize, "vocab_size", kMaxVocab);
    ok &= positive(dim, "dim", kMaxDim);
    ok &= positive(nLayers, "n_layers", kMaxLayers);
    ok &= positive(nHeads, "n_heads", kMaxHeads);
    ok &= positive(nKvHeads, "n_kv_heads", kMaxHeads);
    ok &= positive(ffnHidden, "ffn_hidden", kMaxFfn);
    ok &= positive(maxSeqLen, "max_seq_len", kMaxSeqLen);
    if (!ok) return;
    const bool llama = llamaForm(arch);
    if (explicitHeadDim != 0 && !llama)
        ps.push_back({Severity::Error, where.key("head_dim"), ProblemCode::ModelFieldArch, {std::string("head_dim")}});
    else if (explicitHeadDim != 0 && !positive(explicitHeadDim, "head_dim", kMaxHeadDim))
        return;
    else if (explicitHeadDim == 0 && dim % nHeads != 0)
        ps.push_back({Severity::Error, where.key("n_heads"), ProblemCode::ModelHeads, {dim, nHeads}});
    if (nHeads % nKvHeads != 0)
        ps.push_back({Severity::Error, where.key("n_kv_heads"), ProblemCode::ModelKvHeads, {nHeads, nKvHeads}});
    if (!llama && nKvHeads != nHeads)
        ps.push_back({Severity::Error, where.key("n_kv_heads"), ProblemCode::ModelGqaArch, {}});
    // A real number, bounds included as the message says; shown as given
    // (cast to an integer, 1e19 was out of range: undefined behaviour).
    if (!(ropeTheta >= 1.0 && ropeTheta <= 1e12))
        ps.push_back({Severity::Error, where.key("rope_theta"), ProblemCode::ModelSize,
                      {"rope_theta", std::string("1e+12"), json::formatNumber(ropeTheta)}});
    if (!(normEps > 0.0 && normEps <= 1.0))
        ps.push_back({Severity::Error, where.key("norm_eps"), ProblemCode::ModelValue,
                      {"norm_eps", std::string("above 0 and at most 1"), json::formatNumber(normEps)}});
    if (slidingWindow < 0 || slidingWindow > kMaxSlidingWindow)
        ps.push_back({Severity::Error, where.key("sliding_window"), ProblemCode::ModelValue,
                      {"sliding_window", std::string("0 (none) or a number of tokens"), std::to_string(slidingWindow)}});
    else if (slidingWindow > 0 && !llama)
        ps.push_back({Severity::Error, where.key("sliding_window"), ProblemCode::ModelFieldArch, {std::string("sliding_window")}});
    if (llama && headDim() % 2 != 0)
        ps.push_back({Severity::Error, where.key(explicitHeadDim ? "head_dim" : "n_heads"), ProblemCode::ModelRope, {headDim()}});
    if (ropeScaling.llama3) {
        const JsonPath at = where.key("rope_scaling");
        if (!llama) ps.push_back({Severity::Error, at, ProblemCode::ModelRopeScalingArch, {}});
        auto bad = [&](const char* key, const char* must, double v) {
            ps.push_back({Severity::Error, at.key(key), ProblemCode::ModelRopeScalingValue, {key, std::string(must), json::formatNumber(v)}});
        };
        const RopeScaling& r = ropeScaling;
        if (!(r.factor >= 1.0 && r.factor <= 1e6)) bad("factor", "between 1 and 1e+06", r.factor);
        if (!(r.lowFreqFactor > 0.0 && r.lowFreqFactor <= 1e6)) bad("low_freq_factor", "above 0 and at most 1e+06", r.lowFreqFactor);
        if (!(r.highFreqFactor > r.lowFreqFactor && r.highFreqFactor <= 1e6))
            bad("high_freq_factor", "above low_freq_factor and at most 1e+06", r.highFreqFactor);
    }
}

} // namespace sb
