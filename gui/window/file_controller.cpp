#include "file_controller.hpp"

#include "chart_export.hpp"
#include "recent_files.hpp"

#include "document/plan_edits.hpp"
#include "text/problem_text.hpp"
#include "settings/setting.hpp"

#include "export/fsdp2_script.hpp"
#include "hf/hf_config.hpp"
#include "hf/hf_weights.hpp"
#include "plan/plan_json.hpp"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace sb::gui {

using app::Setting;

namespace {

const Setting<QString> kLastDirectory{QStringLiteral("files/lastDirectory")};

// Problems that mean the file is not a plan at all, rather than a plan with faults.
bool unreadable(const Problems& problems)
{
    for (const Problem& p : problems)
        switch (p.code) {
        case ProblemCode::PlanFileUnreadable:
        case ProblemCode::PlanFileTooLarge:
        case ProblemCode::PlanSyntax:
        case ProblemCode::PlanNotObject:
        case ProblemCode::PlanFormat:
        case ProblemCode::PlanVersion:
        case ProblemCode::PlanVersionMissing: return true;
        default: break;
        }
    return false;
}

QString problemList(const Problems& problems)
{
    QStringList lines;
    for (const Problem& p : problems) lines << QString::fromStdString(p.path.str()) + QStringLiteral(": ") + problemText(p);
    return lines.join(u'\n');
}

QString baseName(const QString& path, const QString& fallback)
{
    const QString name = QFileInfo(path).completeBaseName();
    return name.isEmpty() ? fallback : name;
}

} // namespace

FileController::FileController(PlanDocument* document, MemoryModel* memory, MemoryView* memoryView, RecentFiles* recent,
                               QWidget* window)
    : QObject(window), document_(document), memory_(memory), memoryView_(memoryView), recent_(recent), window_(window)
{
}

bool FileController::report(const QString& title, const QString& error)
{
    if (error.isEmpty()) return true;
    Q_EMIT errorOccurred(title, error);
    if (interactive_) QMessageBox::warning(window_, title, error);
    return false;
}

QString FileController::askOpenPath(const QString& title, const QString& filter)
{
    const QString path = QFileDialog::getOpenFileName(window_, title, kLastDirectory.value(), filter);
    if (!path.isEmpty()) kLastDirectory.setValue(QFileInfo(path).absolutePath());
    return path;
}

QString FileController::askSavePath(const QString& title, const QString& filter, const QString& suggestedName)
{
    const QString dir = kLastDirectory.value(QDir::homePath());
    const QString path = QFileDialog::getSaveFileName(window_, title, QDir(dir).filePath(suggestedName), filter);
    if (!path.isEmpty()) kLastDirectory.setValue(QFileInfo(path).absolutePath());
    return path;
}

