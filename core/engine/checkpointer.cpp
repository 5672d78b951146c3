#include "checkpointer.hpp"

#include "events.hpp"
#include "torch_compat.hpp"

#include "checkpoint/checkpoint_io.hpp"
#include "checkpoint/fs_util.hpp"
#include "checkpoint/sha256.hpp"
#include "checkpoint/shard_sidecar.hpp"
#include "json/json.hpp"
#include "plan/plan_json.hpp"

#include <algorithm>
#include <chrono>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cstring>
#include <cstdio>

namespace sb::engine {

using Clock = std::chrono::steady_clock;

namespace {

std::string rankFile(int shardRank, const char* ext)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "rank-%05d.%s", shardRank, ext);
    return buf;
}

// Where shard rank `shardRank` records in the rendezvous store how writing its file for `step` went.
std::string shardWriteKey(std::int64_t step, int shardRank) { return "ckpt/" + std::to_string(step) + "/" + std::to_string(shardRank); }


} // namespace

// Host copies of this rank's shards, taken on the training thread.
struct Checkpointer::Snapshot {
    TrainingPosition pos;
    std::int64_t optimizerStep = 0;
    std::string tmpDir, finalDir;
    std::unique_ptr<ckpt::ShardImage> image; // this rank's file, when it writes one
    Clock::time_point started;
    std::uint64_t bytes = 0;
    double stallMs = 0;   // how long the training thread was blocked by this save
    bool async = false;
};

Checkpointer::Checkpointer(const Plan& plan, const ModuleTree& tree, FullyShard& fsdp, torch::optim::AdamW& optimizer,
                           DeviceMesh& mesh, std::string runId)
    : plan_(plan), tree_(tree), fsdp_(fsdp), optimizer_(optimizer), mesh_(mesh), runId_(std::move(runId)),
      root_(plan.training.checkpoint.dir)
{
}

Checkpointer::~Checkpointer() { waitForPendingSave(); }

void Checkpointer::waitForPendingSave()
{
    if (worker_.joinable()) worker_.join();
}

void Checkpointer::afterStep(const TrainingPosition& pos, bool last)
{
    if (!enabled()) return;
    const int interval = plan_.training.checkpoint.interval;
    if ((interval > 0 && pos.stepsDone % interval == 0) || last) save(pos);
}

double Checkpointer::save(const TrainingPosition& pos)
{
    const auto t0 = Clock::now();
    waitForPendingSave(); // one save in flight
    auto snap = std::make_shared<Snapshot>();
    snap->pos = pos;
    snap->started = t0;
    snap->finalDir = runDir() + "/" + ckpt::stepDirName(pos.stepsDone);
    snap->tmpDir = snap->finalDir + ".tmp";
    if (mesh_.rank() == 0) {
        Status st = ckpt::makeDirs(runDir());
        if (st.ok()) st = ckpt::removeTree(snap->tmpDir); // a crashed earlier attempt
        if (st.ok() && ckpt::exists(snap->finalDir)) st = ckpt::removeTree(snap->finalDir);
        if (st.ok()) st = ckpt::makeDirs(snap->tmpDir);
        if (!st.ok()) events().error("checkpoint: " + st.message(), "checkpoint");
    }
    mesh_.barrier(); // the folder exists before anyone writes into it

    if (mesh_.replicaIndex() == 0) { // replicas hold identical shards
        std::vector<ckpt::ShardTensor> tensors;
        std::vector<torch::Tensor> sources;
        for (auto& unit : fsdp_.units()) {
            for (const ShardParam& p : unit->params()) {
                const std::int64_t begin = p.rowBegin;
                const std::string path = tree_.param(p.index).path;
                auto add = [&](const std::string& kind, const torch::Tensor& t) {
                    tensors.push_back({kind + "/" + path, p.shape, begin, begin + p.localRows, nullptr});
                    sources.push_back(t.contiguous());
                };
                add("param", p.shard);
                auto it = optimizer_.state().find(optimizerStateKey(p.shard));
                if (it != optimizer_.state().end()) {
                    auto& st = static_cast<torch::optim::AdamWParamState&>(*it->second);
                    snap->optimizerStep = st.step();
                    add("exp_avg", st.exp_avg());
                    add("exp_avg_sq", st.exp_avg_sq());
                } else {
                    const torch::Tensor zeros = torch::zeros_like(p.shard);
                    add("exp_avg", zeros);
                    add("exp_avg_sq", zeros);
                }
            }
        }
        snap->image = std::make_unique<ckpt::ShardImage>(std::move(tensors), spare_.get());
        spare_.reset();
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const std::size_t bytes = snap->image->tensors()[i].bytes();
            // Straight into the file image: a memcpy on the CPU, one device-to-host copy on a GPU.
            if (bytes)
                torch::from_blob(snap->image->data(i), {static_cast<std::int64_t>(bytes / 4)}, torch::kFloat)
                    .copy_(sources[i].view({-1}));
            snap->bytes += bytes;
        }
    }
    snap->async = plan_.training.checkpoint.async;
    if (snap->async) {
        snap->stallMs = msSince(t0);
        worker_ = std::thread([this, snap] {
            // Lowest priority: the writer uses CPU the training threads leave idle.
            // SCHED_IDLE cost training no less on the benchmark, and behind other
            // busy processes it starved the write (5.9 s against 1.1 s at nice 19),
            // so that the next save had to wait for it.
            ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
            write(snap);
        });
        return snap->stallMs;
    }
    write(snap);
    return msSince(t0);
}

