#include "sharded_unit.hpp"

#include "device.hpp"
#include "events.hpp"
#include "grad_mean.hpp"
#include "torch_dtype.hpp"

#include "plan/shard_layout.hpp"

#include <chrono>
#include <cstdlib>
#include <string>

namespace sb::engine {

bool offloadOnCpuForTests()
{
    static const bool on = [] {
        const char* v = std::getenv("SB_OFFLOAD_ON_CPU");
        return v && std::string(v) == "1";
    }();
    return on;
}

namespace {

std::vector<std::int64_t> withRows(std::vector<std::int64_t> shape, std::int64_t rows)
{
    if (shape.empty()) return {rows};
    shape[0] = rows;
    return shape;
}

// Copies `rows` rows laid out rank-major in `spread` ([W, chunk, rowNumel],
// chunk = shardChunkRows(rows, W)) to or from `dense` ([rows, rowNumel]),
// skipping the padding rows.
void copyRows(const torch::Tensor& dense, const torch::Tensor& spread, std::int64_t rows, std::int64_t chunk, bool toDense)
{
    if (chunk == 0 || rows == 0) return;
    const std::int64_t fullRanks = fullShardRanks(rows, spread.size(0));
    const std::int64_t rem = rows - fullRanks * chunk;
    const std::int64_t rowNumel = dense.size(1);
    if (fullRanks > 0) {
        auto d = dense.narrow(0, 0, fullRanks * chunk).view({fullRanks, chunk, rowNumel});
        auto s = spread.narrow(0, 0, fullRanks);
        toDense ? d.copy_(s) : s.copy_(d);
    }
    if (rem > 0) {
        auto d = dense.narrow(0, fullRanks * chunk, rem);
        auto s = spread.select(0, fullRanks).narrow(0, 0, rem);
        toDense ? d.copy_(s) : s.copy_(d);
    }
}

// Frees a communication buffer now. Gloo's worker thread keeps its reference
// to a finished collective (and so to the buffer) for a moment after wait()
// returns; without this the buffer would die at a moment set by that thread,
// and the peak memory would depend on scheduling.
void releaseNow(torch::Tensor& t)
{
    if (t.defined()) t.storage().unsafeGetStorageImpl()->reset();
    t = torch::Tensor();
}

} // namespace

ShardedUnit::Slot ShardedUnit::Slot::of(std::int64_t rows, std::int64_t rowNumel, std::int64_t ways, std::int64_t rank,
                                        std::int64_t& numel)
{
    Slot slot;
    const ShardRows held = shardRows(rows, ways, rank);
    slot.chunk = shardChunkRows(rows, ways);
    slot.localRows = held.count();
    slot.rowBegin = held.begin;
    slot.offset = numel;
    numel += slot.chunk * rowNumel;
    return slot;
}

ShardedUnit::ShardedUnit(const ModuleTree& tree, const ResolvedUnit& unit, int index, DeviceMesh& mesh)
    : index_(index), unit_(unit), mesh_(mesh)
{
    const std::int64_t W = mesh.shardSize();
    const std::int64_t s = mesh.shardRank();
    for (int pi : unit.params) {
        const Param& prm = tree.param(pi);
        ShardParam p;
        p.index = pi;
        p.shape = prm.shardedShape();
        p.rows = p.shape[0];
        p.rowNumel = prm.rowNumel();
        const Slot slot = Slot::of(p.rows, p.rowNumel, W, s, shardNumel_);
        p.chunk = slot.chunk;
        p.localRows = slot.localRows;
        p.rowBegin = slot.rowBegin;
        p.offset = slot.offset;
        p.fullOffset = fullNumel_;
        fullNumel_ += (p.rows * p.rowNumel + 15) / 16 * 16; // 64-byte aligned for fp32, 32 for bf16
        params_.push_back(std::move(p));
    }
    if (const int k = unit.reshardGroup; k > 0)
        for (const ShardParam& p : params_) postSlots_.push_back(Slot::of(p.rows, p.rowNumel, k, s % k, postNumel_));
    // Offload moves state off a GPU; SB_OFFLOAD_ON_CPU=1 runs the same
    // bookkeeping on a CPU plan (host and device are then one), for tests.
    offloaded_ = unit.offload && (onCuda() || offloadOnCpuForTests());
    const torch::TensorOptions flatOptions =
        offloaded_ ? torch::TensorOptions().dtype(torch::kFloat).pinned_memory(onCuda()) : onDevice(torch::kFloat);
    flat_ = torch::zeros({shardNumel_}, flatOptions);
    flatGrad_ = torch::zeros({shardNumel_}, flatOptions);
    const torch::ScalarType pdt = scalarType(unit.paramDtype);
    for (ShardParam& p : params_) {
        p.shard = flat_.narrow(0, p.offset, p.localRows * p.rowNumel).view(withRows(p.shape, p.localRows));
        p.grad = flatGrad_.narrow(0, p.offset, p.localRows * p.rowNumel).view(withRows(p.shape, p.localRows));
        p.full = torch::empty(p.shape, onDevice(pdt));
        p.full.storage().unsafeGetStorageImpl()->reset(); // sharded until first gathered
        p.full.set_requires_grad(true);
    }
}

std::size_t ShardedUnit::fullBytes(const ShardParam& p)
{
    return static_cast<std::size_t>(p.full.numel()) * p.full.element_size();
}

void ShardedUnit::attachFull(ShardParam& p, c10::DataPtr data)
{
    c10::StorageImpl* impl = p.full.storage().unsafeGetStorageImpl();
    impl->set_data_ptr_noswap(std::move(data));
    impl->set_nbytes(fullBytes(p));
}

void ShardedUnit::endPass() { lastGather_ = ShmGroup::Ticket(); }

void ShardedUnit::releaseGrad()
{
    if (offloaded_) {
        flatGrad_.zero_();
        return;
    }
    flatGrad_.storage().unsafeGetStorageImpl()->reset();
}

bool ShardedUnit::allocateGrad()
{
    c10::StorageImpl* impl = flatGrad_.storage().unsafeGetStorageImpl();
    const std::size_t bytes = static_cast<std::size_t>(shardNumel_) * sizeof(float);
    if (impl->data() != nullptr || bytes == 0) return false;
    impl->set_data_ptr_noswap(deviceAllocator()->allocate(bytes));
    impl->set_nbytes(bytes);
    return true;
}

void ShardedUnit::holdGrad()
{
    if (allocateGrad()) flatGrad_.zero_();
}

void ShardedUnit::allocateFull(ShardParam& p)
{
    const c10::StorageImpl* impl = p.full.storage().unsafeGetStorageImpl();
    if (impl->nbytes() == fullBytes(p) && impl->data() != nullptr) return;
    attachFull(p, deviceAllocator()->allocate(fullBytes(p)));
}

void ShardedUnit::startGather()
{
    if (gathered_ || gatherPending()) return;
    const torch::ScalarType pdt = scalarType(unit_.paramDtype);
    gatherFromPost_ = post_.defined();
    if (gatherFromPost_) { // within the reshard group of k, from the post-forward shard
        const int k = unit_.reshardGroup;
        buffer_ = torch::empty({k * postNumel_}, onDevice(pdt));
        works_ = mesh_.allGatherAsync(post_, buffer_, k);
        gatherInput_ = post_;
        return;
    }
    if (startSharedGather()) return;
    torch::Tensor input = offloaded_ ? flat_.to(onDevice(pdt), /*non_blocking=*/true) : pdt == torch::kFloat ? flat_ : flat_.to(pdt);
    buffer_ = torch::empty({mesh_.shardSize() * shardNumel_}, onDevice(pdt));
    works_ = mesh_.allGatherAsync(input, buffer_);
    gatherInput_ = input;
}

bool ShardedUnit::startSharedGather()
{
    ShmGroup* shm = mesh_.shm();
    const torch::ScalarType pdt = scalarType(unit_.paramDtype);
    const std::size_t elem = c10::elementSize(pdt);
    if (!shm || offloaded_) return false;
    if (!shm->canAcquire(ShmGroup::Pool::Gather, static_cast<std::size_t>(fullNumel_) * elem)) {
        shm->noteFallback(ShmGroup::Pool::Gather, index_);
        return false;
    }
    // Counted as the [W * shard] output FSDP2 allocates until the copy-out it saves.
    // Within one forward and backward the shards do not change: a region no
    // collective has used since this unit's last gather (the backward's
    // gather of a unit gathered late in the forward) holds every rank's rows
    // already, and only the peers' arrival is waited for.
    const bool rowsThere = lastGather_.valid() && shm->untouched(lastGather_);
    shmGather_ = shm->acquire(ShmGroup::Pool::Gather, static_cast<std::size_t>(mesh_.shardSize() * shardNumel_) * elem,
                              rowsThere ? &lastGather_ : nullptr);
    const torch::Tensor full = torch::from_blob(shm->region(shmGather_), {fullNumel_}, torch::TensorOptions().dtype(pdt));
    for (const ShardParam& p : params_) { // this rank's rows, cast to param_dtype on the way
        const std::int64_t n = p.localRows * p.rowNumel;
        if (n > 0 && !rowsThere) full.narrow(0, p.fullOffset + p.rowBegin * p.rowNumel, n).copy_(flat_.narrow(0, p.offset, n));
    }
    shm->post(shmGather_);
    return true;
}

void ShardedUnit::pointAtRegion()
{
    char* region = mesh_.shm()->region(shmGather_);
    std::size_t bytes = 0;
    for (ShardParam& p : params_) {
        void* data = region + static_cast<std::size_t>(p.fullOffset) * p.full.element_size();
        // Not owned: the region lives as long as the mesh, and freeFull() detaches it.
        attachFull(p, c10::DataPtr(data, data, [](void*) {}, c10::Device(c10::DeviceType::CPU)));
        bytes += fullBytes(p);
    }
    // From here counted as the unsharded parameters allocateFull() would have made.
    mesh_.shm()->recount(shmGather_, bytes);
}

double ShardedUnit::finishGather()
{
    if (gathered_) return 0.0;
    startGather();
    if (shmGather_.valid()) { // every rank has written its rows: the parameters are views of the region
        const double waited = shmGather_.acquireMs + mesh_.shm()->waitAll(shmGather_);
        pointAtRegion();
        gathered_ = true;
        return waited;
    }
    const auto t0 = std::chrono::steady_clock::now();
    for (auto& w : works_) w->wait();
    const double waited = msSince(t0);
    works_.clear();
    gatherInput_ = torch::Tensor();
    const std::int64_t ways = gatherFromPost_ ? unit_.reshardGroup : mesh_.shardSize();
    auto spread = buffer_.view({ways, gatherFromPost_ ? postNumel_ : shardNumel_});
    for (std::size_t i = 0; i < params_.size(); ++i) {
        ShardParam& p = params_[i];
        const std::int64_t chunk = gatherFromPost_ ? postSlots_[i].chunk : p.chunk;
        const std::int64_t offset = gatherFromPost_ ? postSlots_[i].offset : p.offset;
        allocateFull(p);
        // Through variable_data(): the version counter autograd checks stays unchanged.
        auto dense = p.full.variable_data().view({p.rows, p.rowNumel});
        copyRows(dense, spread.narrow(1, offset, chunk * p.rowNumel).view({ways, chunk, p.rowNumel}), p.rows, chunk, true);
    }
    releaseNow(buffer_);
    releaseNow(post_); // gathered again: the post-forward shard has served
    gathered_ = true;
    return waited;
}

void ShardedUnit::freeFull()
{
    for (ShardParam& p : params_) p.full.storage().unsafeGetStorageImpl()->reset();
    if (shmGather_.valid()) {
        lastGather_ = shmGather_;
        mesh_.shm()->release(shmGather_); // every rank may now reuse the region
    }
    gathered_ = false;
}

void ShardedUnit::reshard()
{
    releaseNow(post_);
    if (gathered_) freeFull();
}

void ShardedUnit::reshardAfterForward()
{
    const int k = unit_.reshardGroup;
    if (!gathered_) return;
    if (k > 0) {
        post_ = torch::empty({postNumel_}, onDevice(scalarType(unit_.paramDtype)));
        for (std::size_t i = 0; i < params_.size(); ++i) {
            const ShardParam& p = params_[i];
            const Slot& slot = postSlots_[i];
            if (slot.localRows == 0) continue;
            post_.narrow(0, slot.offset, slot.localRows * p.rowNumel)
                .view({slot.localRows, p.rowNumel})
                .copy_(p.full.variable_data().view({p.rows, p.rowNumel}).narrow(0, slot.rowBegin, slot.localRows));
        }
    }
    freeFull();
}

bool ShardedUnit::hasUnshardedGrads() const
{
    for (const ShardParam& p : params_)
        if (p.full.grad().defined() || p.accumulated.defined()) return true;
    return false;
}

void ShardedUnit::accumulateUnshardedGrads()
{
    const torch::ScalarType reduce = scalarType(unit_.reduceDtype);
    if (reduce == scalarType(unit_.paramDtype)) return; // autograd's own accumulation is the same sum
    accumulatedThisStep_ = true;
    torch::NoGradGuard noGrad;
    for (ShardParam& p : params_) {
        if (!p.full.grad().defined()) continue;
        if (p.accumulated.defined()) p.accumulated.add_(p.full.grad().to(reduce));
        else p.accumulated = p.full.grad().to(reduce);
        p.full.mutable_grad() = torch::Tensor();
    }
}

void ShardedUnit::startReduce()
{
    const std::int64_t W = mesh_.shardSize();
    const torch::ScalarType rdt = scalarType(unit_.reduceDtype);
    ShmGroup* shm = mesh_.shm();
    const std::size_t bytes = static_cast<std::size_t>(W * shardNumel_) * c10::elementSize(rdt);
    if (shm && !offloaded_ && shm->canAcquire(ShmGroup::Pool::Reduce, bytes)) { // copied in straight to this rank's slot
        // Counted as the reduce dtype's buffer a c10d collective would take.
        shmReduce_ = shm->acquire(ShmGroup::Pool::Reduce, bytes);
        shmWire_ = publishesUnwidened() ? scalarType(unit_.paramDtype) : rdt;
        rsIn_ = shm->slot(shmReduce_, shm->rank(), shmWire_, W * shardNumel_).view({W, shardNumel_});
    } else {
        if (shm && !offloaded_) shm->noteFallback(ShmGroup::Pool::Reduce, index_);
        rsIn_ = torch::empty({W, shardNumel_}, onDevice(rdt));
    }
    for (ShardParam& p : params_) {
        torch::Tensor g = p.full.grad();
        if (p.accumulated.defined()) { // the earlier micro-batches', in the reduce dtype
            if (g.defined()) p.accumulated.add_(g.to(p.accumulated.scalar_type()));
            g = p.accumulated;
        }
        auto spread = rsIn_.narrow(1, p.offset, p.chunk * p.rowNumel).view({W, p.chunk, p.rowNumel});
        // Only the padding rows need zeros; the rest is overwritten.
        if (!g.defined()) {
            spread.zero_();
            continue;
        }
        for (std::int64_t r = fullShardRanks(p.rows, W); r < W; ++r) {
            const std::int64_t held = shardRows(p.rows, W, r).count();
            spread.select(0, r).narrow(0, held, p.chunk - held).zero_();
        }
        copyRows(g.view({p.rows, p.rowNumel}), spread, p.rows, p.chunk, false);
        p.full.mutable_grad() = torch::Tensor(); // the unsharded gradient is no longer needed
        p.accumulated = torch::Tensor();
    }
    accumulatedThisStep_ = false;
    if (shmReduce_.valid()) {
        rsIn_ = torch::Tensor();
        shm->post(shmReduce_);
        return;
    }
    rsWork_ = mesh_.reduceScatterAsync(rsIn_, rsOut_);
}

bool ShardedUnit::publishesUnwidened() const
{
    // meanOfRowsInto() widens bf16 rows exactly and sums them in fp32: what
    // the cast to the reduce dtype before the collective gives. Decided from
    // what every rank shares (the unit's dtypes, the mesh, the micro-batches
    // accumulated this step), never from one rank's gradients, since peers
    // read the slot in the same type.
    return scalarType(unit_.paramDtype) == torch::kBFloat16 && scalarType(unit_.reduceDtype) == torch::kFloat &&
           flat_.scalar_type() == torch::kFloat && mesh_.replicate() == 1 && !accumulatedThisStep_;
}

double ShardedUnit::finishReduce()
{
    if (!reducePending()) return 0.0;
    double waited = 0.0;
    const float scale = static_cast<float>(1.0 / static_cast<double>(mesh_.world()));
    // Every rank's row for this rank: [W, n] (a shared-memory channel's slots,
    // or Gloo's all-to-all output), or NCCL's summed row [n].
    torch::Tensor rows;
    if (shmReduce_.valid()) {
        ShmGroup& shm = *mesh_.shm();
        waited = shmReduce_.acquireMs + shm.waitAll(shmReduce_);
        rows = shm.rows(shmReduce_, shmWire_, shm.rank() * shardNumel_, shardNumel_);
    } else {
        const auto t0 = std::chrono::steady_clock::now();
        if (rsWork_) rsWork_->wait();
        waited = msSince(t0);
        rsWork_.reset();
        if (rsIn_.is_same(rsOut_)) rsIn_ = torch::Tensor(); // nothing was exchanged: one buffer
        releaseNow(rsIn_);
        rows = rsOut_;
    }
    if (mesh_.replicate() == 1 && !offloaded_ && meansRowsInPlace(rows, flatGrad_)) {
        // Summed, divided by the data-parallel size and accumulated in one pass.
        const bool fresh = allocateGrad();
        meanOfRowsInto(flatGrad_, rows, scale, !fresh);
    } else {
        torch::Tensor summed = DeviceMesh::reducedRow(rows.to(scalarType(unit_.reduceDtype)));
        if (mesh_.replicate() > 1) { // HSDP: then across replicas
            const auto t1 = std::chrono::steady_clock::now();
            mesh_.allReduceSumReplicas(summed);
            waited += msSince(t1);
        }
        if (offloaded_) summed = summed.to(flat_.device()); // the sharded gradient lives in host memory
        // Mean over every data-parallel rank, folded into the accumulation: one
        // add over the unit (the padding sums zeros into zeros).
        holdGrad();
        flatGrad_.add_(summed, scale);
    }
    rows = torch::Tensor();
    if (shmReduce_.valid()) mesh_.shm()->release(shmReduce_);
    releaseNow(rsOut_);
    return waited;
}

} // namespace sb::engine
