#include "checkpoint_commands.hpp"

#include "args.hpp"
#include "command_exit.hpp"

#include "checkpoint/checkpoint_index.hpp"
#include "checkpoint/checkpoint_io.hpp"
#include "checkpoint/fs_util.hpp"
#include "hf/hf_export.hpp"
#include "plan/plan_json.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

namespace sb::cli {

const char* const kCheckpointUsage =
    "shardbench-cli checkpoint inspect DIR [--run ID]\n"
    "       shardbench-cli checkpoint verify DIR [--run ID]\n"
    "       shardbench-cli checkpoint export DIR [--run ID] -o MODEL.safetensors\n"
    "       shardbench-cli checkpoint export DIR [--run ID] --format hf [--dtype bf16|fp32] [--max-shard-size GB] -o OUT_DIR\n"
    "DIR is a step-NNNNNN folder, a run's folder DIR/<run id> (then its latest complete\n"
    "checkpoint), or a checkpoint root holding one run (the same) or several (then --run ID).";

namespace {

int fail(std::ostream& err, const std::string& msg)
{
    err << "shardbench-cli: " << msg << "\n";
    return kExitBadInput;
}

// Progress on stderr, at most every half second.
ckpt::Progress progressPrinter(std::ostream& err, const char* what)
{
    auto last = std::make_shared<std::chrono::steady_clock::time_point>();
    return [&err, what, last](double f) {
        const auto now = std::chrono::steady_clock::now();
        if (now - *last > std::chrono::milliseconds(500) || f >= 1.0) {
            *last = now;
            char buf[64];
            std::snprintf(buf, sizeof buf, "\r%s %5.1f%%", what, 100.0 * f);
            err << buf << (f >= 1.0 ? "\n" : "") << std::flush;
        }
        return true;
    };
}

// --format hf: the core's export, rewritten in Hugging Face's names and layout.
int exportHf(Args& a, const std::string& dir, const ckpt::CheckpointIndex& index, const std::string& outDir, bool quiet,
             std::ostream& out, std::ostream& err)
{
    hf::ExportOptions options;
    const std::string dtype = a.value("--dtype").value_or("fp32");
    if (dtype != "fp32" && dtype != "bf16") return fail(err, "--dtype is fp32 or bf16, not \"" + dtype + "\"");
    options.bf16 = dtype == "bf16";
    const double gb = a.number("--max-shard-size", 5.0);
    if (!(gb > 0 && gb < 1e6)) return fail(err, "--max-shard-size must be a positive number of GB");
    options.maxShardBytes = static_cast<std::uint64_t>(gb * 1e9);
    const PlanReadResult plan = planFromJson(index.plan);
    if (!plan.ok()) return fail(err, dir + ": the plan in its index cannot be read");
    const Status exported = hf::exportCheckpointAsHf(dir, outDir, options, quiet ? ckpt::Progress() : progressPrinter(err, "exporting"));
    if (!exported) return fail(err, exported.message());
    out << "wrote " << outDir << " (Hugging Face " << archName(plan.plan.model.arch) << ", " << dtype << ", of " << dir << ")\n";
    return kExitOk;
}

} // namespace

int cmdCheckpoint(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err)
{
    Args a(argv, {"-o", "--output", "--run", "--format", "--dtype", "--max-shard-size"}, {"--quiet"});
    if (!a.ok()) return fail(err, a.error() + "\nusage: " + kCheckpointUsage);
    if (a.positional().size() != 2) return fail(err, std::string("expected a subcommand and a folder\nusage: ") + kCheckpointUsage);
    const std::string& sub = a.positional()[0];
    const Result<std::string> resolved = ckpt::resolveCheckpoint(a.positional()[1], a.value("--run").value_or(std::string()));
    if (!resolved) return fail(err, resolved.error());
    const std::string& dir = resolved.value();
    const bool quiet = a.has("--quiet");
    // Every subcommand reads the index first: refused here when it is damaged,
    // incomplete or not a regular file; a version-1 index is read with a warning.
    const Result<ckpt::CheckpointIndex> read = ckpt::readIndex(dir);
    if (!read) return fail(err, sub == "verify" ? read.status().prefixed("checkpoint is damaged").message() : read.error());
    const ckpt::CheckpointIndex& index = read.value();
    if (const std::string why = index.readOnlyReason(); !why.empty()) err << "shardbench-cli: warning: " << dir << ": " << why << "\n";

    if (sub == "inspect") {
        const Result<std::string> text = ckpt::describeCheckpoint(dir);
        if (!text) return fail(err, text.error());
        out << text.value();
        return kExitOk;
    }
    if (sub == "verify") {
        const Status verified = ckpt::verifyCheckpoint(dir, quiet ? ckpt::Progress() : progressPrinter(err, "verifying"));
        if (!verified) return fail(err, verified.prefixed("checkpoint is damaged").message());
        out << dir << ": verified (the index" << (index.checksummed ? "'s SHA-256" : "")
            << " and its completeness against the plan's model, every file's size and SHA-256, every shard's CRC-32C)\n";
        return kExitOk;
    }
    if (sub == "export") {
        auto output = a.value("-o") ? a.value("-o") : a.value("--output");
        if (!output) return fail(err, std::string("missing -o MODEL.safetensors\nusage: ") + kCheckpointUsage);
        const std::string format = a.value("--format").value_or("safetensors");
        if (format == "hf") return exportHf(a, dir, index, *output, quiet, out, err);
        if (format != "safetensors") return fail(err, "--format is \"safetensors\" (the default) or \"hf\", not \"" + format + "\"");
        const Status exported = ckpt::exportCheckpoint(dir, *output, quiet ? ckpt::Progress() : progressPrinter(err, "exporting"));
        if (!exported) return fail(err, exported.message());
        out << "wrote " << *output << " (unsharded parameters of " << dir << ")\n";
        return kExitOk;
    }
    return fail(err, "unknown checkpoint subcommand \"" + sub + "\"\nusage: " + kCheckpointUsage);
}

} // namespace sb::cli
