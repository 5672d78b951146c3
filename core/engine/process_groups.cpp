#include "process_groups.hpp"

#include "device.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sb::engine {

namespace {

#if !defined(SB_WITH_GLOO)
constexpr const char* kNoGloo = "this shardbench-core was built without Gloo (its LibTorch ships no Gloo headers): a CPU "
                                "plan of more than one rank needs a build with Gloo";
#endif

// A core built against LibTorch 1.x cannot be a client of torchrun 2.x's
// agent store: 2.x's store protocol begins with a request 1.x does not know,
// the server resets the connection, and the ranks wait until their time-out.
// Said with the ways out, where a rendezvous on the agent's store fails.
std::string agentStoreHint(const DistEnv& env)
{
    if (kTorch2 || !env.elastic.agentStore) return {};
    return " (this shardbench-core is built against LibTorch 1.x, which cannot use the store of torchrun 2.x's agent: "
           "start it with --rdzv-backend c10d and TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1, or build it against LibTorch 2.x; "
           "docs/interoperability.md, torchrun)";
}

GlooDevicePtr glooDevice(const DistEnv& env)
{
#if !defined(SB_WITH_GLOO)
    (void)env;
    throw std::runtime_error(kNoGloo);
#else
    if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
        return ::c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
    const std::string& a = env.masterAddr;
    // Ranks on one machine talk over loopback; otherwise use this host's address.
    if (a.rfind("127.", 0) == 0 || a == "localhost" || a == "::1")
        return ::c10d::ProcessGroupGloo::createDeviceForHostname(a == "localhost" ? std::string("127.0.0.1") : a);
    return ::c10d::ProcessGroupGloo::createDefaultDevice();
#endif
}

c10::intrusive_ptr<CommBackend> makeGroup(const c10::intrusive_ptr<::c10d::Store>& store, const std::string& prefix,
                                          int rank, int size, const DistEnv& env,
                                          const GlooDevicePtr& device)
{
    auto prefixed = c10::make_intrusive<::c10d::PrefixStore>(prefix, store);
#if defined(SB_WITH_CUDA)
    if (onCuda()) {
        // NCCL creates its communicator on the first collective, on the current device.
        auto nccl = ::c10d::ProcessGroupNCCL::Options::create();
        nccl->timeout = std::chrono::milliseconds(env.collectiveTimeoutS * 1000LL);
        return c10::make_intrusive<::c10d::ProcessGroupNCCL>(prefixed, rank, size, nccl);
    }
#endif
#if !defined(SB_WITH_GLOO)
    (void)device;
    throw std::runtime_error(kNoGloo);
#else
    auto opts = ::c10d::ProcessGroupGloo::Options::create(std::chrono::milliseconds(env.collectiveTimeoutS * 1000LL));
    opts->devices.push_back(device);
    // Gloo's worker threads run the asynchronous collectives. One per group:
    // on a machine whose cores all compute, more threads only contend.
    int threads = 1;
    if (const char* t = std::getenv("SB_GLOO_THREADS")) threads = std::max(1, std::atoi(t));
    opts->threads = threads;
    return c10::make_intrusive<::c10d::ProcessGroupGloo>(prefixed, rank, size, opts);
#endif
}

} // namespace

Status DeviceMesh::checkReplicate(const DistEnv& env, int replicate)
{
    if (replicate >= 1 && env.world % replicate == 0) return {};
    return Status::error("replicate degree " + std::to_string(replicate) + " does not divide WORLD_SIZE " + std::to_string(env.world));
}

