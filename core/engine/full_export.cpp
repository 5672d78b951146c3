#include "full_export.hpp"

#include "device.hpp"

#include "checkpoint/safetensors.hpp"
#include "plan/shard_layout.hpp"

#include <algorithm>

namespace sb::engine {

using ckpt::SafetensorsEntry;
using ckpt::SafetensorsWriter;

namespace {

std::vector<SafetensorsEntry> entriesFor(const ModuleTree& tree, const std::vector<int>& order)
{
    std::vector<SafetensorsEntry> entries;
    std::uint64_t offset = 0;
    for (int i : order) {
        const Param& p = tree.param(i);
        SafetensorsEntry e;
        e.name = p.path;
        e.dtype = "F32";
        e.shape = p.shape;
        e.begin = offset;
        e.end = offset + static_cast<std::uint64_t>(p.numel()) * 4;
        offset = e.end;
        entries.push_back(std::move(e));
    }
    return entries;
}

std::map<std::string, std::string> withTies(const ModuleTree& tree, std::map<std::string, std::string> meta)
{
    std::string ties;
    for (const Param& p : tree.params())
        if (p.tiedTo >= 0) ties += (ties.empty() ? "" : ",") + p.path + "=" + tree.param(p.tiedTo).path;
    if (!ties.empty()) meta["tied"] = ties;
    meta["format"] = "pt";
    return meta;
}

} // namespace

Status exportFullModel(FullyShard& fsdp, const ModuleTree& tree, DeviceMesh& mesh, const std::string& path,
                       const std::map<std::string, std::string>& metadata)
{
    struct Item {
        const ShardParam* param;
        ShardedUnit* unit;
    };
    std::vector<Item> items;
    for (auto& unit : fsdp.units())
        for (const ShardParam& p : unit->params()) items.push_back({&p, unit.get()});
    // Tree order: the file lists parameters as the model declares them.
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.param->index < b.param->index; });
    std::vector<int> sortedOrder;
    for (const Item& it : items) sortedOrder.push_back(it.param->index);

    const bool writer = mesh.shardRank() == 0 && mesh.replicaIndex() == 0;
    SafetensorsWriter out;
    Status error;
    if (writer) error = out.open(path, entriesFor(tree, sortedOrder), withTies(tree, metadata));
    for (const Item& it : items) {
        const ShardParam& p = *it.param;
        // An offloaded unit's shard is in host memory: to the device for the collective.
        torch::Tensor padded = it.unit->flatShard().narrow(0, p.offset, p.chunk * p.rowNumel).to(onDevice(torch::kFloat));
        torch::Tensor gathered = torch::empty({paddedRows(p.rows, mesh.shardSize()) * p.rowNumel}, padded.options());
        for (auto& w : mesh.allGatherAsync(padded, gathered)) w->wait();
        if (writer && error) {
            const torch::Tensor host = gathered.narrow(0, 0, p.rows * p.rowNumel).cpu();
            error = out.write(host.data_ptr<float>(), static_cast<std::size_t>(p.rows * p.rowNumel) * 4);
        }
    }
    if (writer) {
        const Status closed = out.close();
        if (error) error = closed;
    }
    return error;
}

Status exportFullModel(const std::vector<torch::Tensor>& full, const ModuleTree& tree, const std::string& path,
                       const std::map<std::string, std::string>& metadata)
{
    std::vector<int> order;
    for (std::size_t i = 0; i < tree.params().size(); ++i)
        if (tree.param(static_cast<int>(i)).tiedTo < 0) order.push_back(static_cast<int>(i));
    SafetensorsWriter out;
    Status error = out.open(path, entriesFor(tree, order), withTies(tree, metadata));
    for (std::size_t k = 0; k < order.size() && error; ++k) {
        torch::Tensor t = full[k].detach().cpu().contiguous();
        error = out.write(t.data_ptr<float>(), static_cast<std::size_t>(t.numel()) * 4);
    }
    const Status closed = out.close();
    return error ? closed : error;
}

} // namespace sb::engine
