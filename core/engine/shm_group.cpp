#include "shm_group.hpp"

#include "tracking_allocator.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/futex.h>
#include <random>
#include <sched.h>
#include <signal.h>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace sb::engine {

namespace {

constexpr std::uint64_t kMagic = 0x5342534d31ULL; // "SBSM1"
constexpr std::size_t kLine = 64;
constexpr std::size_t kPage = 4096;
constexpr int kChannels = ShmGroup::kGatherChannels + ShmGroup::kReduceChannels;
static_assert(std::atomic<std::uint32_t>::is_always_lock_free, "futex words must be plain 32-bit atomics");

std::size_t roundUp(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

// This host, as its peers would see it: the hostname and the kernel's boot id
// (two containers named alike on different machines differ in the latter).
std::string hostIdentity()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    std::string boot;
    std::ifstream("/proc/sys/kernel/random/boot_id") >> boot;
    return std::string(name) + "/" + boot;
}

std::string storeGet(::c10d::Store& store, const std::string& key)
{
    const std::vector<std::uint8_t> v = store.get(key);
    return std::string(v.begin(), v.end());
}

void storeSet(::c10d::Store& store, const std::string& key, const std::string& value)
{
    store.set(key, std::vector<std::uint8_t>(value.begin(), value.end()));
}

long futex(std::atomic<std::uint32_t>* word, int op, std::uint32_t value, const timespec* timeout)
{
    // Not FUTEX_PRIVATE: the word is shared between processes.
    return syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, value, timeout, nullptr, 0);
}

inline void cpuRelax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Whether a peer's process has exited: gone, or a zombie its parent has
// not reaped yet (kill() still finds those).
bool exited(pid_t pid)
{
    if (kill(pid, 0) != 0) return errno == ESRCH;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && (line[close + 2] == 'Z' || line[close + 2] == 'X');
}

// Pauses every wait spins through before it may sleep: a peer a few
// microseconds behind.
constexpr int kShortSpin = 2000;

} // namespace

// How long a wait spins before it sleeps on the futex. Sleeping halts the
// CPU; on a virtual machine a halted vCPU exits to the host, which may run
// something else on its core or move it, and the rank comes back to a slower
// or colder core. On this project's 2-vCPU VM the bench model's W=2 step was
// faster spinning than sleeping in 7 of 9 side-by-side comparisons, by up to
// 23 % (docs/performance.md). So while the group has a CPU per rank
// (nothing else of ours needs the core), a wait spins for up to 50 ms, as
// NCCL's proxies and MPI's shared-memory transports poll; with more ranks
// than CPUs (oversubscribed tests) a spinning rank would take the core its
// peer needs, and only the short spin is left; while spinning, a wait
// yields to any process waiting for its CPU. The CPUs counted are those of
// the affinity mask, or fewer under a cgroup CPU quota (a container's
// limit). SB_SHM_SPIN_US overrides.
long ShmGroup::spinMicroseconds(int groupSize)
{
    if (const char* v = std::getenv("SB_SHM_SPIN_US")) {
        char* end = nullptr;
        const long us = std::strtol(v, &end, 10);
        if (end != v && *end == '\0' && us >= 0) return us;
        std::fprintf(stderr, "shardbench-core: SB_SHM_SPIN_US=\"%s\" is not a number of microseconds; ignored\n", v);
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    if (const int quota = cgroupCpuQuota(); quota > 0) cpus = std::min(cpus, quota);
    return groupSize <= cpus ? 50000 : 0;
}

int ShmGroup::cpusOfQuota(long long quota, long long period)
{
    if (quota <= 0 || period <= 0) return 0; // -1 (v1) or "max" (v2): no quota
    return static_cast<int>(std::max<long long>(1, (quota + period - 1) / period));
}

int ShmGroup::cgroupCpuQuota()
{
    // A container's CPU limit (docker --cpus, a Kubernetes limit) is a CFS
    // quota, which the affinity mask does not show: cgroup v2's cpu.max
    // ("QUOTA PERIOD" or "max PERIOD"), or v1's cpu.cfs_quota_us and
    // cpu.cfs_period_us, of this process's own cgroup.
    std::ifstream groups("/proc/self/cgroup");
    std::string line;
    while (std::getline(groups, line)) {
        const std::size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        long long quota = 0, period = 0;
        if (controllers.empty()) { // v2
            for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
                std::ifstream max(std::string(root) + path + "/cpu.max");
                std::string q;
                if (max >> q >> period) return q == "max" ? 0 : cpusOfQuota(std::atoll(q.c_str()), period);
            }
        } else if (("," + controllers + ",").find(",cpu,") != std::string::npos) { // v1
            for (const std::string root : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
                std::ifstream q(root + path + "/cpu.cfs_quota_us"), p(root + path + "/cpu.cfs_period_us");
                if (q >> quota && p >> period) return cpusOfQuota(quota, period);
            }
        }
    }
    return 0;
}

