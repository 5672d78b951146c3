#include "hf_weights.hpp"

#include "json/json.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/stat.h>

namespace sb::hf {

namespace {

constexpr std::uint64_t kMaxIndexBytes = 64u << 20;
constexpr std::size_t kMaxNameLength = 512;

bool isDir(const std::string& p)
{
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isFile(const std::string& p)
{
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string folderOf(const std::string& p)
{
    const std::size_t slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

struct Rule {
    std::regex pattern;
    const char* core;
};

const std::vector<Rule>& llamaRules()
{
    static const std::vector<Rule> rules = {
        {std::regex(R"(model\.embed_tokens\.weight)"), "tok_embeddings.weight"},
        {std::regex(R"(model\.norm\.weight)"), "norm.weight"},
        {std::regex(R"(lm_head\.weight)"), "output.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.self_attn\.([qkvo])_proj\.(weight|bias))"), "layers.$1.attention.w$2.$3"},
        {std::regex(R"(model\.layers\.(\d+)\.self_attn\.([qk])_norm\.weight)"), "layers.$1.attention.$2_norm.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.mlp\.gate_proj\.weight)"), "layers.$1.feed_forward.w1.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.mlp\.down_proj\.weight)"), "layers.$1.feed_forward.w2.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.mlp\.up_proj\.weight)"), "layers.$1.feed_forward.w3.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.input_layernorm\.weight)"), "layers.$1.attention_norm.weight"},
        {std::regex(R"(model\.layers\.(\d+)\.post_attention_layernorm\.weight)"), "layers.$1.ffn_norm.weight"},
    };
    return rules;
}

