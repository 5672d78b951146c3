// shardbench-core: one rank of an FSDP2-style training run (docs/protocol.md).
#include "data.hpp"
#include "device.hpp"
#include "dist_env.hpp"
#include "elastic.hpp"
#include "events.hpp"
#include "model.hpp"
#include "process_groups.hpp"
#include "system_sampler.hpp"
#include "torch_compat.hpp"
#include "tracking_allocator.hpp"
#include "trainer.hpp"

#include "args.hpp"
#include "sb_version.hpp"
#include "hf/hf_weights.hpp"
#include "plan/plan_json.hpp"

#include <torch/torch.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <unistd.h>
#include <vector>

namespace {

const char* kUsage =
    "usage: shardbench-core --plan PLAN.json [--run-id ID] [--resume CKPT_DIR|auto] [--init-from MODEL.safetensors]\n"
    "                      [--export-final MODEL.safetensors] [--reference]\n"
    "       shardbench-core --plan PLAN.json --check-init-from MODEL\n"
    "       shardbench-core --version\n"
    "One rank of a run; configure it with the torchrun environment (RANK, WORLD_SIZE,\n"
    "LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT).\n"
    "--check-init-from reads only the headers of the weights --init-from would load\n"
    "and checks their names, shapes and dtypes against the plan's model; it needs no\n"
    "torchrun environment and exits 0 or 2 (the launcher's pre-flight on a cluster).\n";

std::string hostName()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

} // namespace