namespace {

// a has reached b, counting modulo 2^32.
inline bool reached(std::uint32_t a, std::uint32_t b) { return static_cast<std::int32_t>(a - b) >= 0; }

} // namespace

// The segment: a header page (magic, size, every rank's pid, then one cache
// line per futex word: posted and released, per channel and rank), the
// all-gather channels' regions, then the reduce-scatter channels, each one
// slot per rank, rank-major, so a channel's slots are evenly spaced.
struct ShmGroup::Header {
    std::uint64_t magic;
    std::uint32_t size;
    std::uint64_t totalBytes;
};

struct ShmGroup::Mapping {
    void* base = MAP_FAILED;
    std::size_t bytes = 0;
    ~Mapping()
    {
        if (base != MAP_FAILED) munmap(base, bytes);
    }
};

namespace {

std::size_t pidsOffset() { return kLine; }
std::size_t wordsOffset(int size) { return roundUp(pidsOffset() + sizeof(pid_t) * static_cast<std::size_t>(size), kLine); }
std::size_t headerBytes(int size)
{
    return roundUp(wordsOffset(size) + kLine * 2 * kChannels * static_cast<std::size_t>(size), kPage);
}

} // namespace

Result<std::unique_ptr<ShmGroup>> ShmGroup::open(const c10::intrusive_ptr<::c10d::Store>& store, const std::string& prefix,
                                                 int rank, int size, std::size_t gatherRegionBytes,
                                                 std::size_t reduceSlotBytes, int timeoutS)
{
    std::unique_ptr<ShmGroup> g(new ShmGroup());
    g->rank_ = rank;
    g->size_ = size;
    g->timeoutS_ = timeoutS;
    g->spinUs_ = spinMicroseconds(size);
    g->slotBytes_ = {roundUp(std::max<std::size_t>(gatherRegionBytes, 1), kPage),
                     roundUp(std::max<std::size_t>(reduceSlotBytes, 1), kPage)};
    const std::size_t n = static_cast<std::size_t>(size);
    g->poolOffset_[0] = headerBytes(size);
    g->poolOffset_[1] = g->poolOffset_[0] + kGatherChannels * g->slotBytes_[0];
    const std::size_t total = g->poolOffset_[1] + kReduceChannels * n * g->slotBytes_[1];

    // Every rank takes part in every step below, whatever it found, so that
    // no rank waits for a key that a failed one never writes.
    const std::string me = hostIdentity();
    storeSet(*store, prefix + "host/" + std::to_string(rank), me);
    std::string why;
    bool elsewhere = false;
    for (int r = 0; r < size; ++r)
        elsewhere = elsewhere || storeGet(*store, prefix + "host/" + std::to_string(r)) != me;
    if (elsewhere) why = "the ranks are on different hosts";

    std::string name;
    int fd = -1;
    if (rank == 0) {
        if (why.empty()) {
            std::random_device rd;
            name = "/shardbench-" + std::to_string(getpid()) + "-" + std::to_string(rd());
            fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
            if (fd < 0) why = "shm_open " + name + ": " + std::strerror(errno);
            // Reserve the pages now: a full /dev/shm fails here, not with SIGBUS at a write mid-step.
            else if (const int e = posix_fallocate(fd, 0, static_cast<off_t>(total)); e != 0)
                why = "reserving " + std::to_string(total >> 20) + " MiB in /dev/shm: " + std::strerror(e);
        }
        storeSet(*store, prefix + "name", why.empty() ? name : "!" + why);
    } else {
        name = storeGet(*store, prefix + "name");
        if (!name.empty() && name[0] == '!') {
            if (why.empty()) why = name.substr(1);
            name.clear();
        } else if (why.empty()) {
            fd = shm_open(name.c_str(), O_RDWR, 0600);
            if (fd < 0) why = "shm_open " + name + ": " + std::strerror(errno);
        }
    }
    g->map_ = std::make_unique<Mapping>();
    if (why.empty()) {
        struct stat st {};
        if (fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) < total) {
            why = "the segment " + name + " is smaller than " + std::to_string(total) + " bytes";
        } else {
            g->map_->base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (g->map_->base == MAP_FAILED) why = std::string("mmap: ") + std::strerror(errno);
            else g->map_->bytes = total;
        }
    }
    if (fd >= 0) close(fd);
    if (why.empty()) {
        g->header_ = static_cast<Header*>(g->map_->base);
        if (rank == 0) {
            g->header_->size = static_cast<std::uint32_t>(size);
            g->header_->totalBytes = total;
            g->header_->magic = kMagic;
        }
        reinterpret_cast<pid_t*>(static_cast<char*>(g->map_->base) + pidsOffset())[rank] = getpid();
    }
    storeSet(*store, prefix + "mapped/" + std::to_string(rank), why);
    for (int r = 0; r < size; ++r) {
        const std::string theirs = storeGet(*store, prefix + "mapped/" + std::to_string(r));
        if (why.empty() && !theirs.empty()) why = "rank " + std::to_string(r) + ": " + theirs;
    }
    if (rank == 0 && !name.empty()) shm_unlink(name.c_str()); // every rank has it mapped, or gave up
    // The peers' pids, for telling a dead peer from a slow one: each must be
    // visible from here (a separate pid namespace is not).
    if (why.empty()) {
        const pid_t* pids = reinterpret_cast<const pid_t*>(static_cast<const char*>(g->map_->base) + pidsOffset());
        if (g->header_->magic != kMagic || g->header_->size != static_cast<std::uint32_t>(size)) why = "the segment's header does not match";
        for (int r = 0; r < size && why.empty(); ++r)
            if (pids[r] <= 0 || kill(pids[r], 0) != 0) why = "rank " + std::to_string(r) + "'s process is not visible from here";
    }
    storeSet(*store, prefix + "ready/" + std::to_string(rank), why);
    for (int r = 0; r < size; ++r) {
        const std::string theirs = storeGet(*store, prefix + "ready/" + std::to_string(r));
        if (why.empty() && !theirs.empty()) why = "rank " + std::to_string(r) + ": " + theirs;
    }
    if (elsewhere) return std::unique_ptr<ShmGroup>(); // Gloo's case, not a failure
    if (!why.empty()) return Status::error(why);
    return g;
}

