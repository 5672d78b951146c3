#include "restore_dialog.hpp"

#include "named_widget.hpp"

#include "target_chooser.hpp"

#include "text/problem_text.hpp"

#include "plan/plan_limits.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sb::gui {

using app::HostCatalog;
using app::LaunchRequest;
using launch::LaunchTarget;
using app::RestoreChoice;
using app::RestoreSource;
using app::defaultRestoreCheckpointDir;
using app::restoredPlan;

RestoreDialog::RestoreDialog(HostCatalog* catalog, const RestoreSource& source, const QString& checkpointDir,
                             qint64 parentRun, const QString& parentLabel, const launch::RunConfig& runAs, QWidget* parent)
    : QDialog(parent), source_(source), checkpoint_(checkpointDir), parentRun_(parentRun), runAs_(runAs),
      target_(new TargetChooser(catalog)), world_(named<QSpinBox>("restoreWorldSize")), steps_(named<QSpinBox>("restoreSteps")),
      dir_(named<QLineEdit>("restoreCheckpointDir")), name_(named<QLineEdit>("restoreName")), mesh_(new QLabel),
      problems_(named<QLabel>("restoreProblems")), ok_(named<QPushButton>("restoreAccept", tr("Restore")))
{
    setObjectName(QStringLiteral("restoreDialog"));
    setWindowTitle(tr("Restore a checkpoint as a new run"));
    setMinimumWidth(560);
    world_->setRange(1, plan_limits::kMaxWorldSize);
    world_->setValue(std::max(1, source.worldSize));
    const int planSteps = source.plan.training.steps;
    steps_->setRange(source.step + 1, plan_limits::kMaxSteps);
    steps_->setValue(planSteps > source.step ? planSteps : source.step + std::max(planSteps, 1));
    const QString parentDir = QString::fromStdString(source.plan.training.checkpoint.dir);
    dir_->setText(parentDir.isEmpty() ? QString() : defaultRestoreCheckpointDir(checkpointDir, source.runUid));
    dir_->setPlaceholderText(tr("no checkpoints"));
    name_->setText(tr("%1, resumed at step %2").arg(parentLabel).arg(source.step));
    problems_->setWordWrap(true);
    QPalette p = problems_->palette();
    p.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    problems_->setPalette(p);

    QString introText = tr("Checkpoint of %1 at step %2, saved by %n rank(s). Loading it reshards the parameters and "
                           "optimizer state to the world size you choose.",
                           nullptr, source.worldSize)
                            .arg(parentLabel)
                            .arg(source.step);
    if (runAs.engine == launch::Engine::PyTorch)
        introText += QLatin1Char(' ') + (runAs.script.isEmpty()
                                             ? tr("The plan's exported FSDP2 script loads it with torch.distributed.checkpoint.")
                                             : tr("%1 loads it, given its folder in SHARDBENCH_RESUME_FROM.").arg(runAs.script));
    auto* intro = new QLabel(introText);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("World size"), world_);
    form->addRow(tr("Run on"), target_);
    form->addRow(tr("Mesh"), mesh_);
    form->addRow(tr("Train until step"), steps_);
    form->addRow(tr("Save checkpoints in"), dir_);
    form->addRow(tr("Name"), name_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    buttons->addButton(ok_, QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(problems_);
    layout->addWidget(buttons);

    connect(world_, &QSpinBox::valueChanged, this, &RestoreDialog::update);
    connect(steps_, &QSpinBox::valueChanged, this, &RestoreDialog::update);
    connect(dir_, &QLineEdit::textChanged, this, &RestoreDialog::update);
    connect(target_, &TargetChooser::changed, this, &RestoreDialog::update);
    update();
}

Plan RestoreDialog::plan() const
{
    RestoreChoice c;
    c.worldSize = world_->value();
    const LaunchTarget t = target_->target();
    c.nodes = std::max<int>(1, static_cast<int>(launch::sshHosts(t).size()));
    c.steps = steps_->value();
    c.checkpointDir = dir_->text().trimmed();
    return restoredPlan(source_.plan, c);
}

void RestoreDialog::update()
{
    const Plan p = plan();
    const LaunchTarget t = target_->target();
    QStringList errors;
    if (!source_.error.isEmpty()) errors << tr("The checkpoint cannot be read: %1").arg(source_.error);
    const QList<launch::HostSpec> hosts = launch::sshHosts(t);
    if (!launch::startsHere(t) && hosts.isEmpty()) errors << tr("Choose at least one host.");
    if (p.mesh.worldSize() != world_->value())
        errors << tr("%1 ranks cannot be spread evenly over %n host(s).", nullptr, static_cast<int>(hosts.size())).arg(world_->value());
    Problems treeProblems;
    if (const auto tree = buildModuleTree(p.model, &treeProblems)) {
        for (const Problem& pr : validatePlan(p, *tree))
            if (pr.severity == Severity::Error) errors << QString::fromStdString(pr.path.str()) + QStringLiteral(": ") + problemText(pr);
    } else {
        for (const Problem& pr : treeProblems) errors << problemText(pr);
    }
    QString mesh = tr("%n node(s)", nullptr, p.mesh.nodes) + QStringLiteral(" × ") +
                   tr("%n process(es) per node", nullptr, p.mesh.procsPerNode);
    if (p.mesh.replicate > 1) mesh += QStringLiteral(", ") + tr("%n replica(s) (HSDP)", nullptr, p.mesh.replicate);
    mesh_->setText(mesh);
    problems_->setText(errors.join(u'\n'));
    problems_->setVisible(!errors.isEmpty());
    valid_ = errors.isEmpty();
    ok_->setEnabled(valid_);
}

LaunchRequest RestoreDialog::request() const
{
    LaunchRequest r;
    r.config = runAs_;
    r.plan = plan();
    r.config.name = name_->text().trimmed();
    r.config.target = target_->target();
    r.config.resumeFrom = checkpoint_;
    r.config.parentRun = parentRun_;
    return r;
}

} // namespace sb::gui