bool FileController::maybeSave()
{
    if (!document_->isModified() || !interactive_) return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"), tr("The plan has unsaved changes. Save them first?"),
                    QMessageBox::NoButton, window_);
    QPushButton* save = box.addButton(tr("Save"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Cancel"), QMessageBox::RejectRole);
    box.setDefaultButton(save);
    box.exec();
    if (box.clickedButton() == save) return this->save();
    return box.clickedButton() == discard;
}

void FileController::newPlan()
{
    if (!maybeSave()) return;
    document_->reset(defaultPlan(ModelConfig{}));
    Q_EMIT statusMessage(tr("New plan"));
}

bool FileController::open()
{
    if (!maybeSave()) return false;
    const QString path = askOpenPath(tr("Open plan"), tr("shardbench plans (*.json);;All files (*)"));
    return !path.isEmpty() && openFile(path);
}

bool FileController::openFile(const QString& path)
{
    PlanReadResult read = loadPlanFile(QFile::encodeName(path).toStdString());
    if (unreadable(read.problems)) {
        recent_->remove(path);
        return report(tr("Open plan"), tr("%1 cannot be opened as a plan:\n%2").arg(QDir::toNativeSeparators(path), problemList(read.problems)));
    }
    // The reader refused some values: parse the file again to keep them as written.
    std::optional<json::Value> file;
    if (std::any_of(read.problems.begin(), read.problems.end(), keepsValue)) {
        QFile in(path);
        if (in.open(QIODevice::ReadOnly))
            if (json::ParseResult parsed = json::parse(in.readAll().toStdString()); parsed) file = std::move(*parsed.value);
    }
    document_->reset(read.plan, QFileInfo(path).absoluteFilePath(), read.problems, file ? &*file : nullptr);
    recent_->add(path);
    Q_EMIT statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileController::save()
{
    return document_->filePath().isEmpty() ? saveAs() : saveTo(document_->filePath());
}

bool FileController::saveAs()
{
    const QString name = baseName(document_->filePath(), QString::fromStdString(document_->plan().name)) + QStringLiteral(".json");
    const QString path = askSavePath(tr("Save plan"), tr("shardbench plans (*.json)"), name);
    return !path.isEmpty() && saveTo(path);
}

bool FileController::saveTo(const QString& path)
{
    // Atomic and synced (QSaveFile), with the values kept from the file written back.
    if (const QString error = writeFileAtomically(path, QByteArray::fromStdString(document_->savedJson().dump(2) + "\n"));
        !error.isEmpty())
        return report(tr("Save plan"), tr("The plan was not saved: %1").arg(error));
    document_->setFilePath(QFileInfo(path).absoluteFilePath());
    document_->markSaved();
    recent_->add(path);
    Q_EMIT statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileController::newPlanFromHf()
{
    if (!maybeSave()) return false;
    const QString dir = QFileDialog::getExistingDirectory(window_, tr("New plan from a Hugging Face model folder"), kLastDirectory.value());
    if (dir.isEmpty()) return false;
    kLastDirectory.setValue(QFileInfo(dir).absolutePath());
    return newPlanFromHfFolder(dir);
}

bool FileController::newPlanFromHfFolder(const QString& dir)
{
    const QString title = tr("New plan from a Hugging Face model folder");
    const Result<ModelConfig> model = hf::modelFromConfig(QFile::encodeName(dir).toStdString());
    if (!model) return report(title, QString::fromStdString(model.status().message()));
    Plan plan = defaultPlan(model.value());
    plan.name = QFileInfo(QDir::cleanPath(dir)).fileName().toStdString();
    const LoadedPlan loaded = validateLoaded(PlanReadResult{plan, {}});
    // The weights beside config.json, when there: their names and shapes are the model's exact sizes.
    QString weights;
    if (loaded.tree) {
        const Result<hf::WeightSource> found = hf::openWeightsFor(*loaded.tree, plan.model, QFile::encodeName(dir).toStdString());
        if (found) weights = QFileInfo(dir).absoluteFilePath();
        else if (QDir(dir).entryList({QStringLiteral("*.safetensors")}, QDir::Files).size() > 0)
            return report(title, tr("The weights in %1 do not match its config.json: %2")
                                     .arg(QDir::toNativeSeparators(dir), QString::fromStdString(found.status().message())));
    }
    document_->reset(plan);
    if (!weights.isEmpty()) Q_EMIT weightsFolderOpened(weights);
    Q_EMIT statusMessage(weights.isEmpty() ? tr("New plan for %1 (no weights in the folder)").arg(QDir::toNativeSeparators(dir))
                                           : tr("New plan for %1; the launch starts from its weights").arg(QDir::toNativeSeparators(dir)));
    return true;
}

bool FileController::importModuleTree()
{
    const QString path = askOpenPath(tr("Import module tree"), tr("Module trees (*.json);;All files (*)"));
    return !path.isEmpty() && importModuleTreeFile(path);
}

bool FileController::importModuleTreeFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return report(tr("Import module tree"), tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    const json::ParseResult parsed = json::parse(file.readAll().toStdString());
    if (!parsed)
        return report(tr("Import module tree"), tr("%1 is not valid JSON: %2")
                                                    .arg(QDir::toNativeSeparators(path), QString::fromStdString(parsed.error.toString())));
    Problems problems;
    ModuleTree tree;
    if (!moduleTreeFromJson(*parsed.value, JsonPath(), tree, problems))
        return report(tr("Import module tree"), tr("%1 is not a module tree:\n%2").arg(QDir::toNativeSeparators(path), problemList(problems)));
    ModelConfig model;
    model.preset = "imported";
    model.arch = Arch::Imported;
    model.importedTree = *parsed.value;
    model.importedFrom = QFileInfo(path).fileName().toStdString();
    if (const json::Value* cls = parsed.value->find("model_class"); cls && cls->isString())
        model.importedFrom = cls->asString() + " (" + model.importedFrom + ")";
    editModel(*document_, model, true);
    Q_EMIT statusMessage(tr("Imported %n module(s) from %1", nullptr, static_cast<int>(tree.modules().size()))
                             .arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileController::exportScript()
{
    if (document_->hasErrors())
        return report(tr("Export FSDP2 script"), tr("The plan has errors; fix them before exporting a training script."));
    const QString path = askSavePath(tr("Export FSDP2 script"), tr("Python scripts (*.py)"), QStringLiteral("train.py"));
    return !path.isEmpty() && exportScriptTo(path);
}

bool FileController::exportScriptTo(const QString& path)
{
    if (document_->hasErrors())
        return report(tr("Export FSDP2 script"), tr("The plan has errors; fix them before exporting a training script."));
    const std::string script = exportFsdp2Script(document_->plan(), document_->tree());
    if (!report(tr("Export FSDP2 script"), writeFileAtomically(path, QByteArray::fromStdString(script)))) return false;
    Q_EMIT statusMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool FileController::exportChartsPng()
{
    const QString path = askSavePath(tr("Export charts as PNG"), tr("PNG images (*.png)"), QStringLiteral("memory.png"));
    return !path.isEmpty() && report(tr("Export charts as PNG"), sb::gui::exportChartsPng(*memoryView_, path));
}

bool FileController::exportChartsSvg()
{
    const QString path = askSavePath(tr("Export charts as SVG"), tr("SVG drawings (*.svg)"), QStringLiteral("memory.svg"));
    return !path.isEmpty() && report(tr("Export charts as SVG"), sb::gui::exportChartsSvg(*memoryView_, path));
}

bool FileController::exportCsv()
{
    const QString path = askSavePath(tr("Export memory breakdown"), tr("CSV files (*.csv)"), QStringLiteral("memory.csv"));
    return !path.isEmpty() && report(tr("Export memory breakdown"), exportBreakdownCsv(*memory_, path));
}

} // namespace sb::gui