ShmGroup::~ShmGroup() = default;

namespace {

std::atomic<std::uint32_t>* word(void* base, int size, int channel, int rank, bool posted)
{
    char* p = static_cast<char*>(base) + wordsOffset(size) +
              kLine * ((static_cast<std::size_t>(channel) * static_cast<std::size_t>(size) + static_cast<std::size_t>(rank)) * 2 +
                       (posted ? 0 : 1));
    return reinterpret_cast<std::atomic<std::uint32_t>*>(p);
}

} // namespace

int ShmGroup::freeChannel(Pool pool) const
{
    // The channel this rank released longest ago among those it does not
    // hold: its peers are the likeliest to have released it too. A unit kept
    // gathered (the root through forward and backward) takes one channel out
    // of the rotation instead of sending every later gather to Gloo.
    const int n = channels(pool), base = pool == Pool::Gather ? 0 : kGatherChannels;
    int best = -1;
    for (int ch = 0; ch < n; ++ch) {
        const std::size_t flat = static_cast<std::size_t>(base + ch);
        if (!held_[flat] && (best < 0 || releasedAt_[flat] < releasedAt_[static_cast<std::size_t>(base + best)])) best = ch;
    }
    return best;
}

bool ShmGroup::canAcquire(Pool pool, std::size_t bytes) const
{
    return bytes <= slotBytes_[index(pool)] && freeChannel(pool) >= 0;
}

