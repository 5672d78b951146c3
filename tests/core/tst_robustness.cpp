// Never a crash: truncated, garbled and deeply nested JSON, and thousands of
// random mutations of valid plans (fixed seed) go through planFromString +
// validateLoaded, and through the estimator, the reports, the script export
// and a write/read round trip whenever the result is valid.
#include "test_support.hpp"

#include "estimate/estimate_report.hpp"
#include "export/fsdp2_script.hpp"

#include <QtTest/QtTest>

#include <exception>
#include <random>

using namespace sb;
using sbtest::q;

namespace {

using Rng = std::mt19937_64;

struct Counts {
    int cases = 0;
    int valid = 0;
};

// Runs one input through everything a user's file reaches. Returns an empty
// string, or what went wrong.
std::string exercise(const std::string& text, Counts& counts)
{
    ++counts.cases;
    try {
        LoadedPlan lp = validateLoaded(planFromString(text));
        if (!lp.tree) return "no tree";
        if (!lp.plan.findUnit("")) return "no root unit";
        for (const Problem& p : lp.problems)
            if (p.message().empty() || p.codeName().empty()) return "problem without code or message";
        if (!lp.ok()) return {};
        ++counts.valid;
        const Estimate e = estimateMemory(lp.plan, *lp.tree);
        if (static_cast<int>(e.ranks.size()) != lp.plan.mesh.worldSize()) return "rank count";
        if (e.timeline.size() != 5 * static_cast<std::size_t>(e.units) + 4) return "timeline size";
        std::uint64_t max = 0;
        for (const TimelinePoint& p : e.timeline) max = std::max(max, p.memory.total());
        if (e.peakBytes() != max) return "peak is not the timeline maximum";
        estimateJson(lp.plan, e, true).dump();
        estimateTable(lp.plan, e);
        estimateCsv(e);
        exportFsdp2Script(lp.plan, *lp.tree);
        // A valid plan writes and reads back to the same plan.
        const std::string written = planToString(lp.plan);
        const PlanReadResult back = planFromString(written);
        if (!back.ok()) return "written plan does not read back: " + (back.problems.empty() ? std::string() : formatProblem(back.problems[0]));
        if (planToString(back.plan) != written) return "round trip changed the plan";
    } catch (const std::exception& ex) {
        return std::string("exception: ") + ex.what();
    } catch (...) {
        return "unknown exception";
    }
    return {};
}

json::Value randomValue(Rng& rng, int depth = 0)
{
    static const json::Value pool[] = {
        json::Value(), json::Value(true), json::Value(false), json::Value(0), json::Value(-1), json::Value(1), json::Value(2),
        json::Value(3), json::Value(7), json::Value(8), json::Value(64), json::Value(1000), json::Value(1 << 20),
        json::Value(2147483647), json::Value(-2147483647 - 1), json::Value(1LL << 40), json::Value(9007199254740993LL),
        json::Value(0.5), json::Value(-0.0), json::Value(1e300), json::Value(-1e300), json::Value(1e-300), json::Value(3.7),
        json::Value(""), json::Value("default"), json::Value("full"), json::Value("none"), json::Value("bf16"), json::Value("fp16"),
        json::Value("fp32"), json::Value("cuda"), json::Value("cpu"), json::Value("layers.0"), json::Value("layers.1"),
        json::Value("layers.0.attention.wq.weight"), json::Value("tok_embeddings.weight"), json::Value("gpt2-124m"),
        json::Value("llama3-8b"), json::Value("imported"), json::Value("tokens"), json::Value("cosine"),
        json::Value(std::string("nul\0byte", 8)), json::Value("\xff\xfe not utf-8"), json::Value("caf\u00e9 \U0001F600"),
        json::Value(json::Array{}), json::Value(json::Object{}), json::Value(json::Array{0.9, 0.95}),
        json::Value(json::Array{4, 4}), json::Value(json::Array{json::Value()}),
    };
    const std::size_t n = std::size(pool);
    const std::size_t pick = rng() % (n + 4);
    if (pick < n) return pool[pick];
    if (pick == n) return json::Value(static_cast<long long>(rng() % (1ull << 31)) - (1ll << 30));
    if (pick == n + 1) return json::Value(static_cast<double>(rng() % 1000000) / 997.0);
    if (depth > 3) return json::Value();
    if (pick == n + 2) {
        json::Value a = json::Value::array();
        for (std::size_t i = rng() % 4; i > 0; --i) a.push(randomValue(rng, depth + 1));
        return a;
    }
    json::Value o = json::Value::object();
    for (std::size_t i = rng() % 3; i > 0; --i) o.set("k" + std::to_string(rng() % 5), randomValue(rng, depth + 1));
    return o;
}

// Walks to a random node of the document and changes it.
void mutate(json::Value& root, Rng& rng)
{
    json::Value* node = &root;
    for (int steps = 0; steps < 12; ++steps) {
        const bool container = node->isObject() || node->isArray();
        if (!container || node->size() == 0 || rng() % 4 == 0) break;
        const std::size_t i = rng() % node->size();
        node = node->isObject() ? &node->mutableObject()[i].second : &node->mutableArray()[i];
    }
    switch (rng() % 6) {
    case 0: *node = randomValue(rng); break;
    case 1: // drop a member or element
        if (node->isObject() && node->size()) node->mutableObject().erase(node->mutableObject().begin() + static_cast<long>(rng() % node->size()));
        else if (node->isArray() && node->size()) node->mutableArray().erase(node->mutableArray().begin() + static_cast<long>(rng() % node->size()));
        else *node = randomValue(rng);
        break;
    case 2: // duplicate an element (e.g. a unit)
        if (node->isArray() && node->size()) node->push(node->asArray()[rng() % node->size()]);
        else *node = randomValue(rng);
        break;
    case 3: // add an unknown or a known key
        if (node->isObject()) {
            static const char* keys[] = {"module", "reshard_after_forward", "offload", "ignored_params", "forward_prefetch",
                                         "world_size", "replicate", "n_layers", "tied_to", "shape", "dtype", "zzz"};
            node->set(keys[rng() % std::size(keys)], randomValue(rng));
        } else {
            *node = randomValue(rng);
        }
        break;
    case 4: // nudge a number
        if (node->isInteger() && node->asInt() > -(1ll << 62) && node->asInt() < (1ll << 62)) *node = json::Value(node->asInt() + static_cast<long long>(rng() % 5) - 2);
        else *node = randomValue(rng);
        break;
    default: // swap type: the same content as a string
        *node = json::Value(node->dump());
        break;
    }
}

json::Value* member(json::Value& v, const char* key)
{
    if (!v.isObject()) return nullptr;
    for (auto& [k, value] : v.mutableObject())
        if (k == key) return &value;
    return nullptr;
}

template <typename T, std::size_t N>
const T& pickOne(Rng& rng, const T (&items)[N])
{
    return items[rng() % N];
}

// Plausible edits a user makes, so that many mutants stay valid and reach the estimator.
void edit(json::Value& doc, Rng& rng)
{
    json::Value* units = member(doc, "units");
    json::Value* mesh = member(doc, "mesh");
    json::Value* training = member(doc, "training");
    switch (rng() % 4) {
    case 0:
    case 1: {
        if (!units || !units->isArray() || units->size() == 0) return;
        json::Value& u = units->mutableArray()[rng() % units->size()];
        std::vector<json::Value> names;
        for (const json::Value& other : units->asArray())
            if (const json::Value* m = other.find("module")) names.push_back(*m);
        static const json::Value reshard[] = {true, false, "default", 1, 2, 3, 4, 8};
        static const json::Value dtypes[] = {json::Value(), "bf16", "fp32", "fp16", "fp64"};
        static const json::Value modules[] = {"", "layers.0", "layers.3", "layers.3.attention", "norm", "tok_embeddings",
                                              "transformer.h.2", "transformer.wte", "lm_head", "output"};
        switch (rng() % 8) {
        case 0: u.set("reshard_after_forward", pickOne(rng, reshard)); break;
        case 1: u.set("offload", static_cast<bool>(rng() % 2)); break;
        case 2: u.set("activation_checkpointing", rng() % 2 ? "full" : "none"); break;
        case 3: {
            json::Value mp = json::Value::object();
            mp.set("param_dtype", pickOne(rng, dtypes));
            mp.set("reduce_dtype", rng() % 2 ? json::Value("fp32") : pickOne(rng, dtypes));
            u.set("mixed_precision", mp);
            break;
        }
        case 4:
        case 5: {
            json::Value list = json::Value::array();
            for (std::size_t k = rng() % 3; k > 0 && !names.empty(); --k) list.push(names[rng() % names.size()]);
            u.set(rng() % 2 ? "forward_prefetch" : "backward_prefetch", list);
            break;
        }
        case 6: u.set("module", pickOne(rng, modules)); break;
        default: units->mutableArray().erase(units->mutableArray().begin() + static_cast<long>(rng() % units->size())); break;
        }
        break;
    }
    case 2:
        if (!mesh || !mesh->isObject()) return;
        switch (rng() % 4) {
        case 0: mesh->set("nodes", static_cast<int>(1 + rng() % 4)); break;
        case 1: mesh->set("procs_per_node", static_cast<int>(1 + rng() % 8)); break;
        case 2: mesh->set("replicate", static_cast<int>(1 + rng() % 4)); break;
        default: mesh->set("device", rng() % 2 ? "cpu" : "cuda"); break;
        }
        break;
    default:
        if (!training || !training->isObject()) return;
        switch (rng() % 3) {
        case 0: training->set("micro_batch", static_cast<int>(1 + rng() % 8)); break;
        case 1: training->set("seq_len", static_cast<int>(1 + rng() % 64)); break;
        default: training->set("grad_accum", static_cast<int>(1 + rng() % 4)); break;
        }
        break;
    }
}

QStringList basePlans()
{
    const QString g = sbtest::dataPath(QStringLiteral("estimate/golden/"));
    return {g + QStringLiteral("tutorial-2ranks.plan.json"), g + QStringLiteral("mixed-features.plan.json"),
            g + QStringLiteral("imported-small.plan.json"), g + QStringLiteral("gpt2-124m-8gpu.plan.json"),
            sbtest::dataPath(QStringLiteral("valid_plans/scalar_ignored.json"))};
}

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyTruncation()
    {
        Counts c;
        for (const QString& path : basePlans()) {
            const std::string text = sbtest::readText(path);
            for (std::size_t n = 0; n < text.size(); n += 3) {
                const std::string err = exercise(text.substr(0, n), c);
                QVERIFY2(err.empty(), qPrintable(QStringLiteral("%1 cut at %2: %3").arg(path).arg(n).arg(q(err))));
            }
            QVERIFY(exercise(text, c).empty());
        }
        qInfo("%d truncations, %d valid", c.cases, c.valid);
    }