void Checkpointer::write(std::shared_ptr<Snapshot> snap)
{
    Status written;
    if (snap->image) {
        const Result<ckpt::WrittenFile> shardFile = ckpt::writeShardFile(snap->tmpDir, rankFile(mesh_.shardRank(), "safetensors"), *snap->image);
        written = shardFile.status();
        if (written)
            written = ckpt::writeFileDurably(snap->tmpDir + "/" + rankFile(mesh_.shardRank(), "json"), ckpt::sidecarToJson(shardFile.value()).dump());
        spare_ = std::move(snap->image); // read by the next save() only after joining this thread
    }
    if (mesh_.store() && mesh_.replicaIndex() == 0) {
        const std::string record = ckpt::shardWriteRecord(written);
        mesh_.store()->set(shardWriteKey(snap->pos.stepsDone, mesh_.shardRank()), std::vector<uint8_t>(record.begin(), record.end()));
    }
    if (mesh_.rank() != 0) return;
    if (written) {
        finalize(*snap);
        return;
    }
    protocol::CheckpointEvent ev;
    ev.step = static_cast<long long>(snap->pos.stepsDone);
    ev.path = snap->finalDir;
    ev.kind = "sharded";
    ev.status = "failed";
    ev.message = written.message() + discard(*snap);
    events().emit(ev);
}

std::string Checkpointer::discard(const Snapshot& snap) const
{
    // The others may still be writing into the folder: each reports when its file is done (or failed).
    if (mesh_.store())
        for (int s = 1; s < mesh_.shardSize(); ++s) {
            try {
                mesh_.store()->wait({shardWriteKey(snap.pos.stepsDone, s)}, std::chrono::seconds(600));
            } catch (const std::exception&) {
                // It never finished: removed all the same, as a later save of this step would.
            }
        }
    if (const Status removed = ckpt::removeTree(snap.tmpDir); !removed) return "; " + removed.message();
    return {};
}

Status Checkpointer::awaitShardFiles(std::int64_t step) const
{
    if (!mesh_.store()) return {};
    for (int s = 1; s < mesh_.shardSize(); ++s) {
        const std::string key = shardWriteKey(step, s);
        const std::string who = "shard rank " + std::to_string(s);
        try {
            mesh_.store()->wait({key}, std::chrono::seconds(600));
            const std::vector<uint8_t> v = mesh_.store()->get(key);
            if (Status written = ckpt::shardWriteStatus(std::string(v.begin(), v.end())); !written) return written.prefixed(who);
        } catch (const std::exception& e) {
            return Status::error(who + " did not finish its file: " + e.what());
        }
    }
    return {};
}