Result<json::Value> readJsonFile(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return Status::error(path + ": not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) > kMaxIndexBytes)
        return Status::error(path + ": " + std::to_string(st.st_size) + " bytes, too large for a safetensors index");
    std::ifstream f(path, std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    json::ParseResult parsed = json::parse(text.str(), 64);
    if (!parsed) return Status::error(path + ": invalid JSON at " + parsed.error.toString());
    return std::move(*parsed.value);
}

// Adds the tensors of one .safetensors file; `only`: names the index maps to it.
Status addFile(const std::string& file, const ModelConfig& model, bool huggingFace, const std::vector<std::string>* only,
               WeightSource& out)
{
    const Result<ckpt::SafetensorsFile> read = ckpt::readSafetensorsHeader(file);
    if (!read) return read.status();
    const ckpt::SafetensorsFile& header = read.value();
    for (const ckpt::SafetensorsEntry& e : header.entries) {
        if (only && std::find(only->begin(), only->end(), e.name) == only->end()) continue;
        CoreName name{e.name, 0};
        if (huggingFace) {
            std::optional<CoreName> mapped = coreNameOf(e.name, model);
            if (!mapped) continue;
            name = *mapped;
        }
        if (!out.tensors.emplace(name.path, WeightTensor{file, header.dataStart, e, name.ropeHeads}).second)
            return Status::error(file + ": holds \"" + e.name + "\" twice (as \"" + name.path + "\")");
    }
    if (only)
        for (const std::string& n : *only)
            if (std::none_of(header.entries.begin(), header.entries.end(), [&](const ckpt::SafetensorsEntry& e) { return e.name == n; }))
                return Status::error(file + ": has no tensor \"" + n + "\", which the index maps to it");
    return {};
}

bool looksHuggingFace(const std::string& file)
{
    const Result<ckpt::SafetensorsFile> header = ckpt::readSafetensorsHeader(file);
    if (!header) return false;
    for (const ckpt::SafetensorsEntry& e : header.value().entries)
        if (e.name.rfind("model.", 0) == 0 || e.name.rfind("h.", 0) == 0 || e.name == "wte.weight") return true;
    return false;
}

Result<WeightSource> openIndex(const std::string& path, const ModelConfig& model)
{
    Result<json::Value> index = readJsonFile(path);
    if (!index) return index.status();
    const json::Value* map = index.value().isObject() ? index.value().find("weight_map") : nullptr;
    if (!map || !map->isObject()) return Status::error(path + ": not a safetensors index (no \"weight_map\" object)");
    std::map<std::string, std::vector<std::string>> byFile;
    for (const json::Member& m : map->asObject()) {
        if (!m.second.isString() || m.second.asString().empty() || m.second.asString().find('/') != std::string::npos)
            return Status::error(path + ": \"" + m.first + "\" is not mapped to a file name in this folder");
        byFile[m.second.asString()].push_back(m.first);
    }
    WeightSource out;
    out.huggingFace = true;
    for (const auto& [file, names] : byFile)
        if (Status s = addFile(folderOf(path) + "/" + file, model, true, &names, out); !s) return s.prefixed(path);
    return out;
}

} // namespace

std::optional<CoreName> coreNameOf(const std::string& hfName, const ModelConfig& model)
{
    // std::regex recurses per character: a hostile file's megabyte-long name
    // would exhaust the stack. No parameter name is this long.
    if (hfName.size() > kMaxNameLength) return std::nullopt;
    if (model.arch == Arch::Gpt2) {
        static const std::regex buffers(R"((transformer\.)?h\.\d+\.attn\.(masked_)?bias)");
        if (std::regex_match(hfName, buffers)) return std::nullopt;
        static const std::regex base(R"((wte|wpe|ln_f|h\.\d+)\..*)");
        if (std::regex_match(hfName, base)) return CoreName{"transformer." + hfName, 0};
        return CoreName{hfName, 0}; // transformer.* and lm_head.weight are the core's names
    }
    for (const Rule& r : llamaRules()) {
        std::smatch m;
        if (!std::regex_match(hfName, m, r.pattern)) continue;
        const std::string path = m.format(r.core);
        return CoreName{path, ropeHeadsOf(path, model)};
    }
    return std::nullopt; // rotary inv_freq and anything the core has no parameter for
}

int ropeHeadsOf(const std::string& corePath, const ModelConfig& model)
{
    if (!llamaForm(model.arch)) return 0;
    auto is = [&](const char* tail) { return endsWith(corePath, tail); };
    if (is(".attention.wq.weight") || is(".attention.wq.bias")) return static_cast<int>(model.nHeads);
    if (is(".attention.wk.weight") || is(".attention.wk.bias")) return static_cast<int>(model.nKvHeads);
    if (is(".attention.q_norm.weight") || is(".attention.k_norm.weight")) return 1; // one head's elements
    return 0;
}

std::int64_t hfRowOfCoreRow(std::int64_t row, std::int64_t rows, int heads)
{
    const std::int64_t hd = rows / heads, head = row / hd, i = row % hd;
    return head * hd + (i % 2) * (hd / 2) + i / 2;
}

Result<WeightSource> openWeights(const std::string& path, const ModelConfig& model)
{
    if (isDir(path)) {
        for (const char* name : {"model.safetensors.index.json", "model.safetensors"})
            if (isFile(path + "/" + name)) return openWeights(path + "/" + name, model);
        return Status::error(path + ": holds neither model.safetensors nor model.safetensors.index.json");
    }
    if (!isFile(path)) return Status::error(path + ": no such file");
    if (endsWith(path, ".json")) return openIndex(path, model);
    WeightSource out;
    out.huggingFace = looksHuggingFace(path);
    if (Status s = addFile(path, model, out.huggingFace, nullptr, out); !s) return s;
    return out;
}

Result<WeightSource> openWeightsFor(const ModuleTree& tree, const ModelConfig& model, const std::string& path)
{
    Result<WeightSource> opened = openWeights(path, model);
    if (!opened) return opened;
    const WeightSource& source = opened.value();
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        const auto it = source.tensors.find(p.path);
        if (it == source.tensors.end())
            return Status::error(path + ": has no tensor for \"" + p.path + "\"" + (source.huggingFace ? " (Hugging Face names mapped)" : ""));
        const ckpt::SafetensorsEntry& e = it->second.entry;
        const std::vector<std::int64_t> shape = p.shardedShape();
        if (e.shape != shape && !(p.shape.empty() && e.shape.empty()))
            return Status::error(it->second.file + ": tensor \"" + e.name + "\" has another shape than the plan's \"" + p.path + "\"");
        if (e.dtype != "F32" && e.dtype != "BF16" && e.dtype != "F16")
            return Status::error(it->second.file + ": tensor \"" + e.name + "\" is " + e.dtype + " (F32, BF16 or F16 expected)");
    }
    if (source.huggingFace)
        for (const auto& [name, t] : source.tensors)
            if (tree.findParam(name) < 0)
                return Status::error(t.file + ": tensor \"" + t.entry.name + "\" has no parameter in the plan's model (arch \"" +
                                     archName(model.arch) + "\"); is the plan's architecture the checkpoint's?");
    return opened;
}

} // namespace sb::hf
