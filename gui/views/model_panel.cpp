#include "model_panel.hpp"

#include "number_field.hpp"
#include "plan_fields.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "text/format.hpp"
#include "text/labels.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

namespace sb::gui {

namespace {

// The plan reader's ranges: a size the file may hold, the field accepts.
constexpr double kBig = 1099511627776.0; // 2^40
constexpr double kMaxima[ModelPanel::SizeCount] = {kBig, kBig, 100000, kBig, kBig, kBig, kBig};
constexpr const char* kFields[ModelPanel::SizeCount] = {"vocab_size", "dim", "n_layers", "n_heads", "n_kv_heads", "ffn_hidden", "max_seq_len"};
const QString kImported = QStringLiteral("imported");

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
    : QWidget(parent), document_(document), notes_(new FieldNotes), fields_(new PlanFields(document, notes_, this)),
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

void ModelPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ModelPanel::retranslateUi()
{
    presetLabel_->setText(tr("Model"));
    const char* names[SizeCount] = {QT_TR_NOOP("Vocabulary"), QT_TR_NOOP("Width (dim)"), QT_TR_NOOP("Layers"),
                                    QT_TR_NOOP("Attention heads"), QT_TR_NOOP("KV heads"), QT_TR_NOOP("MLP hidden"),
                                    QT_TR_NOOP("Max. sequence")};
    for (int s = 0; s < SizeCount; ++s) sizeLabels_[static_cast<std::size_t>(s)]->setText(tr(names[s]));
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

bool ModelPanel::focusField(const QString& field)
{
    for (int s = 0; s < SizeCount; ++s)
        if (field == QLatin1String(kFields[s])) {
            sizes_[static_cast<std::size_t>(s)]->setFocus(Qt::OtherFocusReason);
            sizes_[static_cast<std::size_t>(s)]->selectAll();
            return true;
        }
    if (field == u"dtype") dtype_->setFocus(Qt::OtherFocusReason);
    else preset_->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace sb::gui