Result<ckpt::CheckpointIndex> Checkpointer::mergedIndex(const Snapshot& snap) const
{
    ckpt::CheckpointIndex index;
    index.step = snap.pos.stepsDone;
    index.optimizerStep = snap.optimizerStep;
    index.worldSize = mesh_.world();
    index.shardSize = mesh_.shardSize();
    index.replicate = mesh_.replicate();
    index.seed = plan_.training.seed;
    index.nextSample = snap.pos.nextSample;
    index.runId = runId_;
    index.created = unixSeconds();
    index.plan = planToJson(plan_);
    std::map<std::string, ckpt::TensorInfo> tensors;
    for (int s = 0; s < mesh_.shardSize(); ++s) {
        const std::string path = snap.tmpDir + "/" + rankFile(s, "json");
        const Result<ckpt::WrittenFile> sidecar = ckpt::readSidecar(path);
        if (!sidecar) return sidecar.status();
        index.files.push_back(sidecar.value().file);
        for (const auto& [name, ref] : sidecar.value().shards) {
            const int param = tree_.findParam(name.substr(name.find('/') + 1));
            if (param < 0) return Status::error(path + ": tensor \"" + name + "\" is not one of the model's");
            ckpt::TensorInfo& t = tensors[name];
            t.name = name;
            t.shape = tree_.param(param).shape;
            if (t.shape.empty()) t.shape = {1};
            if (ref.rowEnd > ref.rowBegin) t.shards.push_back(ref);
        }
    }
    for (auto& [name, t] : tensors) {
        std::sort(t.shards.begin(), t.shards.end(), [](const auto& a, const auto& b) { return a.rowBegin < b.rowBegin; });
        index.tensors.push_back(std::move(t));
    }
    // What a reader of index.json checks (rows covered once, every tensor of
    // the model), checked before the index is committed.
    if (const Result<ckpt::CheckpointIndex> reread = ckpt::CheckpointIndex::fromJson(index.toJson()); !reread)
        return reread.status().prefixed(snap.tmpDir);
    if (const Status complete = ckpt::checkTensorsAgainstModel(index, tree_); !complete) return complete.prefixed(snap.tmpDir);
    return index;
}

void Checkpointer::finalize(const Snapshot& snap)
{
    Status committed = awaitShardFiles(snap.pos.stepsDone);
    ckpt::CheckpointIndex index;
    if (committed) {
        Result<ckpt::CheckpointIndex> merged = mergedIndex(snap);
        committed = merged.status();
        if (committed) index = std::move(merged).value();
    }
    if (committed) {
        for (int s = 0; s < mesh_.shardSize(); ++s) std::remove((snap.tmpDir + "/" + rankFile(s, "json")).c_str());
        committed = ckpt::writeIndex(snap.tmpDir, index);
    }
    if (committed) committed = ckpt::fsyncPath(snap.tmpDir);
    if (committed) committed = ckpt::renameDurably(snap.tmpDir, snap.finalDir);
    std::uint64_t bytes = 0;
    for (const auto& f : index.files) bytes += f.bytes;
    std::string indexSha;
    if (committed) {
        // Names every file's SHA-256 in turn; an unreadable index leaves it empty, as before.
        const Result<std::string> sha = ckpt::sha256File(snap.finalDir + "/index.json");
        if (sha) indexSha = sha.value();
    }

    protocol::CheckpointEvent ev;
    ev.step = static_cast<long long>(snap.pos.stepsDone);
    ev.path = snap.finalDir;
    ev.bytes = static_cast<long long>(bytes);
    ev.ms = msSince(snap.started);
    ev.kind = "sharded";
    ev.async = snap.async;
    // Synchronous: the whole save blocked training; asynchronous: only the snapshot.
    ev.stallMs = snap.async ? snap.stallMs : msSince(snap.started);
    ev.world = mesh_.world();
    ev.status = committed ? "complete" : "failed";
    if (!indexSha.empty()) ev.checksum = "sha256:" + indexSha;
    if (!committed) {
        ev.message = committed.message() + discard(snap);
        events().emit(ev); // and its log line
        return;
    }
    // A folder that could not be pruned rides on the new checkpoint's event
    // (status stays "complete"), so the launcher records it with the run.
    if (const Status pruned = pruneOldCheckpoints(); !pruned) {
        ev.message = pruned.message();
    }
    events().emit(ev);
}

