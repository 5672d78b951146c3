#include "model_config.hpp"

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
    };
    return presets;
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
    }
    return "tutorial";
}

std::optional<Arch> parseArch(std::string_view s)
{
    if (s == "tutorial") return Arch::Tutorial;
    if (s == "gpt2") return Arch::Gpt2;
    if (s == "llama") return Arch::Llama;
    if (s == "imported") return Arch::Imported;
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
    bool ok = positive(vocabSize, "vocab_size", 1 << 24);
    ok &= positive(dim, "dim", 1 << 20);
    ok &= positive(nLayers, "n_layers", 100000);
    ok &= positive(nHeads, "n_heads", 1 << 14);
    ok &= positive(nKvHeads, "n_kv_heads", 1 << 14);
    ok &= positive(ffnHidden, "ffn_hidden", 1 << 22);
    ok &= positive(maxSeqLen, "max_seq_len", 1 << 22);
    if (!ok) return;
    if (dim % nHeads != 0)
        ps.push_back({Severity::Error, where.key("n_heads"), ProblemCode::ModelHeads, {dim, nHeads}});
    if (nHeads % nKvHeads != 0)
        ps.push_back({Severity::Error, where.key("n_kv_heads"), ProblemCode::ModelKvHeads, {nHeads, nKvHeads}});
    if (arch != Arch::Llama && nKvHeads != nHeads)
        ps.push_back({Severity::Error, where.key("n_kv_heads"), ProblemCode::ModelGqaArch, {}});
    // A real number, bounds included as the message says; shown as given
    // (cast to an integer, 1e19 was out of range: undefined behaviour).
    if (!(ropeTheta >= 1.0 && ropeTheta <= 1e12))
        ps.push_back({Severity::Error, where.key("rope_theta"), ProblemCode::ModelSize,
                      {"rope_theta", std::string("1e+12"), json::formatNumber(ropeTheta)}});
    if (arch == Arch::Llama && (dim / nHeads) % 2 != 0)
        ps.push_back({Severity::Error, where.key("n_heads"), ProblemCode::ModelRope, {dim / nHeads}});
    if (ropeScaling.llama3) {
        const JsonPath at = where.key("rope_scaling");
        if (arch != Arch::Llama) ps.push_back({Severity::Error, at, ProblemCode::ModelRopeScalingArch, {}});
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
