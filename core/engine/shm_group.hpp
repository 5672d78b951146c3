// Collectives of a shard group whose ranks share one host, through one POSIX
// shared-memory segment instead of Gloo's loopback TCP: a rank writes its
// contribution once into its own slot and its peers read it straight from
// there (an all-gather's copy-out and a reduce-scatter's sum read the peers'
// slots directly), with no socket copies and no worker thread competing with
// compute for the host's cores. NCCL does the same between the GPUs of a
// node; Gloo on the CPU has no such transport.
//
// Split-phase like the c10d works it stands in for: acquire a channel, write
// this rank's part, post(); the compute goes on; waitAll() before reading
// what the peers wrote, release() after. Every rank issues the same
// collectives in the same order (as for any c10d group), so a channel's n-th
// use is the same collective on every rank. Two pools:
//   all-gather: each channel one region in the unit's unsharded layout; every
//     rank writes its rows of each parameter in place, and the unsharded
//     parameters are views of the region until the unit reshards (no
//     copy-out, and one copy per host rather than one per rank);
//   reduce-scatter: each channel one slot per rank holding that rank's whole
//     unit gradient, rank-major; a rank sums its row of every slot.
#pragma once

#include "util/status.hpp"

#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/torch.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace sb::engine {

class ShmGroup {
public:
    enum class Pool { Gather = 0, Reduce = 1 };
    // Units gathered at once (each holds its channel until it reshards) and
    // prefetches; a collective finding every channel of its pool held by
    // this rank goes through Gloo instead.
    static constexpr int kGatherChannels = 6;
    static constexpr int kReduceChannels = 2; // one reduce-scatter in flight, the next being filled

    struct Ticket {
        Pool pool = Pool::Gather;
        int channel = -1;
        std::uint32_t use = 0; // the channel's use count: the same collective on every rank
        std::size_t countedBytes = 0;
        double acquireMs = 0.0; // waited in acquire() for a peer still reading the channel's previous use
        bool valid() const { return channel >= 0; }
    };

    // Opens the group's segment: rank 0 of the group creates it (mode 0600,
    // its pages reserved up front so a full /dev/shm is an error here and not
    // a SIGBUS mid-step) and names it in the store under `prefix`, the others
    // map it, and the name is unlinked once all have it. Every rank of the
    // group calls this with the same arguments; they all agree on the
    // outcome: no group when the ranks are on several hosts, and an error
    // (/dev/shm too small, ...) on one rank is an error on every rank; both
    // keep Gloo.
    static Result<std::unique_ptr<ShmGroup>> open(const c10::intrusive_ptr<::c10d::Store>& store, const std::string& prefix,
                                                  int rank, int size, std::size_t gatherRegionBytes,
                                                  std::size_t reduceSlotBytes, int timeoutS);
    ~ShmGroup();
    ShmGroup(const ShmGroup&) = delete;
    ShmGroup& operator=(const ShmGroup&) = delete;

    // How long a wait of a group of `groupSize` ranks spins before it sleeps
    // (shm_group.cpp says why): SB_SHM_SPIN_US, else 50 ms while every rank
    // can have a CPU of this process's affinity mask and cgroup quota, else none.
    static long spinMicroseconds(int groupSize);
    // CPUs a CFS quota of `quota` per `period` microseconds allows (rounded
    // up), 0 for none; and this process's cgroup quota so counted (0: none).
    static int cpusOfQuota(long long quota, long long period);
    static int cgroupCpuQuota();

