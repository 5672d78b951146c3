#include "full_import.hpp"

#include "checkpoint/fs_util.hpp"
#include "hf/hf_weights.hpp"

namespace sb::engine {

namespace {

// Checks that every untied parameter has a tensor of its shape and a float dtype.
std::string checkSource(const ModuleTree& tree, const std::string& path, const hf::WeightSource& source)
{
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        const auto it = source.tensors.find(p.path);
        if (it == source.tensors.end())
            return path + ": has no tensor for \"" + p.path + "\"" + (source.huggingFace ? " (Hugging Face names mapped)" : "");
        const ckpt::SafetensorsEntry& e = it->second.entry;
        const std::vector<std::int64_t> shape = p.shardedShape();
        if (e.shape != shape && !(p.shape.empty() && e.shape.empty()))
            return it->second.file + ": tensor \"" + e.name + "\" has another shape than the plan's \"" + p.path + "\"";
        if (e.dtype != "F32" && e.dtype != "BF16" && e.dtype != "F16")
            return it->second.file + ": tensor \"" + e.name + "\" is " + e.dtype + " (F32, BF16 or F16 expected)";
    }
    return {};
}

// Reads one whole tensor as fp32 [rows, rowNumel], in the core's row order.
std::string readTensor(const hf::WeightSource& source, const Param& p, torch::Tensor& out)
{
    const hf::WeightTensor& t = source.tensors.at(p.path);
    const ckpt::SafetensorsEntry& e = t.entry;
    const torch::ScalarType st = e.dtype == "F32" ? torch::kFloat : e.dtype == "BF16" ? torch::kBFloat16 : torch::kHalf;
    torch::Tensor raw = torch::empty({static_cast<std::int64_t>((e.end - e.begin) / ckpt::safetensorsDtypeBytes(e.dtype))},
                                     torch::TensorOptions().dtype(st));
    if (std::string err = ckpt::readFileRange(t.file, t.dataStart + e.begin, raw.data_ptr(), e.end - e.begin); !err.empty())
        return err + " while reading \"" + e.name + "\"";
    torch::Tensor rows = raw.to(torch::kFloat).view_as(out);
    if (t.ropeHeads > 0) { // Hugging Face's rotate_half rows back to interleaved pairs
        std::vector<std::int64_t> order(static_cast<std::size_t>(p.rows()));
        for (std::int64_t r = 0; r < p.rows(); ++r) order[static_cast<std::size_t>(r)] = hf::hfRowOfCoreRow(r, p.rows(), t.ropeHeads);
        rows = rows.index_select(0, torch::tensor(order, torch::kLong));
    }
    out.copy_(rows);
    return {};
}

Result<hf::WeightSource> open(const ModuleTree& tree, const ModelConfig& model, const std::string& path)
{
    Result<hf::WeightSource> source = hf::openWeights(path, model);
    if (!source) return source;
    if (std::string e = checkSource(tree, path, source.value()); !e.empty()) return Status::error(e);
    return source;
}

} // namespace

std::string importFullModel(FullyShard& fsdp, const ModuleTree& tree, const ModelConfig& model, DeviceMesh& mesh,
                            const std::string& path)
{
    Result<hf::WeightSource> source = Status::error("rank 0 refused " + path);
    if (mesh.rank() == 0) source = open(tree, model, path);
    torch::Tensor ok = torch::full({1}, source.ok() ? 1.0f : 0.0f);
    mesh.broadcastWorld(ok, 0);
    if (ok.item<float>() == 0.0f) return mesh.rank() == 0 ? source.error() : "rank 0 refused " + path;

    torch::NoGradGuard noGrad;
    // Rank 0 reads each tensor and broadcasts it; every rank keeps its rows.
    auto broadcast = [&](const Param& p, torch::Tensor& full) -> std::string {
        std::string readError;
        if (mesh.rank() == 0) readError = readTensor(source.value(), p, full);
        torch::Tensor status = torch::full({1}, readError.empty() ? 1.0f : 0.0f);
        mesh.broadcastWorld(status, 0);
        if (status.item<float>() == 0.0f) return readError.empty() ? "rank 0 could not read " + path : readError;
        mesh.broadcastWorld(full, 0);
        return {};
    };
    for (auto& unit : fsdp.units()) {
        for (ShardParam& p : unit->params()) {
            torch::Tensor full = torch::empty({p.rows, p.rowNumel}, torch::kFloat);
            if (std::string e = broadcast(tree.param(p.index), full); !e.empty()) return e;
            if (p.localRows > 0)
                p.shard.view({p.localRows, p.rowNumel}).copy_(full.narrow(0, p.rowBegin, p.localRows));
        }
    }
    // Parameters no unit shards (ignored_params): whole on every rank, in tree order.
    for (std::size_t k = 0; k < fsdp.replicatedIndices().size(); ++k) {
        const Param& p = tree.param(fsdp.replicatedIndices()[k]);
        torch::Tensor full = torch::empty({p.rows(), p.rowNumel()}, torch::kFloat);
        if (std::string e = broadcast(p, full); !e.empty()) return e;
        fsdp.replicatedParams()[k].view({p.rows(), p.rowNumel()}).copy_(full);
    }
    return {};
}

std::string importFullModel(std::vector<torch::Tensor>& params, const ModuleTree& tree, const ModelConfig& model,
                            const std::string& path)
{
    Result<hf::WeightSource> source = open(tree, model, path);
    if (!source) return source.error();
    torch::NoGradGuard noGrad;
    std::size_t k = 0;
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        torch::Tensor full = torch::empty({p.rows(), p.rowNumel()}, torch::kFloat);
        if (std::string e = readTensor(source.value(), p, full); !e.empty()) return e;
        params[k++].view({p.rows(), p.rowNumel()}).copy_(full);
    }
    return {};
}

} // namespace sb::engine
