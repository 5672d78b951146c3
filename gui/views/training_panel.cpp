#include "training_panel.hpp"

#include "named_widget.hpp"

#include "data/token_file.hpp"
#include "plan/plan_limits.hpp"

#include "number_field.hpp"
#include "plan_fields.hpp"

#include "document/change_plan.hpp"
#include "document/plan_edits.hpp"
#include "text/format.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>

#include <cmath>

namespace sb::gui {

namespace {

enum Section { Batch, Optimizer, Data, Validation, Checkpoints, SectionCount };

// One number of the training settings: where it is in the plan, its range,
// and how it is read from and written to the plan.
struct NumberSpec {
    const char* keys;    // after "training": "optimizer.lr"
    const char* caption; // translated in TrainingPanel's context
    Section section;
    NumberField::Kind kind;
    double min, max;
    double (*get)(const TrainingConfig&);
    void (*set)(TrainingConfig&, double);
};

constexpr double kSteps = plan_limits::kMaxSteps;
// A validation file, a held-out fraction or a period given while the
// validation loss is off turns it on with the default batches, as an "eval"
// object in a plan file and `plan --val-data-path` do: the plan writes
// "eval" only when it is on, so what was typed would be dropped.
void turnOnValidationIfAsked(TrainingConfig& t, const JsonPath& edited)
{
    if (edited.keyAt(1) != "eval" || edited.keyAt(2) == "batches" || t.eval.enabled()) return;
    if (!t.eval.path.empty() || t.eval.holdout > 0 || t.eval.every > 0) t.eval.batches = plan_limits::kDefaultEvalBatches;
}

#define SB_FIELD(field) [](const TrainingConfig& t) { return static_cast<double>(t.field); }, [](TrainingConfig& t, double v) { t.field = static_cast<decltype(t.field)>(v); }
const NumberSpec kNumbers[] = {
    {"micro_batch", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Micro-batch"), Batch, NumberField::Integer, 1, plan_limits::kMaxMicroBatch, SB_FIELD(microBatch)},
    {"seq_len", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Sequence length"), Batch, NumberField::Integer, 1, plan_limits::kMaxSeqLen, SB_FIELD(seqLen)},
    {"grad_accum", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Accumulation steps"), Batch, NumberField::Integer, 1, plan_limits::kMaxGradAccum, SB_FIELD(gradAccum)},
    {"steps", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Steps"), Batch, NumberField::Integer, 0, kSteps, SB_FIELD(steps)},
    {"optimizer.lr", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Learning rate"), Optimizer, NumberField::Real, 0, 10, SB_FIELD(optimizer.lr)},
    {"optimizer.betas", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Beta 1"), Optimizer, NumberField::Real, 0, 1, SB_FIELD(optimizer.beta1)},
    {"optimizer.betas", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Beta 2"), Optimizer, NumberField::Real, 0, 1, SB_FIELD(optimizer.beta2)},
    {"optimizer.eps", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Epsilon"), Optimizer, NumberField::Real, 0, 1, SB_FIELD(optimizer.eps)},
    {"optimizer.weight_decay", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Weight decay"), Optimizer, NumberField::Real, 0, 1e3, SB_FIELD(optimizer.weightDecay)},
    {"optimizer.warmup_steps", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Warmup steps"), Optimizer, NumberField::Integer, 0, kSteps, SB_FIELD(optimizer.warmupSteps)},
    {"optimizer.min_lr_ratio", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Min. LR ratio"), Optimizer, NumberField::Real, 0, 1, SB_FIELD(optimizer.minLrRatio)},
    {"grad_clip", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Gradient clipping"), Optimizer, NumberField::Real, 0, 1e9, SB_FIELD(gradClip)},
    {"seed", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Seed"), Optimizer, NumberField::Integer, 0, double(plan_limits::kMaxSeed), SB_FIELD(seed)},
    {"eval.batches", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Validation batches"), Validation, NumberField::Integer, 0, EvalConfig::kMaxBatches, SB_FIELD(eval.batches)},
    {"eval.every", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Evaluate every"), Validation, NumberField::Integer, 0, kSteps, SB_FIELD(eval.every)},
    {"eval.holdout", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Held-out fraction"), Validation, NumberField::Real, 0, 0.5, SB_FIELD(eval.holdout)},
    {"checkpoint.interval", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Checkpoint every"), Checkpoints, NumberField::Integer, 0, kSteps, SB_FIELD(checkpoint.interval)},
    {"checkpoint.keep", QT_TRANSLATE_NOOP("sb::gui::TrainingPanel", "Checkpoints kept"), Checkpoints, NumberField::Integer, 1, plan_limits::kMaxCheckpointsKept, SB_FIELD(checkpoint.keep)},
};
#undef SB_FIELD
constexpr int kNumberCount = static_cast<int>(sizeof kNumbers / sizeof kNumbers[0]);

JsonPath trainingPath(const QString& keys)
{
    JsonPath path = JsonPath().key("training");
    for (const QString& k : keys.split(u'.')) path = path.key(k.toStdString());
    return path;
}

const char* const kSchedules[] = {"constant", "cosine"};
const char* const kDataKinds[] = {"synthetic", "tokens", "text"};
const char* const kTokenDtypes[] = {"auto", "uint16", "uint32"}; // DataConfig::TokenDtype's order

// Shows `value` in a combo of fixed choices; a value outside them (kept from
// the file, or one the plan holds) is added, marked invalid, never replaced.
void showChoice(QComboBox* box, const QString& value, const QString& reason)
{
    const QSignalBlocker block(box);
    while (box->count() > box->property("choices").toInt()) box->removeItem(box->count() - 1);
    int i = box->findData(value);
    if (i < 0) {
        box->addItem(value, value);
        i = box->count() - 1;
    }
    box->setCurrentIndex(i);
    markInvalid(box, reason);
}

void showText(QLineEdit* edit, const PlanDocument& doc, const JsonPath& path, const std::string& value)
{
    const KeptValue* kept = doc.keptAt(path);
    const QString text = kept ? QString::fromStdString(kept->raw.dump()) : QString::fromStdString(value);
    if (edit->text() != text) edit->setText(text);
    markInvalid(edit, problemsAt(doc, path));
}

} // namespace

TrainingPanel::TrainingPanel(PlanDocument* document, QWidget* parent)
    : Retranslated<QWidget>(parent), document_(document), notes_(new FieldNotes), fields_(new PlanFields(document, notes_, this)),
      schedule_(named<QComboBox>("schedule")), dataKind_(named<QComboBox>("data_kind")),
      dataPath_(named<QLineEdit>("data_path")), dataDtype_(named<QComboBox>("data_dtype")),
      browse_(named<QPushButton>("browseData")), dataInfo_(named<QLabel>("dataInfo")), evalPath_(named<QLineEdit>("eval_path")),
      checkpointDir_(named<QLineEdit>("checkpoint_dir")), async_(named<QCheckBox>("checkpoint_async")), info_(new QLabel),
      probe_(new FileProbe(this))
{
    setObjectName(QStringLiteral("trainingPanel"));
    build();
    // Once per applied change (problemsChanged follows every one, a training or mesh change included):
    // the values, their marks and the tokens per step.
    connect(document_, &PlanDocument::problemsChanged, this, &TrainingPanel::refresh);
    connect(document_, &PlanDocument::filePathChanged, this, &TrainingPanel::describeDataFile);
    connect(probe_, &FileProbe::probed, this, [this](const FileFacts& facts) { showDataFile(&facts); });
    retranslateUi();
}

void TrainingPanel::build()
{
    form_ = new QFormLayout(this);
    form_->setContentsMargins(0, 0, 0, 0);
    form_->addRow(notes_);
    auto section = [this] {
        auto* title = new QLabel;
        QFont bold = title->font();
        bold.setBold(true);
        title->setFont(bold);
        sections_.push_back(title);
        form_->addRow(title);
    };
    auto addNumbers = [this](Section s) {
        for (int i = 0; i < kNumberCount; ++i) {
            const NumberSpec& n = kNumbers[i];
            if (n.section != s) continue;
            auto* caption = new QLabel;
            captions_.push_back(caption);
            const char* name = i == 6 ? "beta2" : n.keys; // the two betas share their path
            auto* field = new NumberField(name, n.kind, n.min, n.max);
            fields_->bind(field, caption, trainingPath(QString::fromLatin1(n.keys)),
                          [get = n.get](const Plan& p) { return get(p.training); },
                          [this, i](double v, const JsonPath& path) {
                              TrainingConfig t = document_->plan().training;
                              kNumbers[i].set(t, v);
                              turnOnValidationIfAsked(t, path);
                              if (!editTraining(*document_, t, MergeTrainingField + i, {path})) refresh();
                          });
            form_->addRow(caption, field);
            const QLatin1String keys(n.keys);
            if (keys == QLatin1String("grad_accum")) form_->addRow(info_);
            if (keys == QLatin1String("optimizer.weight_decay")) form_->addRow(new QLabel, schedule_);
        }
    };
    for (const char* s : kSchedules) schedule_->addItem(QString(), QString::fromLatin1(s));
    schedule_->setProperty("choices", schedule_->count());
    section();
    addNumbers(Batch);
    section();
    addNumbers(Optimizer);
    section();
    for (const char* k : kDataKinds) dataKind_->addItem(QString(), QString::fromLatin1(k));
    dataKind_->setProperty("choices", dataKind_->count());
    form_->addRow(new QLabel, dataKind_);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(dataPath_, 1);
    pathRow->addWidget(browse_);
    form_->addRow(new QLabel, pathRow);
    for (const char* d : kTokenDtypes) dataDtype_->addItem(QString(), QString::fromLatin1(d));
    dataDtype_->setProperty("choices", dataDtype_->count());
    form_->addRow(new QLabel, dataDtype_);
    dataInfo_->setWordWrap(true);
    form_->addRow(dataInfo_);
    section();
    addNumbers(Validation);
    form_->addRow(new QLabel, evalPath_);
    section();
    form_->addRow(new QLabel, checkpointDir_);
    addNumbers(Checkpoints);
    form_->addRow(QString(), async_);
    info_->setWordWrap(true);

    const JsonPath training = JsonPath().key("training");
    connect(schedule_, &QComboBox::activated, this, [this, training] { otherEdited(training.key("optimizer").key("schedule")); });
    connect(dataKind_, &QComboBox::activated, this, [this, training] { otherEdited(training.key("data").key("kind")); });
    connect(dataDtype_, &QComboBox::activated, this, [this, training] { otherEdited(training.key("data").key("dtype")); });
    connect(dataPath_, &QLineEdit::editingFinished, this, [this, training] {
        if (dataPath_->isModified()) otherEdited(training.key("data").key("path"));
    });
    connect(evalPath_, &QLineEdit::editingFinished, this, [this, training] {
        if (evalPath_->isModified()) otherEdited(training.key("eval").key("path"));
    });
    connect(checkpointDir_, &QLineEdit::editingFinished, this, [this, training] {
        if (checkpointDir_->isModified()) otherEdited(training.key("checkpoint").key("dir"));
    });
    connect(async_, &QCheckBox::clicked, this, [this, training] { otherEdited(training.key("checkpoint").key("async")); });
    connect(browse_, &QPushButton::clicked, this, &TrainingPanel::chooseDataFile);
}

void TrainingPanel::retranslateUi()
{
    const char* titles[SectionCount] = {QT_TR_NOOP("Batch"), QT_TR_NOOP("Optimizer (AdamW)"), QT_TR_NOOP("Data"),
                                        QT_TR_NOOP("Validation loss"), QT_TR_NOOP("Checkpoints")};
    for (int s = 0; s < SectionCount; ++s) sections_[static_cast<std::size_t>(s)]->setText(tr(titles[s]));
    for (int i = 0; i < kNumberCount; ++i) captions_[static_cast<std::size_t>(i)]->setText(tr(kNumbers[i].caption));
    auto captionOf = [this](QWidget* field) { return qobject_cast<QLabel*>(form_->labelForField(field)); };
    captionOf(schedule_)->setText(tr("Schedule"));
    schedule_->setItemText(0, tr("constant"));
    schedule_->setItemText(1, tr("cosine to the min. LR"));
    captionOf(dataKind_)->setText(tr("Source"));
    dataKind_->setItemText(0, tr("synthetic tokens"));
    dataKind_->setItemText(1, tr("token file"));
    dataKind_->setItemText(2, tr("text file (bytes)"));
    browse_->setText(tr("Choose…"));
    captionOf(dataDtype_)->setText(tr("Token width"));
    dataDtype_->setItemText(0, tr("auto"));
    dataDtype_->setItemText(1, tr("uint16"));
    dataDtype_->setItemText(2, tr("uint32"));
    dataDtype_->setToolTip(tr("Of a headerless token file (nanoGPT's .bin); auto: uint16 when the vocabulary fits, else uint32. "
                              "llm.c's and Megatron's files say their own, and a different one here is refused"));
    dataPath_->setPlaceholderText(tr("no file"));
    dataPath_->setToolTip(tr("A token file (nanoGPT's headerless .bin, llm.c's .bin, a Megatron .bin/.idx pair) or a text file, "
                             "or a pattern such as train_*.bin for several; relative to the plan file"));
    numberField(QStringLiteral("eval.batches"))->setSpecialValue(0, tr("off"));
    numberField(QStringLiteral("eval.batches"))->setToolTip(
        tr("Held-out batches of micro-batch x world sequences, the same at every world size; 0 takes no validation loss"));
    numberField(QStringLiteral("eval.every"))->setSpecialValue(0, tr("only at the end"));
    numberField(QStringLiteral("eval.every"))->setSuffix(tr(" steps"));
    numberField(QStringLiteral("eval.holdout"))->setSpecialValue(0, tr("none: a validation file"));
    numberField(QStringLiteral("eval.holdout"))->setToolTip(tr("The last fraction of the training file, which training then never reads"));
    captionOf(evalPath_)->setText(tr("Validation file"));
    evalPath_->setPlaceholderText(tr("none: a held-out fraction"));
    evalPath_->setToolTip(tr("A token or text file of the training data's kind, in any of its formats; relative to the plan file"));
    captionOf(checkpointDir_)->setText(tr("Checkpoint folder"));
    checkpointDir_->setPlaceholderText(tr("no checkpoints"));
    checkpointDir_->setToolTip(tr("Where runs save sharded checkpoints (step-NNNNNN folders); relative to the plan file"));
    async_->setText(tr("Save in the background (async)"));
    numberField(QStringLiteral("grad_accum"))->setToolTip(tr("Micro-batches per optimizer step (gradient accumulation without sync)"));
    numberField(QStringLiteral("grad_clip"))->setSpecialValue(0, tr("off")); // 0 disables clipping
    numberField(QStringLiteral("checkpoint.interval"))->setSpecialValue(0, tr("only at the end"));
    numberField(QStringLiteral("checkpoint.interval"))->setSuffix(tr(" steps"));
    refresh();
}

NumberField* TrainingPanel::numberField(const QString& keys) const { return fields_->field(keys); }

void TrainingPanel::refresh()
{
    const Plan& plan = document_->plan();
    const TrainingConfig& t = plan.training;
    const JsonPath training = JsonPath().key("training");
    fields_->refresh();
    const JsonPath schedule = training.key("optimizer").key("schedule");
    showChoice(schedule_, QString::fromStdString(t.optimizer.schedule), problemsAt(*document_, schedule));
    const JsonPath kind = training.key("data").key("kind");
    const KeptValue* keptKind = document_->keptAt(kind);
    showChoice(dataKind_, keptKind ? QString::fromStdString(keptKind->raw.dump()) : QString::fromLatin1(kDataKinds[t.data.kind]),
               problemsAt(*document_, kind));
    showText(dataPath_, *document_, training.key("data").key("path"), t.data.path);
    dataPath_->setEnabled(t.data.kind != DataConfig::Synthetic || !t.data.path.empty());
    browse_->setEnabled(t.data.kind != DataConfig::Synthetic);
    const JsonPath dtype = training.key("data").key("dtype");
    const KeptValue* keptDtype = document_->keptAt(dtype);
    showChoice(dataDtype_, keptDtype ? QString::fromStdString(keptDtype->raw.dump()) : QString::fromLatin1(tokenDtypeName(t.data.dtype)),
               problemsAt(*document_, dtype));
    dataDtype_->setEnabled(t.data.kind == DataConfig::Tokens);
    showText(evalPath_, *document_, training.key("eval").key("path"), t.eval.path);
    showText(checkpointDir_, *document_, training.key("checkpoint").key("dir"), t.checkpoint.dir);
    {
        const QSignalBlocker block(async_);
        async_->setChecked(t.checkpoint.async);
        markInvalid(async_, problemsAt(*document_, training.key("checkpoint").key("async")));
    }
    const std::int64_t tokens = static_cast<std::int64_t>(t.microBatch) * t.seqLen * t.gradAccum * plan.mesh.worldSize();
    info_->setText(tr("%1 tokens per optimizer step across all ranks").arg(formatCount(tokens)));
    describeDataFile();
}

void TrainingPanel::otherEdited(const JsonPath& path)
{
    TrainingConfig t = document_->plan().training;
    t.optimizer.schedule = schedule_->currentData().toString().toStdString();
    const int kind = dataKind_->currentIndex();
    if (kind >= 0 && kind < 3) t.data.kind = static_cast<DataConfig::Kind>(kind);
    const int dtype = dataDtype_->currentIndex();
    if (dtype >= 0 && dtype < 3) t.data.dtype = static_cast<DataConfig::TokenDtype>(dtype);
    if (!document_->keptAt(JsonPath().key("training").key("data").key("path")) || (path.keyAt(1) == "data" && path.keyAt(2) == "path"))
        t.data.path = dataPath_->text().trimmed().toStdString();
    if (!document_->keptAt(JsonPath().key("training").key("eval").key("path")) || (path.keyAt(1) == "eval" && path.keyAt(2) == "path"))
        t.eval.path = evalPath_->text().trimmed().toStdString();
    if (!document_->keptAt(JsonPath().key("training").key("checkpoint").key("dir")) || path.keyAt(2) == "dir")
        t.checkpoint.dir = checkpointDir_->text().trimmed().toStdString();
    t.checkpoint.async = async_->isChecked();
    turnOnValidationIfAsked(t, path);
    if (!editTraining(*document_, t, NoMerge, {path})) refresh();
}

// The data file as the plan names it, resolved against the plan's folder;
// empty when there is none to look at.
QString TrainingPanel::dataFilePath() const
{
    const TrainingConfig& t = document_->plan().training;
    if (t.data.kind == DataConfig::Synthetic || t.data.path.empty()) return {};
    const QString path = QString::fromStdString(t.data.path);
    if (QDir::isAbsolutePath(path) || document_->filePath().isEmpty()) return path;
    return QDir(QFileInfo(document_->filePath()).absolutePath()).filePath(path);
}

// Asks the probe about the data file (stat() off the GUI thread) and shows
// the last answer for it meanwhile, or that it is being looked at.
void TrainingPanel::describeDataFile()
{
    const QString path = dataFilePath();
    if (!path.isEmpty()) probe_->probe(path);
    const std::optional<FileFacts> facts = probe_->known(path);
    showDataFile(facts ? &*facts : nullptr);
}

void TrainingPanel::showDataFile(const FileFacts* facts)
{
    const TrainingConfig& t = document_->plan().training;
    const QString path = dataFilePath();
    QString text;
    bool bad = false;
    if (t.data.kind == DataConfig::Synthetic) {
        text = tr("Arithmetic token sequences, generated on every rank: no file needed.");
    } else if (path.contains(QRegularExpression(QStringLiteral("[*?\\[]")))) {
        text = tr("A pattern: the files it matches where the run trains are read as one stream, in name order.");
    } else if (path.isEmpty()) {
        // no file named: the plan's problems say so
    } else if (!facts || facts->path != path) {
        text = tr("Looking at the file...");
    } else if (!facts->exists) {
        text = tr("Not on this machine: the run reads it where it trains.");
    } else if (!facts->regular) {
        text = tr("Not a regular file.");
        bad = true;
    } else {
        // Headered files say their width and count; headerless ones have the plan's width.
        const bool headered = t.data.kind == DataConfig::Tokens && facts->tokenFormat != QStringLiteral("headerless") &&
                              !facts->tokenFormat.isEmpty();
        const qint64 width = t.data.kind == DataConfig::Text ? 1
                             : headered                       ? facts->tokenWidth
                                                              : data::headerlessWidth(t.data.dtype, document_->plan().model.vocabSize);
        const qint64 tokens = headered ? facts->tokens : facts->size / width;
        if (!headered && facts->size % width != 0) {
            text = tr("%1 is not a whole number of %2-bit tokens.").arg(formatBytes(static_cast<std::uint64_t>(facts->size))).arg(8 * width);
            bad = true;
        } else if (t.data.kind == DataConfig::Tokens && !facts->tokenError.isEmpty()) {
            text = facts->tokenError; // a llm.c or Megatron file that does not hold together, in the core's words
            bad = true;
        } else if (tokens < static_cast<qint64>(t.seqLen) + 2) {
            text = tr("%1 tokens: fewer than one sequence of %2.").arg(formatCount(tokens), formatCount(t.seqLen + 1));
            bad = true;
        } else if (headered) {
            text = tr("%1 tokens of %2 bits in a %3 file on this machine.").arg(formatCount(tokens)).arg(8 * width).arg(facts->tokenFormat);
        } else {
            text = tr("%1 tokens (%2) on this machine.").arg(formatCount(tokens), formatBytes(static_cast<std::uint64_t>(facts->size)));
        }
    }
    dataInfo_->setText(text);
    dataInfo_->setVisible(!text.isEmpty());
    markInvalid(dataInfo_, bad ? text : QString());
}

void TrainingPanel::chooseDataFile()
{
    const QString planDir = document_->filePath().isEmpty() ? QDir::homePath() : QFileInfo(document_->filePath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose the data file"), planDir,
                                                      tr("Token and text files (*.bin *.idx *.txt);;All files (*)"));
    if (!path.isEmpty()) setDataFile(path);
}

void TrainingPanel::setDataFile(const QString& path)
{
    QString stored = QDir::cleanPath(path);
    if (!document_->filePath().isEmpty()) {
        const QDir planDir = QFileInfo(document_->filePath()).absoluteDir();
        const QString relative = planDir.relativeFilePath(stored);
        if (!relative.startsWith(QStringLiteral(".."))) stored = relative;
    }
    dataPath_->setText(stored);
    otherEdited(JsonPath().key("training").key("data").key("path"));
}

bool TrainingPanel::focusField(const QString& field)
{
    QWidget* target = field.startsWith(u"checkpoint.dir")     ? static_cast<QWidget*>(checkpointDir_)
                      : field.startsWith(u"checkpoint.async") ? static_cast<QWidget*>(async_)
                      : field.startsWith(u"optimizer.schedule") ? static_cast<QWidget*>(schedule_)
                      : field == u"data.path"                  ? static_cast<QWidget*>(dataPath_)
                      : field == u"eval.path" || field == u"eval" ? static_cast<QWidget*>(evalPath_)
                      : field == u"data.dtype"                 ? static_cast<QWidget*>(dataDtype_)
                      : field.startsWith(u"data")              ? static_cast<QWidget*>(dataKind_)
                                                               : nullptr;
    if (!target) target = numberField(field);
    if (!target) target = field.startsWith(u"checkpoint") ? numberField(QStringLiteral("checkpoint.interval")) : microBatchBox();
    target->setFocus(Qt::OtherFocusReason);
    if (auto* edit = qobject_cast<QLineEdit*>(target)) edit->selectAll();
    return true;
}

} // namespace sb::gui
