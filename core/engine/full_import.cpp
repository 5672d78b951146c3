#include "full_import.hpp"

#include "checkpoint/fs_util.hpp"
#include "checkpoint/safetensors.hpp"


namespace sb::engine {

namespace {

// Checks names, shapes and dtypes of every untied parameter against the file.
std::string checkFile(const ModuleTree& tree, const std::string& path, ckpt::SafetensorsFile& file)
{
    if (std::string e = ckpt::readSafetensorsHeader(path, file); !e.empty()) return e;
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        const ckpt::SafetensorsEntry* entry = nullptr;
        for (const auto& e : file.entries)
            if (e.name == p.path) entry = &e;
        if (!entry) return path + ": has no tensor \"" + p.path + "\"";
        const std::vector<std::int64_t> shape = p.shardedShape();
        if (entry->shape != shape && !(p.shape.empty() && entry->shape.empty()))
            return path + ": tensor \"" + p.path + "\" has another shape than the plan's model";
        if (entry->dtype != "F32" && entry->dtype != "BF16" && entry->dtype != "F16")
            return path + ": tensor \"" + p.path + "\" is " + entry->dtype + " (F32, BF16 or F16 expected)";
    }
    return {};
}

// Reads one whole tensor as fp32.
std::string readTensor(const std::string& path, const ckpt::SafetensorsFile& file, const std::string& name, torch::Tensor& out)
{
    for (const auto& e : file.entries) {
        if (e.name != name) continue;
        const torch::ScalarType st = e.dtype == "F32" ? torch::kFloat : e.dtype == "BF16" ? torch::kBFloat16 : torch::kHalf;
        torch::Tensor raw = torch::empty({static_cast<std::int64_t>((e.end - e.begin) / ckpt::safetensorsDtypeBytes(e.dtype))},
                                         torch::TensorOptions().dtype(st));
        if (std::string err = ckpt::readFileRange(path, file.dataStart + e.begin, raw.data_ptr(), e.end - e.begin); !err.empty())
            return err + " while reading \"" + name + "\"";
        out.copy_(raw.to(torch::kFloat).view_as(out));
        return {};
    }
    return path + ": has no tensor \"" + name + "\"";
}

} // namespace

std::string importFullModel(FullyShard& fsdp, const ModuleTree& tree, DeviceMesh& mesh, const std::string& path)
{
    ckpt::SafetensorsFile file;
    std::string error;
    if (mesh.rank() == 0) error = checkFile(tree, path, file);
    torch::Tensor ok = torch::full({1}, error.empty() ? 1.0f : 0.0f);
    mesh.broadcastWorld(ok, 0);
    if (ok.item<float>() == 0.0f) return error.empty() ? "rank 0 refused " + path : error;

    torch::NoGradGuard noGrad;
    for (auto& unit : fsdp.units()) {
        for (ShardParam& p : unit->params()) {
            torch::Tensor full = torch::empty({p.rows, p.rowNumel}, torch::kFloat);
            std::string readError;
            if (mesh.rank() == 0) readError = readTensor(path, file, tree.param(p.index).path, full);
            torch::Tensor status = torch::full({1}, readError.empty() ? 1.0f : 0.0f);
            mesh.broadcastWorld(status, 0);
            if (status.item<float>() == 0.0f) return readError.empty() ? "rank 0 could not read " + path : readError;
            mesh.broadcastWorld(full, 0);
            if (p.localRows > 0)
                p.shard.view({p.localRows, p.rowNumel}).copy_(full.narrow(0, p.rowBegin, p.localRows));
        }
    }
    return {};
}

std::string importFullModel(std::vector<torch::Tensor>& params, const ModuleTree& tree, const std::string& path)
{
    ckpt::SafetensorsFile file;
    if (std::string e = checkFile(tree, path, file); !e.empty()) return e;
    torch::NoGradGuard noGrad;
    std::size_t k = 0;
    for (const Param& p : tree.params()) {
        if (p.tiedTo >= 0) continue;
        torch::Tensor full = torch::empty({p.rows(), p.rowNumel()}, torch::kFloat);
        if (std::string e = readTensor(path, file, p.path, full); !e.empty()) return e;
        params[k++].view({p.rows(), p.rowNumel()}).copy_(full);
    }
    return {};
}

} // namespace sb::engine