// One rank, start to exit; main() adds torchrun's error file.
int runRank(int argc, char** argv)
{
    using namespace sb;
    using namespace sb::engine;
    // Before any tensor exists, so that every ATen allocation is counted.
    installTrackingAllocator();

    sb::cli::Args args(std::vector<std::string>(argv + 1, argv + argc),
                       {"--plan", "--run-id", "--resume", "--export-final", "--init-from", "--check-init-from"},
                       {"--reference", "--version", "-h", "--help"});
    // Args stops at the first bad argument, so an option before it still counts.
    if (args.has("--version")) {
        std::cout << "shardbench-core " << sb::kReleaseVersion << " (LibTorch " << torchVersion() << ", "
                  << (cudaBuild() ? "CUDA and NCCL" : "CPU and Gloo") << ")\n";
        return code(CoreExit::Ok);
    }
    if (args.has("-h") || args.has("--help")) {
        std::cout << kUsage;
        return code(CoreExit::Ok);
    }
    if (!args.ok() || !args.positional().empty()) {
        const std::string bad = !args.ok() ? args.badArgument() : args.positional().front();
        std::cerr << "shardbench-core: unknown or incomplete argument \"" << bad << "\"\n" << kUsage;
        return code(CoreExit::BadInput);
    }
    const std::string planPath = args.value("--plan").value_or("");
    DistEnv env;
    const Status envError = readDistEnv(env);
    // torchrun's run id names the run when --run-id does not; a group torchrun
    // restarted resumes from its newest checkpoint unless --resume says otherwise.
    const std::string runId = args.value("--run-id").value_or(env.elastic.runId.empty() ? "local" : env.elastic.runId);
    TrainerOptions options;
    options.resumePath = args.value("--resume").value_or(env.elastic.restartCount > 0 ? "auto" : "");
    options.exportPath = args.value("--export-final").value_or("");
    options.initFrom = args.value("--init-from").value_or("");
    options.reference = args.has("--reference");

    events().configure(env.rank, runId);
    if (planPath.empty()) {
        events().error("missing --plan PLAN.json", "arguments");
        std::cerr << kUsage;
        return code(CoreExit::BadInput);
    }
    if (!envError.ok()) {
        events().error(envError.message(), "environment");
        return code(CoreExit::BadInput);
    }

    LoadedPlan plan = loadAndValidate(planPath);
    for (const Problem& p : plan.problems)
        if (env.rank == 0 || p.severity == Severity::Error) events().log(planPath + ": " + formatProblem(p));
    if (!plan.ok()) {
        for (const Problem& p : plan.problems)
            if (p.severity == Severity::Error) {
                events().error(planPath + ": " + p.path.str() + ": " + p.message(), p.path.str());
                break;
            }
        return code(CoreExit::BadInput);
    }
    if (const Status why = TransformerModel::supports(plan.plan.model); !why.ok()) {
        events().error(why.message(), "$.model");
        return code(CoreExit::BadInput);
    }
    if (const std::optional<std::string> weights = args.value("--check-init-from")) {
        const Result<hf::WeightSource> source = hf::openWeightsFor(*plan.tree, plan.plan.model, *weights);
        if (!source) {
            std::cerr << "shardbench-core: " << source.status().message() << "\n";
            return code(CoreExit::BadInput);
        }
        std::cout << "shardbench-core: " << *weights << ": " << source.value().tensors.size()
                  << " tensors, as the plan's model needs them\n";
        return code(CoreExit::Ok);
    }
    if (const Status why = selectDevice(plan.plan.mesh.device == Device::Cuda, env.localRank); !why.ok()) {
        events().error(why.message(), "$.mesh.device");
        return code(CoreExit::BadInput);
    }
    const int planWorld = options.reference ? 1 : plan.plan.mesh.worldSize();
    if (planWorld != env.world) {
        events().error("the plan's mesh is " + std::to_string(plan.plan.mesh.nodes) + " node(s) x " +
                           std::to_string(plan.plan.mesh.procsPerNode) + " = " + std::to_string(plan.plan.mesh.worldSize()) +
                           " ranks but WORLD_SIZE is " + std::to_string(env.world),
                       "$.mesh");
        return code(CoreExit::BadInput);
    }

    at::set_num_interop_threads(1);
    at::set_num_threads(env.threads);

    const int replicate = options.reference ? 1 : plan.plan.mesh.replicate;
    if (const Status bad = DeviceMesh::checkReplicate(env, replicate); !bad.ok()) {
        events().error(bad.message(), "rendezvous");
        return code(CoreExit::BadInput);
    }
    Result<std::unique_ptr<DeviceMesh>> connected = DeviceMesh::connect(env, replicate);
    if (!connected) {
        events().error(connected.error(), "rendezvous");
        return code(CoreExit::RendezvousFailed);
    }
    const std::unique_ptr<DeviceMesh> mesh = std::move(connected).value();

    protocol::Hello hello;
    hello.host = hostName();
    hello.pid = static_cast<long long>(getpid());
    hello.device = deviceDescription();
    hello.torch = torchVersion();
    hello.coreVersion = sb::kReleaseVersion;
    hello.world = env.world;
    hello.localRank = env.localRank;
    hello.localWorld = env.localWorld;
    hello.threads = env.threads;
    hello.master = env.masterAddr + ":" + std::to_string(env.masterPort);
    hello.env = env.fromSlurm ? "slurm" : "torchrun";
    events().emit(hello);
    // Stopped and joined when runRank returns, after the run's last event.
    const SystemSampler sampler(env.systemSampleS, plan.plan.mesh.device == Device::Cuda ? env.localRank : -1);

    options.runId = runId;
    try {
        return train(plan, env, *mesh, options);
    } catch (const BadDataError& e) {
        events().error(e.what(), "$.training.data");
        events().emit(protocol::Done{"failed", {}, {}, {}});
        return code(CoreExit::BadInput);
    } catch (const std::exception& e) {
        // c10 errors carry a long backtrace after the first line.
        std::string msg = e.what();
        if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
        events().error(msg, "training");
        events().emit(protocol::Done{"failed", {}, {}, {}});
        return code(CoreExit::Failed);
    }
}

int main(int argc, char** argv)
{
    const int rc = runRank(argc, argv);
    // torchrun reports a failed worker from the file it named, in its own format.
    if (const char* file = std::getenv("TORCHELASTIC_ERROR_FILE"); rc != 0 && file && *file) {
        const std::string& first = sb::engine::events().firstError();
        const std::string message = first.empty() ? "shardbench-core exited with code " + std::to_string(rc) : first;
        if (const sb::Status e = sb::engine::writeElasticErrorFile(file, message); !e.ok())
            std::cerr << "shardbench-core: " << e.message() << "\n";
    }
    return rc;
}
