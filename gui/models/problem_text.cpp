#include "problem_text.hpp"

#include <QCoreApplication>
#include <QRegularExpression>

#include <vector>

namespace sb::gui {

namespace {

struct ProblemText {
    Q_DECLARE_TR_FUNCTIONS(sb::gui::ProblemText)
};

constexpr const char* kContext = "sb::gui::ProblemText";

struct Entry {
    const char* code;
    const char* pattern; // matches the core's sentence; groups are the %N values
    const char* text;    // source template, marked for translation
};

// Keep in step with the messages in core/plan; tests/gui checks that each
// template rebuilds the core's sentence word for word.
const Entry kEntries[] = {
    {"mesh.nodes", R"re(nodes must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "nodes must be at least 1")},
    {"mesh.procs", R"re(procs_per_node must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "procs_per_node must be at least 1")},
    {"mesh.replicate", R"re(replicate must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "replicate must be at least 1")},
    {"mesh.replicate", R"re(replicate degree (\d+) does not divide world size (\d+))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "replicate degree %1 does not divide world size %2")},
    {"mesh.world_size", R"re(world size (\d+) is above the (\d+) ranks shardbench models)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "world size %1 is above the %2 ranks shardbench models")},
    {"mesh.memory", R"re(device memory must be greater than 0)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "device memory must be greater than 0")},
    {"train.batch", R"re(micro_batch must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "micro_batch must be at least 1")},
    {"train.seq", R"re(seq_len must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "seq_len must be at least 1")},
    {"train.accum", R"re(grad_accum must be at least 1)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "grad_accum must be at least 1")},
    {"train.steps", R"re(steps must not be negative)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "steps must not be negative")},
    {"train.seq_too_long", R"re(seq_len (\d+) exceeds the model's position table \(max_seq_len (\d+)\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "seq_len %1 exceeds the model's position table (max_seq_len %2)")},
    {"train.clip", R"re(grad_clip must be 0 \(off\) or positive)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "grad_clip must be 0 (off) or positive")},
    {"train.lr", R"re(lr must be greater than 0 and below 10)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "lr must be greater than 0 and below 10")},
    {"train.betas", R"re(betas must lie in \[0, 1\))re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "betas must lie in [0, 1)")},
    {"train.eps", R"re(eps must be positive)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "eps must be positive")},
    {"train.wd", R"re(weight_decay must not be negative)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "weight_decay must not be negative")},
    {"train.schedule", R"re(schedule must be "constant" or "cosine", got "(.*)")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "schedule must be \"constant\" or \"cosine\", got \"%1\"")},
    {"train.min_lr", R"re(min_lr_ratio must lie in \[0, 1\])re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "min_lr_ratio must lie in [0, 1]")},
    {"train.data_path", R"re(a tokens or text data source needs a "path")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "a tokens or text data source needs a \"path\"")},
    {"train.ckpt_dir", R"re(a checkpoint interval needs a checkpoint "dir")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "a checkpoint interval needs a checkpoint \"dir\"")},
    {"plan.version", R"re(unsupported plan version (-?\d+))re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unsupported plan version %1")},
    {"plan.version", R"re(missing integer "version")re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "missing integer \"version\"")},
    {"plan.version", R"re(plan format version (-?\d+) is not supported \(this build reads version (\d+)\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "plan format version %1 is not supported (this build reads version %2)")},
    {"plan.format", R"re(not a shardbench plan: "format" must be "shardbench-plan")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "not a shardbench plan: \"format\" must be \"shardbench-plan\"")},
    {"plan.syntax", R"re(invalid JSON at (.*))re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "invalid JSON at %1")},
    {"plan.unknown_field", R"re(unknown field "(.*)" is ignored)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unknown field \"%1\" is ignored")},
    {"plan.empty_model", R"re(the model has no parameters)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "the model has no parameters")},
    {"plan.scalar_param",
     R"re(parameter "(.*)" is a scalar; fully_shard cannot shard 0-dim parameters \(make it 1-D or list it in ignored_params\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText",
                       "parameter \"%1\" is a scalar; fully_shard cannot shard 0-dim parameters (make it 1-D or list it in ignored_params)")},
    {"plan.reshard_k", R"re(reshard_after_forward (-?\d+) does not divide the shard group of (\d+) ranks)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "reshard_after_forward %1 does not divide the shard group of %2 ranks")},
    {"plan.fp16_cpu", R"re(fp16 compute is not available on cpu; use bf16)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "fp16 compute is not available on cpu; use bf16")},
    {"plan.offload_cpu", R"re(CPU offload has no effect when the device is already the CPU)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "CPU offload has no effect when the device is already the CPU")},
    {"plan.bf16_reduce_gloo", R"re(Gloo \(cpu\) cannot reduce gradients in bf16; set reduce_dtype to fp32)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "Gloo (cpu) cannot reduce gradients in bf16; set reduce_dtype to fp32")},
    {"plan.empty_unit", R"re(unit "(.*)" owns no parameters \(its children are all units\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unit \"%1\" owns no parameters (its children are all units)")},
    {"plan.unknown_module", R"re(unknown module "(.*)": the model has no module of that name)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unknown module \"%1\": the model has no module of that name")},
    {"plan.duplicate_unit", R"re(the root is listed as a unit more than once)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "the root is listed as a unit more than once")},
    {"plan.duplicate_unit", R"re("(.*)" is listed as a unit more than once)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "\"%1\" is listed as a unit more than once")},
    {"plan.unknown_param", R"re(unknown parameter "(.*)")re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unknown parameter \"%1\"")},
    {"plan.tied_split",
     R"re(parameter "(.*)" is tied to "(.*)" but they fall into different units \((the root|".*") and (the root|".*")\); make both modules part of one unit)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText",
                       "parameter \"%1\" is tied to \"%2\" but they fall into different units (%3 and %4); make both modules part of one unit")},
    {"plan.prefetch_unknown", R"re(prefetch target "(.*)" is not a shard unit)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "prefetch target \"%1\" is not a shard unit")},
    {"plan.prefetch_self", R"re(a unit cannot prefetch itself)re", QT_TRANSLATE_NOOP("sb::gui::ProblemText", "a unit cannot prefetch itself")},
    {"model.size", R"re((\w+) must be between 1 and (\d+), got (-?\d+))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "%1 must be between 1 and %2, got %3")},
    {"model.heads", R"re(dim (\d+) is not divisible by n_heads (\d+))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "dim %1 is not divisible by n_heads %2")},
    {"model.kv_heads", R"re(n_heads (\d+) is not a multiple of n_kv_heads (\d+))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "n_heads %1 is not a multiple of n_kv_heads %2")},
    {"model.kv_heads", R"re(grouped-query attention \(n_kv_heads != n_heads\) needs the llama architecture)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "grouped-query attention (n_kv_heads != n_heads) needs the llama architecture")},
    {"model.rope", R"re(RoPE needs an even head dimension, got (\d+))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "RoPE needs an even head dimension, got %1")},
    {"tree.format", R"re(not a shardbench module tree \(format must be "shardbench-module-tree"\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "not a shardbench module tree (format must be \"shardbench-module-tree\")")},
    {"tree.version", R"re(unsupported module-tree version \(this build reads version 1\))re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "unsupported module-tree version (this build reads version 1)")},
    {"tree.modules", R"re("modules" must be a non-empty array, root first)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "\"modules\" must be a non-empty array, root first")},
    {"tree.duplicate", R"re(module "(.*)" is empty or listed twice)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "module \"%1\" is empty or listed twice")},
    {"tree.orphan", R"re(module "(.*)" appears before its parent "(.*)")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "module \"%1\" appears before its parent \"%2\"")},
    {"tree.shape", R"re("shape" must be an array of non-negative integers)re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "\"shape\" must be an array of non-negative integers")},
    {"tree.tie", R"re(tied_to names unknown parameter "(.*)")re",
     QT_TRANSLATE_NOOP("sb::gui::ProblemText", "tied_to names unknown parameter \"%1\"")},
};

struct Compiled {
    const Entry* entry;
    QRegularExpression re;
};

const std::vector<Compiled>& compiled()
{
    static const std::vector<Compiled> all = [] {
        std::vector<Compiled> out;
        for (const Entry& e : kEntries)
            out.push_back({&e, QRegularExpression(QRegularExpression::anchoredPattern(QString::fromUtf8(e.pattern)))});
        return out;
    }();
    return all;
}

} // namespace

QString fillTemplate(const QString& text, const QStringList& args)
{
    QString out;
    out.reserve(text.size() + 32);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'%' && i + 1 < text.size() && text.at(i + 1) >= u'1' && text.at(i + 1) <= u'9') {
            const int n = text.at(i + 1).digitValue();
            if (n <= args.size()) {
                out += args.at(n - 1);
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

bool problemTemplate(const Problem& p, QString* sourceTemplate, QStringList* args)
{
    const QString code = QString::fromStdString(p.code);
    const QString message = QString::fromStdString(p.message);
    for (const Compiled& c : compiled()) {
        if (code != QLatin1String(c.entry->code)) continue;
        const QRegularExpressionMatch m = c.re.match(message);
        if (!m.hasMatch()) continue;
        if (sourceTemplate) *sourceTemplate = QString::fromUtf8(c.entry->text);
        if (args) {
            args->clear();
            for (int i = 1; i <= m.lastCapturedIndex(); ++i) *args << m.captured(i);
        }
        return true;
    }
    return false;
}

QString problemText(const Problem& p)
{
    QString source;
    QStringList args;
    const QString english = QString::fromStdString(p.message);
    if (!problemTemplate(p, &source, &args)) return english;
    const QString translated = QCoreApplication::translate(kContext, source.toUtf8().constData());
    if (translated == source) return english; // no translation loaded: the CLI's sentence
    for (QString& a : args)
        if (a == u"the root") a = ProblemText::tr("the root");
    return fillTemplate(translated, args);
}

QString severityText(Severity s)
{
    return s == Severity::Error ? ProblemText::tr("Error") : ProblemText::tr("Warning");
}

} // namespace sb::gui
