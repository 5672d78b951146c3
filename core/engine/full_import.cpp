#include "full_import.hpp"

#include "checkpoint/fs_util.hpp"
#include "hf/hf_weights.hpp"

#include <cmath>

namespace sb::engine {

namespace {

// Training from a NaN or an infinity only spreads it (every loss after is
// NaN): refused when the weights are read, naming the tensor, its file and
// the first such element.
Status checkFinite(const torch::Tensor& values, const std::string& file, const std::string& name)
{
    const torch::Tensor flat = values.reshape({-1});
    const torch::Tensor bad = torch::isfinite(flat).logical_not();
    if (!bad.any().item<bool>()) return {};
    const std::int64_t at = bad.nonzero()[0][0].item<std::int64_t>();
    const float v = flat[at].item<float>();
    const std::string what = std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    return Status::error(file + ": tensor \"" + name + "\" holds a value that is not finite (" + what + " at element " +
                         std::to_string(at) + " of " + std::to_string(flat.numel()) + "); refusing to train from it");
}

// Reads one whole tensor as fp32 [rows, rowNumel], in the core's row order.
Status readTensor(const hf::WeightSource& source, const Param& p, torch::Tensor& out)
{
    const hf::WeightTensor& t = source.tensors.at(p.path);
    const ckpt::SafetensorsEntry& e = t.entry;
    const torch::ScalarType st = e.dtype == "F32" ? torch::kFloat : e.dtype == "BF16" ? torch::kBFloat16 : torch::kHalf;
    torch::Tensor raw = torch::empty({static_cast<std::int64_t>((e.end - e.begin) / ckpt::safetensorsDtypeBytes(e.dtype))},
                                     torch::TensorOptions().dtype(st));
    if (const Status read = ckpt::readFileRange(t.file, t.dataStart + e.begin, raw.data_ptr(), e.end - e.begin); !read)
        return Status::error(read.message() + " while reading \"" + e.name + "\"");
    torch::Tensor rows = raw.to(torch::kFloat).view_as(out);
    if (Status finite = checkFinite(rows, t.file, e.name); !finite) return finite;
    if (t.ropeHeads > 0) { // Hugging Face's rotate_half rows back to interleaved pairs
        std::vector<std::int64_t> order(static_cast<std::size_t>(p.rows()));
        for (std::int64_t r = 0; r < p.rows(); ++r) order[static_cast<std::size_t>(r)] = hf::hfRowOfCoreRow(r, p.rows(), t.ropeHeads);
        rows = rows.index_select(0, torch::tensor(order, torch::kLong));
    }
    out.copy_(rows);
    return {};
}

} // namespace

Status importFullModel(FullyShard& fsdp, const ModuleTree& tree, const ModelConfig& model, DeviceMesh& mesh,
                       const std::string& path)
{
    Result<hf::WeightSource> source = Status::error("rank 0 refused " + path);
    if (mesh.rank() == 0) source = hf::openWeightsFor(tree, model, path);
    torch::Tensor ok = torch::full({1}, source.ok() ? 1.0f : 0.0f);
    mesh.broadcastWorld(ok, 0);
    if (ok.item<float>() == 0.0f) return mesh.rank() == 0 ? source.status() : Status::error("rank 0 refused " + path);

    torch::NoGradGuard noGrad;
    // Rank 0 reads each tensor and broadcasts it; every rank keeps its rows.
    auto broadcast = [&](const Param& p, torch::Tensor& full) -> Status {
        Status read;
        if (mesh.rank() == 0) read = readTensor(source.value(), p, full);
        torch::Tensor status = torch::full({1}, read ? 1.0f : 0.0f);
        mesh.broadcastWorld(status, 0);
        if (status.item<float>() == 0.0f) return read ? Status::error("rank 0 could not read " + path) : read;
        mesh.broadcastWorld(full, 0);
        return {};
    };
    for (auto& unit : fsdp.units()) {
        for (ShardParam& p : unit->params()) {
            torch::Tensor full = torch::empty({p.rows, p.rowNumel}, torch::kFloat);
            if (Status sent = broadcast(tree.param(p.index), full); !sent) return sent;
            if (p.localRows > 0)
                p.shard.view({p.localRows, p.rowNumel}).copy_(full.narrow(0, p.rowBegin, p.localRows));
        }
    }
    // Parameters no unit shards (ignored_params): whole on every rank, in tree order.
    for (std::size_t k = 0; k < fsdp.replicatedIndices().size(); ++k) {
        const Param& p = tree.param(fsdp.replicatedIndices()[k]);
        torch::Tensor full = torch::empty({p.rows(), p.rowNumel()}, torch::kFloat);
        if (Status sent = broadcast(p, full); !sent) return sent;
        fsdp.replicatedParams()[k].view({p.rows(), p.rowNumel()}).copy_(full);
    }
    return {};
}

Status importFullModel(std::vector<torch::Tensor>& params, const ModuleTree& tree, const ModelConfig& model,
                       const std::string& path)
{
    Result<hf::WeightSource> source = hf::openWeightsFor(tree, model, path);
    if (!source) return source.status();
    torch::NoGradGuard noGrad;
    std::size_t k = 0;
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        torch::Tensor full = torch::empty({p.rows(), p.rowNumel()}, torch::kFloat);
        if (Status read = readTensor(source.value(), p, full); !read) return read;
        params[k++].view({p.rows(), p.rowNumel()}).copy_(full);
    }
    return {};
}

} // namespace sb::engine
