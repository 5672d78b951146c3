#include "hf_export.hpp"

#include "hf_weights.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "checkpoint/fs_util.hpp"
#include "checkpoint/safetensors.hpp"
#include "json/json.hpp"
#include "plan/plan_json.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <regex>
#include <sys/stat.h>
#include <vector>

namespace sb::hf {

namespace {

struct Tensor {
    ckpt::SafetensorsEntry in;  // in the core's file
    ckpt::SafetensorsEntry out; // in the Hugging Face file
    int ropeHeads = 0;
};

bool emptyOrAbsent(const std::string& dir)
{
    DIR* d = ::opendir(dir.c_str());
    if (!d) return errno == ENOENT;
    bool empty = true;
    while (const dirent* e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) empty = false;
    ::closedir(d);
    return empty;
}

const char* hfArchitecture(Arch a)
{
    switch (a) {
    case Arch::Mistral: return "MistralForCausalLM";
    case Arch::Qwen2: return "Qwen2ForCausalLM";
    case Arch::Qwen3: return "Qwen3ForCausalLM";
    case Arch::Gpt2: return "GPT2LMHeadModel";
    default: return "LlamaForCausalLM";
    }
}

json::Value configJson(const ModelConfig& m, bool bf16)
{
    json::Value c = json::Value::object();
    const bool llama = llamaForm(m.arch);
    c.set("architectures", json::Value(json::Array{hfArchitecture(m.arch)}));
    c.set("model_type", archName(m.arch)); // the core's names of its families are Hugging Face's
    c.set("vocab_size", m.vocabSize);
    if (llama) {
        c.set("hidden_size", m.dim);
        c.set("intermediate_size", m.ffnHidden);
        c.set("num_hidden_layers", m.nLayers);
        c.set("num_attention_heads", m.nHeads);
        c.set("num_key_value_heads", m.nKvHeads);
        c.set("head_dim", m.headDim());
        c.set("max_position_embeddings", m.maxSeqLen);
        c.set("rope_theta", m.ropeTheta);
        if (m.ropeScaling.llama3) c.set("rope_scaling", ropeScalingJson(m.ropeScaling)); // as Llama 3.1's config.json
        c.set("rms_norm_eps", m.normEps);
        c.set("hidden_act", "silu");
        if (m.arch == Arch::Mistral) c.set("sliding_window", m.slidingWindow > 0 ? json::Value(m.slidingWindow) : json::Value());
        if (m.arch == Arch::Qwen2 || m.arch == Arch::Qwen3) {
            c.set("use_sliding_window", m.slidingWindow > 0);
            c.set("sliding_window", m.slidingWindow > 0 ? json::Value(m.slidingWindow) : json::Value());
        }
        if (m.arch == Arch::Llama || m.arch == Arch::Qwen3) c.set("attention_bias", false);
        if (m.arch == Arch::Llama) c.set("mlp_bias", false);
    } else {
        c.set("n_embd", m.dim);
        c.set("n_layer", m.nLayers);
        c.set("n_head", m.nHeads);
        c.set("n_inner", m.ffnHidden);
        c.set("n_positions", m.maxSeqLen);
        c.set("activation_function", "gelu_new");
        c.set("layer_norm_epsilon", m.normEps);
    }
    c.set("tie_word_embeddings", m.tiedEmbeddings);
    c.set("torch_dtype", bf16 ? "bfloat16" : "float32");
    return c;
}

// Copies one tensor: rows in Hugging Face's order, converted to the output dtype.
Status copyTensor(const std::string& coreFile, std::uint64_t dataStart, const Tensor& t, bool bf16,
                  ckpt::SafetensorsWriter& writer)
{
    const std::int64_t rows = t.in.shape.empty() ? 1 : t.in.shape[0];
    const std::uint64_t rowBytes = (t.in.end - t.in.begin) / static_cast<std::uint64_t>(rows);
    const std::int64_t rowsPerChunk = std::max<std::int64_t>(1, static_cast<std::int64_t>((16u << 20) / std::max<std::uint64_t>(1, rowBytes)));
    std::vector<float> in;
    std::vector<std::uint16_t> half;
    for (std::int64_t first = 0; first < rows; first += rowsPerChunk) {
        const std::int64_t n = std::min(rowsPerChunk, rows - first);
        in.resize(static_cast<std::size_t>(n) * rowBytes / sizeof(float));
        for (std::int64_t j = 0; j < n; ++j) { // output row first + j comes from core row `from`
            std::int64_t from = first + j;
            if (t.ropeHeads > 0) // the inverse of hfRowOfCoreRow over this head's rows
                for (std::int64_t r = (from / (rows / t.ropeHeads)) * (rows / t.ropeHeads);; ++r)
                    if (hfRowOfCoreRow(r, rows, t.ropeHeads) == first + j) {
                        from = r;
                        break;
                    }
            if (Status read = ckpt::readFileRange(coreFile, dataStart + t.in.begin + static_cast<std::uint64_t>(from) * rowBytes,
                                                  in.data() + static_cast<std::size_t>(j) * rowBytes / sizeof(float), rowBytes);
                !read)
                return read;
        }
        Status written;
        if (bf16) {
            half.resize(in.size());
            for (std::size_t i = 0; i < in.size(); ++i) half[i] = bf16Bits(in[i]);
            written = writer.write(half.data(), half.size() * sizeof(std::uint16_t));
        } else {
            written = writer.write(in.data(), in.size() * sizeof(float));
        }
        if (!written) return written;
    }
    return {};
}

} // namespace

std::uint16_t bf16Bits(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0) return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<std::uint16_t>(bits >> 16);
}