Result<std::unique_ptr<DeviceMesh>> DeviceMesh::connect(const DistEnv& env, int replicate)
{
    assert(checkReplicate(env, replicate).ok()); // the caller's check: a plan's mistake, not a rendezvous failure
    auto mesh = std::make_unique<DeviceMesh>();
    mesh->rank_ = env.rank;
    mesh->world_ = env.world;
    mesh->replicate_ = replicate;
    mesh->shardSize_ = env.world / replicate;
    mesh->shardRank_ = env.rank % mesh->shardSize_;
    mesh->replicaIndex_ = env.rank / mesh->shardSize_;
    mesh->nccl_ = onCuda();
    mesh->env_ = env;
    if (env.world == 1) return mesh;

    try {
        ::c10d::TCPStoreOptions so;
        so.port = static_cast<std::uint16_t>(env.masterPort);
        // Under torchrun's agent store every rank is a client (elastic.hpp).
        so.isServer = env.rank == 0 && !env.elastic.agentStore;
        so.numWorkers = static_cast<std::size_t>(env.world);
        so.waitWorkers = !env.elastic.agentStore;
        so.timeout = std::chrono::milliseconds(env.rendezvousTimeoutS * 1000LL);
        mesh->store_ = c10::make_intrusive<::c10d::TCPStore>(env.masterAddr, so);
        if (env.elastic.agentStore)
            mesh->store_ = c10::make_intrusive<::c10d::PrefixStore>(
                "/worker/attempt_" + std::to_string(env.elastic.restartCount), mesh->store_);
    } catch (const std::exception& e) {
        return Status::error("rendezvous with " + env.masterAddr + ":" + std::to_string(env.masterPort) + " failed within " +
                             std::to_string(env.rendezvousTimeoutS) + " s: " + e.what() + agentStoreHint(env));
    }
    try {
        auto device = onCuda() ? nullptr : glooDevice(env);
        mesh->glooDevice_ = device;
        mesh->worldGroup_ = makeGroup(mesh->store_, "world/", env.rank, env.world, env, device);
        if (replicate == 1) {
            mesh->shardGroup_ = mesh->worldGroup_;
        } else {
            mesh->shardGroup_ = makeGroup(mesh->store_, "shard" + std::to_string(mesh->replicaIndex_) + "/",
                                          mesh->shardRank_, mesh->shardSize_, env, device);
            mesh->replicaGroup_ = makeGroup(mesh->store_, "replica" + std::to_string(mesh->shardRank_) + "/",
                                            mesh->replicaIndex_, replicate, env, device);
        }
    } catch (const std::exception& e) {
        return Status::error(std::string("creating the Gloo process groups failed: ") + e.what() + agentStoreHint(env));
    }
    return mesh;
}

void DeviceMesh::addReshardGroup(int k)
{
    if (k <= 1 || k >= shardSize_ || shardSize_ % k != 0 || reshardGroups_.count(k)) return;
    const int group = shardRank_ / k;
    reshardGroups_[k] = makeGroup(store_, "reshard" + std::to_string(k) + "/" + std::to_string(replicaIndex_) + "/" +
                                              std::to_string(group) + "/",
                                  shardRank_ % k, k, env_, glooDevice_);
}

void DeviceMesh::enableSharedMemory(std::size_t gatherRegionBytes, std::size_t reduceSlotBytes)
{
    if (nccl_ || shardSize_ == 1 || shm_ || !store_) return;
    if (const char* v = std::getenv("SB_SHM"); v && std::string(v) == "0") return;
    Result<std::unique_ptr<ShmGroup>> group =
        ShmGroup::open(store_, "sb-shm/shard" + std::to_string(replicaIndex_) + "/", shardRank_, shardSize_, gatherRegionBytes,
                       reduceSlotBytes, env_.collectiveTimeoutS);
    if (group.ok()) {
        shm_ = std::move(group).value(); // none when the ranks are on several hosts
        return;
    }
    std::fprintf(stderr, "shardbench-core: the shard group's collectives use Gloo: no shared memory (%s)\n",
                     group.error().c_str());
}

std::vector<WorkPtr> DeviceMesh::allGatherAsync(const torch::Tensor& input, const torch::Tensor& output)
{
    return allGatherIn(shardGroup_, shardSize_, shardRank_, input, output);
}

std::vector<WorkPtr> DeviceMesh::allGatherAsync(const torch::Tensor& input, const torch::Tensor& output, int k)
{
    auto it = reshardGroups_.find(k);
    if (it == reshardGroups_.end())
        throw std::logic_error("no reshard group of " + std::to_string(k) + " ranks (addReshardGroup was not called)");
    return allGatherIn(it->second, k, shardRank_ % k, input, output);
}