void ShmGroup::noteFallback(Pool pool, int unit)
{
    if (noted_[index(pool)]) return;
    noted_[index(pool)] = true;
    std::fprintf(stderr,
                 "shardbench-core: rank %d: unit %d's %s goes through Gloo: this rank holds all %d shared-memory channels "
                 "(units kept gathered at once, or prefetched); later ones may too\n",
                 rank_, unit, pool == Pool::Gather ? "all-gather" : "reduce-scatter", channels(pool));
}

bool ShmGroup::untouched(const Ticket& released) const
{
    if (released.channel < 0) return false;
    const std::size_t flat = static_cast<std::size_t>(flatChannel(released));
    return !held_[flat] && uses_[flat] == released.use;
}

ShmGroup::Ticket ShmGroup::acquire(Pool pool, std::size_t countedBytes, const Ticket* again)
{
    Ticket t;
    t.pool = pool;
    t.channel = again && again->pool == pool && untouched(*again) ? again->channel : freeChannel(pool);
    if (t.channel < 0) throw std::logic_error("shared-memory channel acquired while this rank holds them all");
    const std::size_t flat = static_cast<std::size_t>(flatChannel(t));
    t.use = ++uses_[flat];
    // Every rank has read this channel's previous use.
    t.acquireMs = waitFor(pool == Pool::Gather ? "all-gather" : "reduce-scatter", t, false, t.use - 1);
    held_[flat] = true;
    t.countedBytes = countedBytes;
    countExternalBytes(static_cast<std::int64_t>(countedBytes));
    return t;
}

char* ShmGroup::region(const Ticket& t) const
{
    return static_cast<char*>(map_->base) + poolOffset_[0] + static_cast<std::size_t>(t.channel) * slotBytes_[0];
}

namespace {

char* slotAddress(void* base, std::size_t poolOffset, std::size_t slotBytes, int channel, int size, int r)
{
    return static_cast<char*>(base) + poolOffset +
           (static_cast<std::size_t>(channel) * static_cast<std::size_t>(size) + static_cast<std::size_t>(r)) * slotBytes;
}

} // namespace

torch::Tensor ShmGroup::slot(const Ticket& t, int r, torch::ScalarType dtype, std::int64_t n) const
{
    return torch::from_blob(slotAddress(map_->base, poolOffset_[1], slotBytes_[1], t.channel, size_, r), {n},
                            torch::TensorOptions().dtype(dtype));
}

torch::Tensor ShmGroup::rows(const Ticket& t, torch::ScalarType dtype, std::int64_t offset, std::int64_t n) const
{
    const std::int64_t elem = static_cast<std::int64_t>(c10::elementSize(dtype));
    const std::int64_t stride = static_cast<std::int64_t>(slotBytes_[1]) / elem; // pages: whole elements
    return torch::from_blob(slotAddress(map_->base, poolOffset_[1], slotBytes_[1], t.channel, size_, 0) + offset * elem,
                            {size_, n}, {stride, 1}, torch::TensorOptions().dtype(dtype));
}