    int rank() const { return rank_; }
    int size() const { return size_; }
    // Whether `bytes` fit a region or slot of `pool` and one of its channels is not
    // held by this rank (so acquire() cannot wait on this rank itself). The
    // answer is the same on every rank: it depends only on the collectives
    // issued so far, which are the same everywhere.
    bool canAcquire(Pool pool, std::size_t bytes) const;
    // A collective of `unit` that canAcquire() sent to Gloo because this rank
    // holds every channel of the pool: said once per pool on stderr (a plan
    // keeping many units gathered at once, or prefetching far ahead).
    void noteFallback(Pool pool, int unit);
    // Takes the pool's free channel released longest ago, waiting until every rank has released
    // its previous use. `countedBytes` are added to the tracking allocator's
    // counts until release(): the buffer a c10d collective would allocate.
    // `again`, a ticket this rank released, is taken instead when it is
    // untouched(): its region still holds what every rank wrote there.
    Ticket acquire(Pool pool, std::size_t countedBytes, const Ticket* again = nullptr);
    // Whether no collective has used `released`'s channel since it (nor holds
    // it now). The same on every rank.
    bool untouched(const Ticket& released) const;
    // An all-gather channel's region, shared by every rank.
    char* region(const Ticket& t) const;
    // A reduce-scatter channel's slot of rank r, as a tensor of n elements
    // (not owning: valid while this group lives), and the same n elements at
    // `offset` of every rank's slot as [size, n].
    torch::Tensor slot(const Ticket& t, int r, torch::ScalarType dtype, std::int64_t n) const;
    torch::Tensor rows(const Ticket& t, torch::ScalarType dtype, std::int64_t offset, std::int64_t n) const;
    // The bytes counted for the ticket from now on (the new count is added
    // before the old one is taken away, as an allocation before a free).
    void recount(Ticket& t, std::size_t countedBytes);
    // This rank's slot is written: its peers may read it.
    void post(const Ticket& t);
    // Waits until every rank has posted; returns the milliseconds waited.
    // Throws std::runtime_error naming the rank that did not arrive within
    // the collective timeout, or that exited.
    double waitAll(const Ticket& t);
    // This rank has read what it needed from every slot.
    void release(Ticket& t);
    // Whether allReduceSum() takes `t`: a contiguous CPU tensor of fp32 or
    // fp64 that fits a reduce-scatter slot, with one of the pool's channels free.
    bool canAllReduce(const torch::Tensor& t) const;
    // `t` summed over the group in rank order, in place, through a
    // reduce-scatter channel: each rank writes its values to its slot and
    // adds up every slot.
    void allReduceSum(torch::Tensor& t);

private:
    struct Header;
    struct Mapping;
    ShmGroup() = default;
    static int index(Pool pool) { return static_cast<int>(pool); }
    static int channels(Pool pool) { return pool == Pool::Gather ? kGatherChannels : kReduceChannels; }
    // The channel acquire() takes: of those this rank does not hold, the one
    // it released longest ago; or -1.
    int freeChannel(Pool pool) const;
    int flatChannel(const Ticket& t) const { return t.pool == Pool::Gather ? t.channel : kGatherChannels + t.channel; }
    // Publishes this rank's posted (or released) word for the ticket and wakes its waiters.
    void signal(const Ticket& t, bool posted) const;
    // Waits until word(r) >= target for every rank r.
    double waitFor(const char* what, const Ticket& t, bool posted, std::uint32_t target);

    int rank_ = 0, size_ = 1;
    int timeoutS_ = 300;
    long spinUs_ = 0;                             // how long a wait spins before sleeping
    std::array<std::size_t, 2> slotBytes_{};
    std::array<std::size_t, 2> poolOffset_{};
    std::uint64_t releases_ = 0;                  // release() calls so far
    std::array<std::uint64_t, kGatherChannels + kReduceChannels> releasedAt_{}; // releases_ at each channel's last release
    std::array<std::uint32_t, kGatherChannels + kReduceChannels> uses_{};  // this rank's acquisitions per channel
    std::array<bool, kGatherChannels + kReduceChannels> held_{};
    std::array<bool, 2> noted_{};                  // a fallback of the pool was said
    std::unique_ptr<Mapping> map_;
    Header* header_ = nullptr;
};

} // namespace sb::engine