std::vector<WorkPtr> DeviceMesh::allGatherIn(const c10::intrusive_ptr<CommBackend>& group, int size, int rank,
                                             const torch::Tensor& input, const torch::Tensor& output)
{
    const std::int64_t n = input.numel();
    std::vector<WorkPtr> works;
    if (size == 1) {
        output.copy_(input);
        return works;
    }
    if (nccl_) {
        torch::Tensor out = output, in = input;
        works.push_back(group->_allgather_base(out, in));
        return works;
    }
    // Gloo knows no bf16: move the same bytes as fp16.
    const bool bf16 = output.scalar_type() == torch::kBFloat16;
    torch::Tensor out = bf16 ? output.view(torch::kHalf) : output;
    out.narrow(0, static_cast<std::int64_t>(rank) * n, n).copy_(bf16 ? input.view(torch::kHalf) : input);
    works.reserve(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) {
        std::vector<torch::Tensor> chunk{out.narrow(0, static_cast<std::int64_t>(r) * n, n)};
        ::c10d::BroadcastOptions opts;
        opts.rootRank = r;
        works.push_back(group->broadcast(chunk, opts));
    }
    return works;
}

WorkPtr DeviceMesh::reduceScatterAsync(const torch::Tensor& input, torch::Tensor& output)
{
    if (shardSize_ == 1) { // nothing to exchange: the one row is the sum
        output = input;
        return {};
    }
    torch::Tensor in = input;
    if (nccl_) {
        output = torch::empty({input.size(1)}, input.options());
        ::c10d::ReduceScatterOptions opts;
        opts.reduceOp = ::c10d::ReduceOp::SUM;
        return shardGroup_->_reduce_scatter_base(output, in, opts);
    }
    output = torch::empty_like(input);
    std::vector<std::int64_t> splits; // empty: equal splits
    torch::Tensor flatOut = output.view({-1}), flatIn = in.view({-1});
    return shardGroup_->alltoall_base(flatOut, flatIn, splits, splits);
}

torch::Tensor DeviceMesh::reducedRow(const torch::Tensor& output)
{
    // Row j of an all-to-all output is rank j's contribution to my shard.
    return output.dim() == 2 ? output.sum(0, false, torch::kFloat) : output.to(torch::kFloat);
}

void DeviceMesh::onCommDevice(torch::Tensor& t, const std::function<void(torch::Tensor&)>& collective) const
{
    if (!nccl_ || t.device() == computeDevice()) {
        collective(t);
        return;
    }
    torch::Tensor staged = t.to(computeDevice());
    collective(staged);
    t.copy_(staged);
}

void DeviceMesh::allReduceSum(const c10::intrusive_ptr<CommBackend>& group, torch::Tensor& t) const
{
    onCommDevice(t, [&group](torch::Tensor& x) {
        std::vector<torch::Tensor> ts{x};
        group->allreduce(ts)->wait();
    });
}

void DeviceMesh::allReduceSumShard(torch::Tensor& t)
{
    if (shardSize_ == 1) return;
    if (shm_ && shm_->canAllReduce(t)) return shm_->allReduceSum(t); // no socket round trip, no Gloo thread woken
    allReduceSum(shardGroup_, t);
}
void DeviceMesh::allReduceSumReplicas(torch::Tensor& t) { if (replicate_ > 1) allReduceSum(replicaGroup_, t); }
void DeviceMesh::allReduceSumWorld(torch::Tensor& t) { if (world_ > 1) allReduceSum(worldGroup_, t); }

void DeviceMesh::barrier()
{
    if (world_ > 1) worldGroup_->barrier()->wait();
}

void DeviceMesh::broadcastWorld(torch::Tensor& t, int root)
{
    if (world_ == 1) return;
    onCommDevice(t, [this, root](torch::Tensor& x) {
        const bool asHalf = !nccl_ && x.scalar_type() == torch::kBFloat16; // Gloo knows no bf16
        std::vector<torch::Tensor> ts{asHalf ? x.view(torch::kHalf) : x};
        ::c10d::BroadcastOptions opts;
        opts.rootRank = root;
        worldGroup_->broadcast(ts, opts)->wait();
    });
}

} // namespace sb::engine
