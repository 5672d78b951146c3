#include "hf_config.hpp"

#include "json/json.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace sb::hf {

namespace {

constexpr std::uint64_t kMaxConfigBytes = 1u << 20;

Result<json::Value> readConfig(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return Status::error(path + ": no such file");
    if (!S_ISREG(st.st_mode)) return Status::error(path + ": not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > kMaxConfigBytes)
        return Status::error(path + ": " + std::to_string(st.st_size) + " bytes, too large for a config.json");
    std::ifstream f(path, std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    if (!f) return Status::error(path + ": cannot be read");
    json::ParseResult parsed = json::parse(text.str(), 64);
    if (!parsed) return Status::error(path + ": invalid JSON at " + parsed.error.toString());
    if (!parsed.value->isObject()) return Status::error(path + ": not a JSON object");
    return std::move(*parsed.value);
}

// Reads the fields of one config, naming the first that is missing or wrong.
class Fields {
public:
    Fields(const std::string& path, const json::Value& o) : path_(path), o_(o) {}

    std::int64_t positive(const char* key, std::optional<std::int64_t> fallback = std::nullopt)
    {
        const json::Value* v = o_.find(key);
        if ((!v || v->isNull()) && fallback) return *fallback;
        if (!v || !v->isInteger() || v->asInt() < 1 || v->asInt() > (1ll << 40)) {
            fail(std::string("\"") + key + "\" must be a positive integer");
            return 1;
        }
        return v->asInt();
    }
    double number(const char* key, double fallback)
    {
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isNumber()) fail(std::string("\"") + key + "\" must be a number");
        return v->isNumber() ? v->asDouble() : fallback;
    }
    bool flag(const char* key, bool fallback)
    {
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isBool()) fail(std::string("\"") + key + "\" must be true or false");
        return v->asBool();
    }
    std::string text(const char* key, const std::string& fallback)
    {
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isString()) fail(std::string("\"") + key + "\" must be a string");
        return v->isString() ? v->asString() : fallback;
    }
    bool present(const char* key) const
    {
        const json::Value* v = o_.find(key);
        return v && !v->isNull();
    }
    void fail(const std::string& why)
    {
        if (error_.empty()) error_ = path_ + ": " + why;
    }
    const std::string& error() const { return error_; }
    // The first failure of a reader of one of this object's objects.
    void adopt(const Fields& inner)
    {
        if (error_.empty()) error_ = inner.error();
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    const json::Value& o_;
    std::string error_;
};

// RoPE's base and scaling: transformers 5 writes them as rope_parameters
// (rope_type, rope_theta and the type's fields); earlier versions, and the
// configs on the Hub, as rope_theta and rope_scaling (rope_type, or type).
void readRope(Fields& f, const json::Value& config, ModelConfig& m)
{
    m.ropeTheta = f.number("rope_theta", 10000.0);
    const char* key = f.present("rope_parameters") ? "rope_parameters" : "rope_scaling";
    const json::Value* v = config.find(key);
    if (!v || v->isNull()) return;
    if (!v->isObject()) {
        f.fail(std::string("\"") + key + "\" must be an object");
        return;
    }
    Fields s(f.path() + ": in \"" + key + "\"", *v);
    m.ropeTheta = s.number("rope_theta", m.ropeTheta);
    const std::string type = s.text("rope_type", s.text("type", "default"));
    if (const double partial = s.number("partial_rotary_factor", 1.0); partial != 1.0)
        s.fail("\"partial_rotary_factor\" is " + json::formatNumber(partial) + "; the training core rotates the whole head");
    if (type == "llama3") {
        RopeScaling& r = m.ropeScaling;
        r.llama3 = true;
        r.factor = s.number("factor", -1.0);
        r.lowFreqFactor = s.number("low_freq_factor", -1.0);
        r.highFreqFactor = s.number("high_freq_factor", -1.0);
        r.originalMaxPositions = s.positive("original_max_position_embeddings");
        for (const char* need : {"factor", "low_freq_factor", "high_freq_factor"})
            if (!s.present(need)) s.fail(std::string("\"") + need + "\" is missing (rope_type \"llama3\" needs it)");
    } else if (type != "default") {
        s.fail("\"rope_type\" is \"" + type + "\"; the training core computes RoPE scaling of type \"llama3\" only");
    }
    f.adopt(s);
}

ModelConfig llama(Fields& f, const json::Value& config)
{
    ModelConfig m;
    m.arch = Arch::Llama;
    m.vocabSize = f.positive("vocab_size");
    m.dim = f.positive("hidden_size");
    m.ffnHidden = f.positive("intermediate_size");
    m.nLayers = f.positive("num_hidden_layers");
    m.nHeads = f.positive("num_attention_heads");
    m.nKvHeads = f.positive("num_key_value_heads", m.nHeads);
    m.maxSeqLen = f.positive("max_position_embeddings", 8192);
    m.tiedEmbeddings = f.flag("tie_word_embeddings", false);
    // The core's Llama: RoPE of any theta, unscaled or scaled as Llama 3.1,
    // RMSNorm eps 1e-5, SiLU, no biases, head_dim = hidden_size / num_attention_heads.
    readRope(f, config, m);
    if (const double eps = f.number("rms_norm_eps", 1e-6); std::abs(eps - 1e-5) > 1e-12)
        f.fail("\"rms_norm_eps\" is " + json::formatNumber(eps) + "; the training core's RMSNorm uses 1e-5");
    if (const std::string act = f.text("hidden_act", "silu"); act != "silu")
        f.fail("\"hidden_act\" is \"" + act + "\"; the training core's Llama MLP uses silu");
    if (f.flag("attention_bias", false) || f.flag("mlp_bias", false))
        f.fail("\"attention_bias\"/\"mlp_bias\" are set; the training core's Llama has no biases");
    if (f.present("head_dim") && f.positive("head_dim") * m.nHeads != m.dim)
        f.fail("\"head_dim\" times \"num_attention_heads\" is not \"hidden_size\"; the training core needs them equal");
    return m;
}

ModelConfig gpt2(Fields& f)
{
    ModelConfig m;
    m.arch = Arch::Gpt2;
    m.vocabSize = f.positive("vocab_size");
    m.dim = f.positive("n_embd");
    m.nLayers = f.positive("n_layer");
    m.nHeads = f.positive("n_head");
    m.nKvHeads = m.nHeads;
    m.ffnHidden = f.positive("n_inner", 4 * m.dim);
    m.maxSeqLen = f.positive("n_positions");
    m.tiedEmbeddings = f.flag("tie_word_embeddings", true);
    if (const std::string act = f.text("activation_function", "gelu_new"); act != "gelu_new" && act != "gelu_pytorch_tanh")
        f.fail("\"activation_function\" is \"" + act + "\"; the training core's GPT-2 uses the tanh GELU (gelu_new)");
    if (const double eps = f.number("layer_norm_epsilon", 1e-5); std::abs(eps - 1e-5) > 1e-12)
        f.fail("\"layer_norm_epsilon\" is " + json::formatNumber(eps) + "; the training core's LayerNorm uses 1e-5");
    return m;
}

} // namespace

Result<ModelConfig> modelFromConfig(const std::string& path)
{
    struct stat st {};
    const std::string file = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? path + "/config.json" : path;
    Result<json::Value> config = readConfig(file);
    if (!config) return config.status();
    Fields f(file, config.value());
    const std::string type = f.text("model_type", "");
    ModelConfig m;
    if (type == "llama") m = llama(f, config.value());
    else if (type == "gpt2") m = gpt2(f);
    else f.fail("\"model_type\" is \"" + type + "\"; shardbench imports \"llama\" and \"gpt2\"");
    if (!f.error().empty()) return Status::error(f.error());
    m.preset = "hf";
    Problems problems;
    m.validate(JsonPath(), problems);
    for (const Problem& p : problems)
        if (p.severity == Severity::Error) return Status::error(file + ": " + p.message());
    return m;
}

} // namespace sb::hf