std::optional<std::string> hfNameOf(const std::string& corePath, const ModelConfig& model)
{
    if (corePath.size() > 512) return std::nullopt; // std::regex recurses per character
    if (model.arch == Arch::Gpt2) {
        if (corePath == "lm_head.weight") return model.tiedEmbeddings ? std::nullopt : std::optional<std::string>(corePath);
        return corePath.rfind("transformer.", 0) == 0 ? corePath.substr(12) : corePath;
    }
    static const std::vector<std::pair<std::regex, const char*>> rules = {
        {std::regex(R"(tok_embeddings\.weight)"), "model.embed_tokens.weight"},
        {std::regex(R"(norm\.weight)"), "model.norm.weight"},
        {std::regex(R"(output\.weight)"), "lm_head.weight"},
        {std::regex(R"(layers\.(\d+)\.attention\.w([qkvo])\.(weight|bias))"), "model.layers.$1.self_attn.$2_proj.$3"},
        {std::regex(R"(layers\.(\d+)\.attention\.([qk])_norm\.weight)"), "model.layers.$1.self_attn.$2_norm.weight"},
        {std::regex(R"(layers\.(\d+)\.feed_forward\.w1\.weight)"), "model.layers.$1.mlp.gate_proj.weight"},
        {std::regex(R"(layers\.(\d+)\.feed_forward\.w2\.weight)"), "model.layers.$1.mlp.down_proj.weight"},
        {std::regex(R"(layers\.(\d+)\.feed_forward\.w3\.weight)"), "model.layers.$1.mlp.up_proj.weight"},
        {std::regex(R"(layers\.(\d+)\.attention_norm\.weight)"), "model.layers.$1.input_layernorm.weight"},
        {std::regex(R"(layers\.(\d+)\.ffn_norm\.weight)"), "model.layers.$1.post_attention_layernorm.weight"},
    };
    if (corePath == "output.weight" && model.tiedEmbeddings) return std::nullopt;
    for (const auto& [pattern, hf] : rules) {
        std::smatch m;
        if (std::regex_match(corePath, m, pattern)) return m.format(hf);
    }
    return std::nullopt;
}