void ShmGroup::recount(Ticket& t, std::size_t countedBytes)
{
    countExternalBytes(static_cast<std::int64_t>(countedBytes));
    countExternalBytes(-static_cast<std::int64_t>(t.countedBytes));
    t.countedBytes = countedBytes;
}

void ShmGroup::signal(const Ticket& t, bool posted) const
{
    std::atomic<std::uint32_t>* w = word(map_->base, size_, flatChannel(t), rank_, posted);
    w->store(t.use, std::memory_order_release);
    futex(w, FUTEX_WAKE, INT_MAX, nullptr);
}

void ShmGroup::post(const Ticket& t) { signal(t, true); }

double ShmGroup::waitAll(const Ticket& t)
{
    return waitFor(t.pool == Pool::Gather ? "all-gather" : "reduce-scatter", t, true, t.use);
}

void ShmGroup::release(Ticket& t)
{
    if (!t.valid()) return;
    signal(t, false);
    held_[static_cast<std::size_t>(flatChannel(t))] = false;
    releasedAt_[static_cast<std::size_t>(flatChannel(t))] = ++releases_;
    countExternalBytes(-static_cast<std::int64_t>(t.countedBytes));
    t = Ticket();
}

bool ShmGroup::canAllReduce(const torch::Tensor& t) const
{
    return t.is_cpu() && t.is_contiguous() && (t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kDouble) &&
           canAcquire(Pool::Reduce, static_cast<std::size_t>(t.numel()) * t.element_size());
}

void ShmGroup::allReduceSum(torch::Tensor& t)
{
    Ticket ticket = acquire(Pool::Reduce, 0);
    const torch::Tensor flat = t.view({-1});
    const std::int64_t n = flat.numel();
    slot(ticket, rank_, t.scalar_type(), n).copy_(flat);
    post(ticket);
    waitAll(ticket);
    const torch::Tensor all = rows(ticket, t.scalar_type(), 0, n);
    flat.copy_(all.select(0, 0));
    for (int r = 1; r < size_; ++r) flat.add_(all.select(0, r));
    release(ticket);
}

double ShmGroup::waitFor(const char* what, const Ticket& t, bool posted, std::uint32_t target)
{
    const auto t0 = std::chrono::steady_clock::now();
    const auto deadline = t0 + std::chrono::seconds(timeoutS_);
    const pid_t* pids = reinterpret_cast<const pid_t*>(static_cast<const char*>(map_->base) + pidsOffset());
    for (int r = 0; r < size_; ++r) {
        std::atomic<std::uint32_t>* w = word(map_->base, size_, flatChannel(t), r, posted);
        // Spun for first (spinUs_), then waited for in the kernel.
        const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(spinUs_);
        for (int spin = 0;; ++spin) {
            if (reached(w->load(std::memory_order_acquire), target)) break;
            cpuRelax();
            if (spin < kShortSpin || (spin & 255) != 0) continue;
            if (std::chrono::steady_clock::now() >= spinUntil) break;
            sched_yield(); // a process waiting for this CPU (the peer itself, if oversubscribed) runs first
        }
        for (;;) {
            const std::uint32_t seen = w->load(std::memory_order_acquire);
            if (reached(seen, target)) break;
            const timespec slice{0, 100 * 1000 * 1000};
            futex(w, FUTEX_WAIT, seen, &slice);
            if (reached(w->load(std::memory_order_acquire), target)) break;
            if (r != rank_ && exited(pids[r]))
                throw std::runtime_error(std::string("shared-memory ") + what + ": rank " + std::to_string(r) +
                                         " (pid " + std::to_string(pids[r]) + ") exited");
            if (std::chrono::steady_clock::now() > deadline)
                throw std::runtime_error(std::string("shared-memory ") + what + ": rank " + std::to_string(r) +
                                         " did not arrive within " + std::to_string(timeoutS_) + " s");
        }
    }
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace sb::engine
