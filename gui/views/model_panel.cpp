#include "model_panel.hpp"

#include "number_field.hpp"
#include "plan_fields.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "plan/plan_limits.hpp"
#include "text/format.hpp"
#include "text/labels.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

#include <iterator>

namespace sb::gui {

namespace {

// The plan reader's ranges: a size the file may hold, the field accepts.
// What a plan can hold: a size above what validation allows is kept as typed
// and reported as a problem of the plan, with its bound.
using namespace plan_limits;
constexpr double kBig = double(kMaxModelSize);
constexpr double kMaxima[ModelPanel::SizeCount] = {kBig, kBig, kMaxLayers, kBig, kBig, kBig, kBig};
constexpr const char* kFields[ModelPanel::SizeCount] = {"vocab_size", "dim", "n_layers", "n_heads", "n_kv_heads", "ffn_hidden", "max_seq_len"};
const QString kImported = QStringLiteral("imported");

// The Llama form's own fields (Llama, Mistral, Qwen): shown for those models.
struct FormSpec {
    const char* key;     // under "model"
    const char* caption; // translated in ModelPanel's context
    NumberField::Kind kind;
    double min, max;
    double (*get)(const ModelConfig&);
    void (*set)(ModelConfig&, double);
};
#define SB_MODEL_FIELD(field) [](const ModelConfig& m) { return static_cast<double>(m.field); }, [](ModelConfig& m, double v) { m.field = static_cast<decltype(m.field)>(v); }
const FormSpec kForm[] = {
    {"head_dim", QT_TRANSLATE_NOOP("sb::gui::ModelPanel", "Head width"), NumberField::Integer, 0, kBig, SB_MODEL_FIELD(explicitHeadDim)},
    {"rope_theta", QT_TRANSLATE_NOOP("sb::gui::ModelPanel", "RoPE theta"), NumberField::Real, 1, 1e12, SB_MODEL_FIELD(ropeTheta)},
    {"norm_eps", QT_TRANSLATE_NOOP("sb::gui::ModelPanel", "Norm epsilon"), NumberField::Real, 0, 1, SB_MODEL_FIELD(normEps)},
    {"sliding_window", QT_TRANSLATE_NOOP("sb::gui::ModelPanel", "Sliding window"), NumberField::Integer, 0, double(kMaxSlidingWindow), SB_MODEL_FIELD(slidingWindow)},
};
#undef SB_MODEL_FIELD

std::int64_t& sizeOf(ModelConfig& m, int s)
{
    switch (s) {
    case ModelPanel::Vocab: return m.vocabSize;
    case ModelPanel::Dim: return m.dim;
    case ModelPanel::Layers: return m.nLayers;
    case ModelPanel::Heads: return m.nHeads;
    case ModelPanel::KvHeads: return m.nKvHeads;
    case ModelPanel::Ffn: return m.ffnHidden;
    default: return m.maxSeqLen;
    }
}

} // namespace

ModelPanel::ModelPanel(PlanDocument* document, QWidget* parent)
    : Retranslated<QWidget>(parent), document_(document), notes_(new FieldNotes), fields_(new PlanFields(document, notes_, this)),
      preset_(new QComboBox), tied_(new QCheckBox), dtype_(new QComboBox),
      presetLabel_(new QLabel), dtypeLabel_(new QLabel), info_(new QLabel), import_(new QPushButton)
{
    setObjectName(QStringLiteral("modelPanel"));
    preset_->setObjectName(QStringLiteral("presetBox"));
    // Long preset descriptions must not widen the dock; the popup shows them in full.
    preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset_->setMinimumContentsLength(14);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(notes_);
    form->addRow(presetLabel_, preset_);
    for (int s = 0; s < SizeCount; ++s) {
        auto* box = new NumberField(kFields[s], NumberField::Integer, 1, kMaxima[s]);
        sizes_[static_cast<std::size_t>(s)] = box;
        auto* caption = new QLabel;
        sizeLabels_[static_cast<std::size_t>(s)] = caption;
        form->addRow(caption, box);
        fields_->bind(box, caption, JsonPath().key("model").key(kFields[s]),
                      [s](const Plan& p) {
                          ModelConfig copy = p.model;
                          return static_cast<double>(sizeOf(copy, s));
                      },
                      [this, s](double v, const JsonPath& path) { sizeEdited(s, v, path); });
    }
    for (std::size_t i = 0; i < std::size(kForm); ++i) {
        const FormSpec& f = kForm[i];
        auto* box = new NumberField(f.key, f.kind, f.min, f.max);
        auto* caption = new QLabel;
        form_[i] = box;
        formLabels_[i] = caption;
        form->addRow(caption, box);
        fields_->bind(box, caption, JsonPath().key("model").key(f.key), [get = f.get](const Plan& p) { return get(p.model); },
                      [this, i](double v, const JsonPath& path) {
                          ModelConfig m = document_->plan().model;
                          kForm[i].set(m, v);
                          if (!editModel(*document_, m, false, MergeModelSize + SizeCount + static_cast<int>(i), {path})) refresh();
                      });
    }
    for (const char* t : {"fp32", "bf16", "fp16", "fp64"}) dtype_->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
    form->addRow(dtypeLabel_, dtype_);
    form->addRow(QString(), tied_);
    info_->setWordWrap(true);
    form->addRow(info_);
    form->addRow(import_);

    connect(preset_, &QComboBox::activated, this, &ModelPanel::presetChosen);
    connect(tied_, &QCheckBox::toggled, this, &ModelPanel::otherEdited);
    connect(dtype_, &QComboBox::activated, this, &ModelPanel::otherEdited);
    connect(import_, &QPushButton::clicked, this, &ModelPanel::importRequested);
    connect(document_, &PlanDocument::modelReset, this, &ModelPanel::refresh);
    connect(document_, &PlanDocument::problemsChanged, this, [this] {
        fields_->refresh();
        markOthers();
    });
    retranslateUi();
}

void ModelPanel::retranslateUi()
{
    presetLabel_->setText(tr("Model"));
    const char* names[SizeCount] = {QT_TR_NOOP("Vocabulary"), QT_TR_NOOP("Width (dim)"), QT_TR_NOOP("Layers"),
                                    QT_TR_NOOP("Attention heads"), QT_TR_NOOP("KV heads"), QT_TR_NOOP("MLP hidden"),
                                    QT_TR_NOOP("Max. sequence")};
    for (int s = 0; s < SizeCount; ++s) sizeLabels_[static_cast<std::size_t>(s)]->setText(tr(names[s]));
    for (std::size_t i = 0; i < std::size(kForm); ++i) formLabels_[i]->setText(tr(kForm[i].caption));
    form_[0]->setSpecialValue(0, tr("width / heads"));
    form_[0]->setToolTip(tr("Each attention head's width where it is not the width divided by the heads (Qwen3: 128)"));
    form_[2]->setToolTip(tr("The RMSNorms' epsilon (Hugging Face's rms_norm_eps; Llama 1e-5, Qwen 1e-6)"));
    form_[3]->setSpecialValue(0, tr("none"));
    form_[3]->setToolTip(tr("The source model's attention window (Mistral v0.1: 4096); the sequence length must not exceed it"));
    dtypeLabel_->setText(tr("Parameter dtype"));
    tied_->setText(tr("Tied embeddings"));
    tied_->setToolTip(tr("The output projection shares the token embedding's weight"));
    import_->setText(tr("Import module tree…"));
    import_->setToolTip(tr("Read a module tree written by scripts/export_module_tree.py"));
    refresh();
}

void ModelPanel::refresh()
{
    const ModelConfig& m = document_->plan().model;
    const bool imported = m.arch == Arch::Imported;
    {
        const QSignalBlocker block(preset_);
        preset_->clear();
        for (const PresetInfo& p : modelPresets())
            preset_->addItem(presetDescription(p.name), QString::fromStdString(p.name));
        preset_->addItem(imported ? tr("Imported: %1").arg(QString::fromStdString(m.importedFrom)) : tr("Import a module tree…"),
                         kImported);
        preset_->setCurrentIndex(imported ? preset_->count() - 1 : std::max(0, preset_->findData(QString::fromStdString(m.preset))));
    }
    fields_->refresh();
    for (int s = 0; s < SizeCount; ++s)
        sizes_[static_cast<std::size_t>(s)]->setEnabled(!imported && (s != KvHeads || llamaForm(m.arch)));
    for (std::size_t i = 0; i < std::size(kForm); ++i) {
        form_[i]->setVisible(llamaForm(m.arch));
        formLabels_[i]->setVisible(llamaForm(m.arch));
    }
    {
        const QSignalBlocker b1(tied_), b2(dtype_);
        tied_->setChecked(m.tiedEmbeddings);
        tied_->setEnabled(!imported);
        dtype_->setCurrentIndex(dtype_->findData(QString::fromLatin1(dtypeName(m.dtype))));
        dtype_->setEnabled(!imported);
    }
    markOthers();
    const ModuleTree& tree = document_->tree();
    info_->setText(tr("%1 parameters in %n module(s)", nullptr, static_cast<int>(tree.modules().size()))
                       .arg(formatCount(tree.totalParams())));
}

void ModelPanel::markOthers()
{
    const JsonPath model = JsonPath().key("model");
    const std::pair<QWidget*, const char*> others[] = {
        {preset_, "preset"}, {dtype_, "dtype"}, {tied_, "tied_embeddings"}};
    for (const auto& [widget, key] : others) {
        const JsonPath path = model.key(key);
        markInvalid(widget, problemsAt(*document_, path));
    }
}

void ModelPanel::presetChosen(int index)
{
    const QString name = preset_->itemData(index).toString();
    if (name == kImported) {
        if (document_->plan().model.arch != Arch::Imported) {
            refresh();
            Q_EMIT importRequested();
        }
        return;
    }
    if (auto config = presetConfig(name.toStdString()); config && name.toStdString() != document_->plan().model.preset)
        editModel(*document_, *config, true);
    else refresh();
}

void ModelPanel::sizeEdited(int size, double value, const JsonPath& path)
{
    ModelConfig m = document_->plan().model;
    sizeOf(m, size) = static_cast<std::int64_t>(value);
    if (!llamaForm(m.arch)) m.nKvHeads = m.nHeads; // grouped-query attention is in Llama and its form
    if (!editModel(*document_, m, false, MergeModelSize + size, {path})) refresh();
}

void ModelPanel::otherEdited()
{
    ModelConfig m = document_->plan().model;
    m.tiedEmbeddings = tied_->isChecked();
    if (auto t = parseDType(dtype_->currentData().toString().toStdString())) m.dtype = *t;
    if (!editModel(*document_, m, false)) refresh();
}

NumberField* ModelPanel::formField(const QString& key) const
{
    for (std::size_t i = 0; i < std::size(kForm); ++i)
        if (key == QLatin1String(kForm[i].key)) return form_[i];
    return nullptr;
}

bool ModelPanel::focusField(const QString& field)
{
    for (int s = 0; s < SizeCount; ++s)
        if (field == QLatin1String(kFields[s])) {
            sizes_[static_cast<std::size_t>(s)]->setFocus(Qt::OtherFocusReason);
            sizes_[static_cast<std::size_t>(s)]->selectAll();
            return true;
        }
    for (std::size_t i = 0; i < std::size(kForm); ++i)
        if (field == QLatin1String(kForm[i].key) && form_[i]->isVisible()) {
            form_[i]->setFocus(Qt::OtherFocusReason);
            form_[i]->selectAll();
            return true;
        }
    if (field == u"dtype") dtype_->setFocus(Qt::OtherFocusReason);
    else preset_->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace sb::gui