    void garbledBytes()
    {
        Rng rng(20240611);
        Counts c;
        const QStringList plans = basePlans();
        for (int i = 0; i < 1500; ++i) {
            std::string text = sbtest::readText(plans[static_cast<int>(rng() % static_cast<unsigned>(plans.size()))]);
            for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
                const std::size_t at = rng() % text.size();
                switch (rng() % 3) {
                case 0: text[at] = static_cast<char>(rng() % 256); break;
                case 1: text.erase(at, 1 + rng() % 8); break;
                default: text.insert(at, 1, "{}[]\",:0-e.\\ \x01\xc3"[rng() % 16]); break;
                }
                if (text.empty()) text = "{";
            }
            const std::string err = exercise(text, c);
            QVERIFY2(err.empty(), qPrintable(QStringLiteral("case %1: %2").arg(i).arg(q(err))));
        }
        qInfo("%d garbled inputs, %d still valid", c.cases, c.valid);
    }

    void deepNesting()
    {
        Counts c;
        const std::string deepArrays(200000, '[');
        std::string deepObjects;
        for (int i = 0; i < 50000; ++i) deepObjects += "{\"model\":";
        std::string closedDeep = std::string(250, '[') + std::string(250, ']');
        const std::string inPlan = R"({"format": "shardbench-plan", "version": 1, "model": )" + closedDeep +
                                   R"(, "units": [)" + closedDeep + R"(], "mesh": {"nodes": )" + closedDeep + "}}";
        for (const std::string& text : {deepArrays, deepObjects, closedDeep, inPlan}) {
            const std::string err = exercise(text, c);
            QVERIFY2(err.empty(), err.c_str());
        }
        const LoadedPlan lp = validateLoaded(planFromString(inPlan));
        QVERIFY(!lp.ok());
        QVERIFY(sbtest::problemsText(lp.problems).contains(QStringLiteral("$.model: must be a JSON object")));
    }

    void randomBytes()
    {
        Rng rng(7);
        Counts c;
        for (int i = 0; i < 500; ++i) {
            std::string text(rng() % 200, '\0');
            for (char& ch : text) ch = static_cast<char>(rng() % 256);
            QVERIFY(exercise(text, c).empty());
        }
    }

    void structuredMutations()
    {
        Rng rng(0x5b5b5b);
        Counts c;
        std::vector<json::Value> bases;
        for (const QString& path : basePlans()) {
            const json::ParseResult r = json::parse(sbtest::readText(path));
            QVERIFY(r);
            bases.push_back(*r.value);
        }
        for (int i = 0; i < 4000; ++i) {
            json::Value doc = bases[rng() % bases.size()];
            for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) (rng() % 3 ? edit(doc, rng) : mutate(doc, rng));
            const std::string text = doc.dump(rng() % 2 ? 2 : -1);
            const std::string err = exercise(text, c);
            if (!err.empty()) {
                qWarning("failing input:\n%s", text.c_str());
                QFAIL(qPrintable(QStringLiteral("mutation %1: %2").arg(i).arg(q(err))));
            }
        }
        qInfo("%d mutated plans, %d still valid", c.cases, c.valid);
        QVERIFY(c.valid > c.cases / 4); // the mutations also reach the estimator, not just the reader
    }
};

QTEST_APPLESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
