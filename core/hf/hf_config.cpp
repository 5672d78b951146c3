#include "hf_config.hpp"

#include "json/json.hpp"

#include <fstream>
#include <set>
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
        read_.insert(key);
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
        read_.insert(key);
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isNumber()) fail(std::string("\"") + key + "\" must be a number");
        return v->isNumber() ? v->asDouble() : fallback;
    }
    bool flag(const char* key, bool fallback)
    {
        read_.insert(key);
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isBool()) fail(std::string("\"") + key + "\" must be true or false");
        return v->asBool();
    }
    std::string text(const char* key, const std::string& fallback)
    {
        read_.insert(key);
        const json::Value* v = o_.find(key);
        if (!v || v->isNull()) return fallback;
        if (!v->isString()) fail(std::string("\"") + key + "\" must be a string");
        return v->isString() ? v->asString() : fallback;
    }
    const json::Value* find(const char* key)
    {
        read_.insert(key);
        return o_.find(key);
    }
    bool present(const char* key)
    {
        read_.insert(key);
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
    // Fields that never change what the model computes (names, token ids,
    // generation settings, transformers' bookkeeping): accepted unread.
    void ignore(std::initializer_list<const char*> keys) { read_.insert(keys.begin(), keys.end()); }
    // Refuses the first field that nothing read nor ignored: an option of the
    // family the core does not know of, which may change what is computed.
    void refuseUnread(const std::string& what)
    {
        for (const json::Member& m : o_.asObject())
            if (!read_.count(m.first)) {
                fail("\"" + m.first + "\" is not a field shardbench knows in " + what +
                     "; it may change what the model computes (docs/interoperability.md lists the fields read)");
                return;
            }
    }

private:
    std::string path_;
    const json::Value& o_;
    std::string error_;
    std::set<std::string> read_;
};

// What any transformers config may carry that the computation never depends
// on: identity, token ids, dtypes of the saved file, generation defaults and
// the PretrainedConfig bookkeeping older versions wrote out.
void ignoreMetadata(Fields& f)
{
    f.ignore({"_name_or_path", "architectures", "transformers_version", "dtype", "torch_dtype", "use_bfloat16", "use_cache",
              "initializer_range", "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id",
              "tokenizer_class", "id2label", "label2id", "problem_type", "finetuning_task", "task_specific_params", "prefix",
              "output_attentions", "output_hidden_states", "return_dict", "torchscript", "tf_legacy_loss", "chunk_size_feed_forward",
              "is_decoder", "tie_encoder_decoder", "cross_attention_hidden_size", "gradient_checkpointing",
              "max_length", "min_length", "do_sample", "early_stopping", "num_beams", "num_beam_groups", "diversity_penalty",
              "temperature", "top_k", "top_p", "typical_p", "repetition_penalty", "length_penalty", "no_repeat_ngram_size",
              "encoder_no_repeat_ngram_size", "bad_words_ids", "num_return_sequences", "output_scores", "return_dict_in_generate",
              "forced_bos_token_id", "forced_eos_token_id", "remove_invalid_values", "exponential_decay_length_penalty",
              "suppress_tokens", "begin_suppress_tokens"});
    if (f.flag("is_encoder_decoder", false)) f.fail("\"is_encoder_decoder\" is true; the training core trains decoder-only models");
    if (f.flag("add_cross_attention", false)) f.fail("\"add_cross_attention\" is true; the training core has no cross-attention");
    if (const json::Value* pruned = f.find("pruned_heads"); pruned && !pruned->isNull() &&
        !((pruned->isObject() && pruned->asObject().empty()) || (pruned->isArray() && pruned->asArray().empty())))
        f.fail("\"pruned_heads\" is not empty; the training core keeps every head");
}

