// Times the JSON reader and what reads through it on large inputs (not a
// test: results go to docs/performance.md, "JSON reader"). Inputs are built
// in memory, the largest at the plan size limit (64 MiB); each case runs
// `runs` times after a warm-up and the median is reported.
//
//   shardbench-json-bench [--runs N] [--mib N]
#include "checkpoint/checkpoint_index.hpp"
#include "json/json.hpp"
#include "plan/plan_json.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double medianMs(int runs, const std::function<void()>& f)
{
    f(); // warm-up: first-touch allocations
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto t0 = Clock::now();
        f();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// A valid plan whose "name" is followed by `pad`, to reach a given size.
std::string planWith(const std::string& pad)
{
    std::string base = sb::planToString(sb::defaultPlan(*sb::presetConfig("transformer")));
    base.insert(base.find("\"name\""), pad);
    return base;
}

// {"x00000001": 0, ...} of about `bytes`.
std::string manyKeys(std::size_t bytes)
{
    std::string s;
    s.reserve(bytes + 64);
    char buf[32];
    for (unsigned i = 0; s.size() < bytes; ++i) {
        std::snprintf(buf, sizeof buf, "\"x%08u\": 0, ", i);
        s += buf;
    }
    return s;
}

// `open`, then `piece` repeated to about `bytes`, then `close`.
std::string filled(const char* open, const char* piece, const char* close, std::size_t bytes)
{
    std::string s = open;
    s.reserve(bytes + 32);
    while (s.size() < bytes) s += piece;
    return s + close;
}

// A plan with n units, one per layer (the units array is most of the file).
std::string manyUnits(int layers)
{
    sb::ModelConfig m = *sb::presetConfig("transformer");
    m.nLayers = layers;
    m.dim = 64;
    m.ffnHidden = 128;
    return sb::planToString(sb::defaultPlan(m));
}

// A plan of an imported model whose module tree fills about `bytes`: the
// shape a really large plan has (one module per line, each with a parameter).
std::string importedPlan(std::size_t bytes)
{
    std::string modules = "{\"name\": \"\", \"type\": \"Net\", \"params\": []}";
    modules.reserve(bytes + 256);
    char buf[160];
    for (unsigned i = 0; modules.size() < bytes; ++i) {
        std::snprintf(buf, sizeof buf, ",\n{\"name\": \"m%u\", \"type\": \"Linear\", \"params\": [{\"name\": \"weight\", \"shape\": [64, 64], \"dtype\": \"float32\"}]}", i);
        modules += buf;
    }
    return "{\"format\": \"shardbench-plan\", \"version\": 1, \"model\": {\"preset\": \"imported\", \"arch\": \"imported\", "
           "\"module_tree\": {\"format\": \"shardbench-module-tree\", \"version\": 1, \"modules\": [" + modules + "]}}}";
}

// A checkpoint index listing one file and one tensor, plus `extra` unknown keys.
std::string indexWith(std::size_t extra)
{
    sb::ckpt::CheckpointIndex index;
    index.files.push_back({"rank-00000.safetensors", 16, std::string(64, '0')});
    index.tensors.push_back({"param/w", "F32", {4}, {{"rank-00000.safetensors", 0, 4, "00000000"}}});
    std::string text = index.toJson().dump(1);
    std::string pad;
    char buf[40];
    for (std::size_t i = 0; i < extra; ++i) {
        std::snprintf(buf, sizeof buf, "\"extra%zu\": %zu,\n", i, i);
        pad += buf;
    }
    text.insert(1, pad);
    return text;
}

void row(const char* what, std::size_t bytes, double ms)
{
    std::printf("| %-52s | %9.2f | %10.3f | %7.0f |\n", what, static_cast<double>(bytes) / (1 << 20), ms,
                static_cast<double>(bytes) / (1 << 20) / (ms / 1000.0));
}

volatile std::size_t sink = 0;

} // namespace

int main(int argc, char** argv)
{
    int runs = 5;
    std::size_t mib = 64;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runs")) runs = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--mib")) mib = static_cast<std::size_t>(std::max(1, std::atoi(argv[i + 1])));
    }
    const std::size_t big = mib << 20;
    std::printf("| input | MiB | median ms | MiB/s |\n|---|---:|---:|---:|\n");

    auto parse = [&](const char* what, const std::string& text) {
        row(what, text.size(), medianMs(runs, [&] {
                const sb::json::ParseResult r = sb::json::parse(text);
                if (!r) { std::fprintf(stderr, "%s: %s\n", what, r.error.toString().c_str()); std::exit(2); }
                sink = sink + r.value->size();
            }));
    };
    auto validate = [&](const char* what, const std::string& text) {
        row(what, text.size(), medianMs(runs, [&] {
                const sb::LoadedPlan lp = sb::validateLoaded(sb::planFromString(text));
                if (!lp.ok()) { std::fprintf(stderr, "%s: %s\n", what, sb::formatProblem(lp.problems[0]).c_str()); std::exit(2); }
                sink = sink + lp.problems.size();
            }));
    };

    // Labels count what each input holds (millions, at the --mib given).
    auto millions = [](const std::string& text, const std::string& needle) {
        std::size_t n = 0;
        for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
        return static_cast<double>(n) / 1e6;
    };
    char what[96];
    const std::string keys = "{" + manyKeys(big - 16) + "\"end\": 0}";
    std::snprintf(what, sizeof what, "`json::parse`, one object of %.2f M keys", millions(keys, "\": "));
    parse(what, keys);
    const std::string array = filled("[", "7,", "7]", big);
    std::snprintf(what, sizeof what, "`json::parse`, an array of %.1f M numbers", millions(array, ","));
    parse(what, array);
    parse("`json::parse`, one string (UTF-8, escapes)", filled("\"", "caf\xc3\xa9 \\n \xe4\xb8\xad ", "\"", big));
    const std::string smallPlan = planWith(manyKeys(2300u << 10));
    validate("plan validate, 2.3 MB plan (100 k unknown keys)", smallPlan);
    const std::string keyPlan = planWith(manyKeys(big - 4096));
    std::snprintf(what, sizeof what, "plan validate, plan of %.2f M unknown keys", millions(keyPlan, "\"x"));
    validate(what, keyPlan);
    validate("plan validate, 20 000 units (one per layer)", manyUnits(20000));
    const std::string imported = importedPlan(big - 512);
    std::snprintf(what, sizeof what, "`json::parse`, imported plan of %.2f M modules", millions(imported, "Linear"));
    parse(what, imported);
    std::snprintf(what, sizeof what, "plan validate, imported plan of %.2f M modules", millions(imported, "Linear"));
    validate(what, imported);
    const std::string index = indexWith(100000);
    row("checkpoint index, 100 k extra keys", index.size(), medianMs(runs, [&] {
            const sb::json::ParseResult r = sb::json::parse(index);
            const sb::Result<sb::ckpt::CheckpointIndex> out =
                r ? sb::ckpt::CheckpointIndex::fromJson(*r.value) : sb::Result<sb::ckpt::CheckpointIndex>(sb::Status::error(r.error.toString()));
            if (!out) { std::fprintf(stderr, "index: %s\n", out.error().c_str()); std::exit(2); }
            sink = sink + out.value().tensors.size();
        }));
    return 0;
}