Status Checkpointer::pruneOldCheckpoints()
{
    // Keep the most recent `keep` complete checkpoints of this run (its own
    // folder only). A folder that cannot be removed is reported, not fatal:
    // the new checkpoint is complete and training goes on.
    const auto all = ckpt::listCheckpoints(runDir());
    const int keep = std::max(1, plan_.training.checkpoint.keep);
    std::string failures;
    for (std::size_t i = 0; i + static_cast<std::size_t>(keep) < all.size(); ++i)
        if (const Status removed = ckpt::removeTree(all[i].second); !removed)
            failures += (failures.empty() ? "" : "; ") + removed.prefixed("old checkpoint not pruned").message();
    return failures.empty() ? Status() : Status::error(failures);
}

Status Checkpointer::checkCompatible(const ckpt::CheckpointIndex& index, const std::string& dir) const
{
    if (std::string why = index.readOnlyReason(); !why.empty()) return Status::error(dir + ": " + why);
    return ckpt::checkTensorsAgainstModel(index, tree_).prefixed(dir);
}

Result<bool> Checkpointer::load(const std::string& path, TrainingPosition& pos)
{
    std::string where = path;
    if (path == "auto") {
        if (root_.empty() || ckpt::listCheckpoints(runDir()).empty()) return false; // nothing yet: start fresh
        where = runDir();
    }
    const Result<std::string> resolved = ckpt::resolveCheckpoint(where);
    if (!resolved) return resolved.status();
    const std::string& dir = resolved.value();
    const Result<ckpt::CheckpointIndex> read = ckpt::readIndex(dir);
    if (!read) return read.status();
    const ckpt::CheckpointIndex& index = read.value();
    if (Status compatible = checkCompatible(index, dir); !compatible) return compatible;
    for (const ckpt::FileInfo& f : index.files)
        if (!ckpt::exists(dir + "/" + f.name)) return Status::error(dir + "/" + f.name + ": missing");

    const auto t0 = Clock::now();
    ckpt::ShardReader reader(dir, index);
    torch::NoGradGuard noGrad;
    for (auto& unit : fsdp_.units()) {
        for (ShardParam& p : unit->params()) {
            const std::int64_t begin = p.rowBegin;
            const std::string& name = tree_.param(p.index).path;
            auto readRows = [&](const std::string& kind, torch::Tensor target) {
                if (p.localRows == 0) return Status();
                // Files are read into host memory; a GPU shard is filled from there.
                torch::Tensor host = target.is_cpu() ? target : torch::empty(target.sizes(), torch::kFloat);
                Status rows = reader.readRows(kind + "/" + name, begin, begin + p.localRows, host.data_ptr<float>());
                if (rows && !target.is_cpu()) target.copy_(host);
                return rows;
            };
            if (Status rows = readRows("param", p.shard); !rows) return rows;
            auto state = std::make_unique<torch::optim::AdamWParamState>();
            state->step(index.optimizerStep);
            state->exp_avg(torch::empty_like(p.shard)); // filled by the reads below
            state->exp_avg_sq(torch::empty_like(p.shard));
            if (Status rows = readRows("exp_avg", state->exp_avg()); !rows) return rows;
            if (Status rows = readRows("exp_avg_sq", state->exp_avg_sq()); !rows) return rows;
            if (index.optimizerStep > 0) optimizer_.state()[optimizerStateKey(p.shard)] = std::move(state);
            reader.clear();
        }
    }
    pos.stepsDone = index.step;
    pos.nextSample = index.nextSample;
    const double ms = msSince(t0);
    events().log("resumed from " + dir + " (step " + std::to_string(index.step) + ", saved at world size " +
                 std::to_string(index.worldSize) + ", read " + std::to_string(reader.bytesRead()) + " bytes in " +
                 std::to_string(static_cast<long long>(ms)) + " ms)");
    return true;
}

} // namespace sb::engine