Status writeHfCheckpoint(const std::string& coreFile, const ModelConfig& model, const std::string& outDir,
                         const ExportOptions& options)
{
    if (!llamaForm(model.arch) && model.arch != Arch::Gpt2)
        return Status::error(std::string("the Hugging Face layout exists for Llama, Mistral, Qwen2, Qwen3 and GPT-2 models; this checkpoint's is \"") +
                             archName(model.arch) + "\"");
    if (!emptyOrAbsent(outDir)) return Status::error(outDir + ": exists and is not empty (refusing to mix checkpoints)");
    if (::mkdir(outDir.c_str(), 0777) != 0 && errno != EEXIST) return Status::error("cannot create " + outDir + ": " + std::strerror(errno));
    const Result<ckpt::SafetensorsFile> read = ckpt::readSafetensorsHeader(coreFile);
    if (!read) return read.status();
    const ckpt::SafetensorsFile& header = read.value();

    // The tensors, grouped into files of at most maxShardBytes (one tensor may exceed it).
    const std::uint64_t width = options.bf16 ? 2 : 4;
    std::vector<std::vector<Tensor>> files(1);
    std::uint64_t inFile = 0, total = 0;
    for (const ckpt::SafetensorsEntry& e : header.entries) {
        if (e.dtype != "F32") return Status::error(coreFile + ": tensor \"" + e.name + "\" is " + e.dtype + ", F32 expected");
        const std::optional<std::string> name = hfNameOf(e.name, model);
        if (!name) continue;
        Tensor t{e, e, 0};
        t.out.name = *name;
        t.out.dtype = options.bf16 ? "BF16" : "F32";
        const std::uint64_t bytes = (e.end - e.begin) / 4 * width;
        if (inFile > 0 && inFile + bytes > options.maxShardBytes) {
            files.emplace_back();
            inFile = 0;
        }
        t.out.begin = inFile;
        t.out.end = inFile + bytes;
        inFile += bytes;
        total += bytes;
        t.ropeHeads = ropeHeadsOf(e.name, model);
        files.back().push_back(t);
    }
    json::Value weightMap = json::Value::object();
    for (std::size_t f = 0; f < files.size(); ++f) {
        char shard[64];
        std::snprintf(shard, sizeof shard, "model-%05zu-of-%05zu.safetensors", f + 1, files.size());
        const std::string name = files.size() == 1 ? "model.safetensors" : shard;
        std::vector<ckpt::SafetensorsEntry> entries;
        for (const Tensor& t : files[f]) {
            entries.push_back(t.out);
            weightMap.set(t.out.name, name);
        }
        ckpt::SafetensorsWriter writer;
        if (Status opened = writer.open(outDir + "/" + name, entries, {{"format", "pt"}}); !opened) return opened;
        for (const Tensor& t : files[f])
            if (Status s = copyTensor(coreFile, header.dataStart, t, options.bf16, writer); !s) return s;
        if (Status closed = writer.close(); !closed) return closed;
    }
    if (files.size() > 1) {
        json::Value index = json::Value::object();
        json::Value meta = json::Value::object();
        meta.set("total_size", static_cast<long long>(total));
        index.set("metadata", std::move(meta));
        index.set("weight_map", std::move(weightMap));
        if (Status s = ckpt::writeFileDurably(outDir + "/model.safetensors.index.json", index.dump(2) + "\n"); !s) return s;
    }
    return ckpt::writeFileDurably(outDir + "/config.json", configJson(model, options.bf16).dump(2) + "\n");
}

Status exportCheckpointAsHf(const std::string& checkpointDir, const std::string& outDir, const ExportOptions& options,
                            const ckpt::Progress& progress)
{
    const Result<ckpt::CheckpointIndex> index = ckpt::readIndex(checkpointDir);
    if (!index) return index.status();
    const PlanReadResult plan = planFromJson(index.value().plan);
    if (!plan.ok()) return Status::error(checkpointDir + ": the plan in its index cannot be read");
    if (!emptyOrAbsent(outDir)) return Status::error(outDir + ": exists and is not empty (refusing to mix checkpoints)");
    const std::string tmp = outDir + ".core-export.tmp";
    Status exported = ckpt::exportCheckpoint(checkpointDir, tmp, progress);
    if (exported) exported = writeHfCheckpoint(tmp, plan.plan.model, outDir, options);
    std::remove(tmp.c_str());
    return exported;
}

} // namespace sb::hf