// RoPE's base and scaling: transformers 5 writes them as rope_parameters
// (rope_type, rope_theta and the type's fields); earlier versions, and the
// configs on the Hub, as rope_theta and rope_scaling (rope_type, or type).
void readRope(Fields& f, ModelConfig& m)
{
    m.ropeTheta = f.number("rope_theta", 10000.0);
    // transformers 5 reads rope_parameters where both are present.
    const char* key = f.present("rope_parameters") ? "rope_parameters" : "rope_scaling";
    f.ignore({"rope_scaling"});
    const json::Value* v = f.find(key);
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
    } else {
        s.ignore({"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}); // unused by "default"
    }
    s.refuseUnread("\"" + std::string(key) + "\"");
    f.adopt(s);
}

// The fields a family's config.json may carry that the core does not compute
// when set: refused, naming the field, never trained as something else.
void refuseSet(Fields& f, const char* key, const char* why)
{
    if (f.flag(key, false)) f.fail("\"" + std::string(key) + "\" is true; " + why);
}

// A sliding window: Mistral's sliding_window when set; Qwen's only where
// use_sliding_window (or a layer_types entry) turns it on. Kept in the plan,
// which refuses a sequence longer than it (the core attends to all of it).
std::int64_t slidingWindowOf(Fields& f, Arch arch)
{
    if (arch == Arch::Mistral) return f.present("sliding_window") ? f.positive("sliding_window") : 0;
    bool sliding = f.flag("use_sliding_window", false);
    f.ignore({"max_window_layers"}); // which layers slide: moot, the plan's sequence never exceeds the window
    if (const json::Value* types = f.find("layer_types"); types && types->isArray())
        for (const json::Value& t : types->asArray()) sliding |= t.isString() && t.asString() == "sliding_attention";
    f.ignore({"sliding_window"}); // Llama ignores it; Qwen only with use_sliding_window
    return sliding ? f.positive("sliding_window") : 0;
}

// Llama's form: Llama, Mistral, Qwen2 (q/k/v biases) and Qwen3 (q/k norms,
// explicit head_dim). RoPE of any theta, unscaled or scaled as Llama 3.1,
// SiLU, RMSNorm of any eps, no other biases.
ModelConfig readLlamaForm(Fields& f, Arch arch)
{
    ModelConfig m;
    m.arch = arch;
    m.vocabSize = f.positive("vocab_size");
    m.dim = f.positive("hidden_size");
    m.ffnHidden = f.positive("intermediate_size");
    m.nLayers = f.positive("num_hidden_layers");
    m.nHeads = f.positive("num_attention_heads");
    m.nKvHeads = f.positive("num_key_value_heads", m.nHeads);
    m.maxSeqLen = f.positive("max_position_embeddings", 8192);
    m.tiedEmbeddings = f.flag("tie_word_embeddings", false);
    readRope(f, m);
    m.normEps = f.number("rms_norm_eps", 1e-6);
    if (const std::string act = f.text("hidden_act", "silu"); act != "silu")
        f.fail("\"hidden_act\" is \"" + act + "\"; the training core's MLP uses silu");
    if (f.present("head_dim")) {
        const std::int64_t hd = f.positive("head_dim");
        if (hd * m.nHeads != m.dim) m.explicitHeadDim = hd;
    }
    m.slidingWindow = slidingWindowOf(f, arch);
    if (arch == Arch::Qwen2) {
        if (f.present("attention_bias") && !f.flag("attention_bias", true))
            f.fail("\"attention_bias\" is false; the training core's Qwen2 has q/k/v biases");
        refuseSet(f, "use_mrope", "multimodal RoPE (Qwen2-VL) is not what the training core computes");
    } else {
        refuseSet(f, "attention_bias", "the training core has no attention biases in this family");
    }
    refuseSet(f, "mlp_bias", "the training core's MLP has no biases");
    for (const char* moe : {"num_experts", "num_local_experts", "n_routed_experts"})
        if (f.present(moe)) f.fail("\"" + std::string(moe) + "\" is set; the training core trains dense models, not mixtures of experts");
    if (const json::Value* types = f.find("layer_types"); types && !types->isNull() && !types->isArray())
        f.fail("\"layer_types\" must be a list");
    if (const double p = f.number("attention_dropout", 0.0); p != 0.0)
        f.fail("\"attention_dropout\" is " + json::formatNumber(p) + "; the training core has no dropout (0)");
    if (const double p = f.number("pretraining_tp", 1.0); p != 1.0)
        f.fail("\"pretraining_tp\" is " + json::formatNumber(p) + "; the training core computes the projections whole (1)");
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
    m.normEps = f.number("layer_norm_epsilon", 1e-5);
    if (!f.flag("scale_attn_weights", true)) f.fail("\"scale_attn_weights\" is false; the training core scales attention by 1/sqrt(head width)");
    if (f.flag("scale_attn_by_inverse_layer_idx", false))
        f.fail("\"scale_attn_by_inverse_layer_idx\" is true; the training core scales every layer's attention alike");
    // n_ctx: n_positions under its old name. The summary head is GPT2DoubleHeadsModel's.
    // reorder_and_upcast_attn changes only the rounding of fp16 attention.
    // Dropout: every published GPT-2 sets 0.1; the core trains without it, as
    // nanoGPT pretrains (docs/interoperability.md says so).
    f.ignore({"n_ctx", "summary_type", "summary_use_proj", "summary_activation", "summary_proj_to_labels", "summary_first_dropout",
              "reorder_and_upcast_attn", "attn_pdrop", "embd_pdrop", "resid_pdrop"});
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
    if (const std::optional<Arch> arch = parseArch(type); arch && llamaForm(*arch)) m = readLlamaForm(f, *arch);
    else if (type == "gpt2") m = gpt2(f);
    else f.fail("\"model_type\" is \"" + type + "\"; shardbench imports \"llama\", \"mistral\", \"qwen2\", \"qwen3\" and \"gpt2\"");
    ignoreMetadata(f);
    f.refuseUnread("a \"" + type + "\" config");
    if (!f.error().empty()) return Status::error(f.error());
    m.preset = "hf";
    Problems problems;
    m.validate(JsonPath(), problems);
    for (const Problem& p : problems)
        if (p.severity == Severity::Error) return Status::error(file + ": " + p.message());
    return m;
}

} // namespace sb::hf
