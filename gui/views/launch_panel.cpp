#include "launch_panel.hpp"

#include "named_widget.hpp"

#include "views/engine_chooser.hpp"

#include "going_runs_bar.hpp"
#include "status_delegate.hpp"
#include "target_chooser.hpp"

#include "models/preflight_model.hpp"
#include "settings/run_settings.hpp"

#include "protocol/run_limits.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::gui {

using app::HostCatalog;
using app::RunSettings;

LaunchPanel::LaunchPanel(HostCatalog* catalog, PreflightModel* preflight, QWidget* parent)
    : Retranslated<QWidget>(parent), target_(new TargetChooser(catalog)), engine_(new EngineChooser), engineLabel_(new QLabel),
      name_(named<QLineEdit>("runName")), restarts_(named<QSpinBox>("maxRestarts")), initFrom_(named<QLineEdit>("initFrom")),
      chooseWeights_(named<QPushButton>("chooseWeights")), initFromLabel_(new QLabel), check_(named<QPushButton>("checkButton")),
      launch_(named<QPushButton>("launchButton")), stop_(named<QPushButton>("stopButton")),
      detachBox_(named<QCheckBox>("detachedLaunch")), detach_(named<QPushButton>("detachButton")), progress_(new QProgressBar),
      checks_(named<QTableView>("preflightTable")), message_(named<QLabel>("launchMessage")),
      subject_(named<QLabel>("launchSubject")), going_(new GoingRunsBar), whereLabel_(new QLabel), nameLabel_(new QLabel),
      restartsLabel_(new QLabel)
{
    setObjectName(QStringLiteral("launchPanel"));
    connect(chooseWeights_, &QPushButton::clicked, this, &LaunchPanel::chooseWeights);
    detachBox_->setChecked(RunSettings::detached.value());
    connect(detachBox_, &QCheckBox::toggled, this, [](bool on) { RunSettings::detached.setValue(on); });
    launch_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    stop_->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    check_->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
    restarts_->setRange(0, limits::kMaxRestarts);
    restarts_->setValue(std::clamp(RunSettings::maxRestarts.value(), 0, limits::kMaxRestarts));
    connect(restarts_, &QSpinBox::valueChanged, this, [](int v) { RunSettings::maxRestarts.setValue(v); });
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    subject_->setWordWrap(true);
    subject_->hide();

    checks_->setModel(preflight);
    checks_->setItemDelegateForColumn(PreflightModel::CheckColumn, new StatusDelegate(PreflightModel::StatusColorRole, checks_));
    checks_->horizontalHeader()->setStretchLastSection(true);
    checks_->verticalHeader()->hide();
    checks_->setSelectionMode(QAbstractItemView::NoSelection);
    checks_->setWordWrap(true);
    checks_->setMinimumHeight(120);
    connect(preflight, &QAbstractItemModel::dataChanged, checks_, [this] { checks_->resizeRowsToContents(); });
    connect(preflight, &QAbstractItemModel::modelReset, checks_, [this] {
        checks_->resizeColumnToContents(PreflightModel::CheckColumn);
        checks_->resizeRowsToContents();
    });
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(true);

    auto* form = new QFormLayout;
    form->addRow(whereLabel_, target_);
    form->addRow(engineLabel_, engine_);
    form->addRow(nameLabel_, name_);
    form->addRow(restartsLabel_, restarts_);
    auto* weightsRow = new QHBoxLayout;
    weightsRow->addWidget(initFrom_, 1);
    weightsRow->addWidget(chooseWeights_);
    form->addRow(initFromLabel_, weightsRow);
    form->addRow(QString(), detachBox_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(check_);
    buttons->addWidget(launch_);
    buttons->addWidget(stop_);
    buttons->addWidget(detach_);
    buttons->addStretch(1);
    // One column beside the run's charts. What comes and goes (the restore
    // launched, the detached runs still going, the checks and their message)
    // sits below the buttons: it never moves a field from under the pointer.
    auto* settings = new QWidget;
    settings->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed); // its height, never a pixel more or less
    auto* settingsLayout = new QVBoxLayout(settings);
    settingsLayout->setContentsMargins(0, 0, 0, 0);
    settingsLayout->addLayout(form);
    settingsLayout->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(settings);
    layout->addWidget(subject_);
    layout->addWidget(going_);
    layout->addWidget(progress_);
    layout->addWidget(checks_, 1);
    layout->addWidget(message_);

    connect(check_, &QPushButton::clicked, this, &LaunchPanel::checkRequested);
    connect(launch_, &QPushButton::clicked, this, &LaunchPanel::launchRequested);
    connect(stop_, &QPushButton::clicked, this, &LaunchPanel::stopRequested);
    connect(detach_, &QPushButton::clicked, this, &LaunchPanel::detachRequested);
    setState(State::Idle);
    retranslateUi();
}

void LaunchPanel::setState(State state)
{
    state_ = state;
    const bool idle = state == State::Idle;
    check_->setEnabled(idle);
    launch_->setEnabled(idle);
    target_->setEnabled(idle);
    engine_->setEnabled(idle);
    name_->setEnabled(idle);
    restarts_->setEnabled(idle);
    initFrom_->setEnabled(idle);
    chooseWeights_->setEnabled(idle);
    detachBox_->setEnabled(idle);
    stop_->setEnabled(state == State::Checking || state == State::Running || state == State::Stopping);
    if (idle) following_ = false;
    detach_->setVisible(following_);
    detach_->setEnabled(following_ && (state == State::Running || state == State::Stopping));
    retranslateUi();
}

void LaunchPanel::setFollowing(bool following)
{
    following_ = following;
    setState(state_);
}

void LaunchPanel::setProgress(int done, int total)
{
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(done);
}

void LaunchPanel::setMessage(const QString& text, bool error)
{
    message_->setText(text);
    QPalette p = message_->palette();
    p.setColor(QPalette::WindowText, error ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::WindowText));
    message_->setPalette(p);
}

void LaunchPanel::setSubject(const QString& text)
{
    subject_->setText(text);
    subject_->setVisible(!text.isEmpty());
}

void LaunchPanel::chooseWeights()
{
    // A Hugging Face folder is given by its model.safetensors or its index (the core reads the folder either way).
    const QString path = QFileDialog::getOpenFileName(this, tr("Start from weights"), initFrom_->text(),
                                                      tr("Weights (*.safetensors *.safetensors.index.json);;All files (*)"));
    if (path.isEmpty()) return;
    const QFileInfo file(path);
    const bool hfFolder = file.fileName() == QLatin1String("model.safetensors") || file.fileName().endsWith(QLatin1String(".index.json"));
    initFrom_->setText(hfFolder ? file.absolutePath() : file.absoluteFilePath());
}

void LaunchPanel::retranslateUi()
{
    whereLabel_->setText(tr("Run on"));
    engineLabel_->setText(tr("Engine"));
    nameLabel_->setText(tr("Name"));
    restartsLabel_->setText(tr("Restarts"));
    name_->setPlaceholderText(tr("optional, to find the run again"));
    initFromLabel_->setText(tr("Start from weights"));
    initFrom_->setPlaceholderText(tr("none: the plan's random initialisation"));
    initFrom_->setToolTip(tr("A .safetensors file or a Hugging Face model folder; over SSH and Slurm the path on the cluster. "
                             "Checked against the plan before any rank starts, by this machine or over SSH by the host's shardbench-core; "
                             "a restart that resumes a checkpoint does not read them"));
    chooseWeights_->setText(tr("Choose…"));
    restarts_->setToolTip(tr("How often a failed run is started again, from its latest complete checkpoint (as torchrun's --max-restarts)"));
    check_->setText(tr("Check"));
    check_->setToolTip(tr("Run the pre-flight checks without launching"));
    launch_->setText(tr("Launch"));
    stop_->setText(state_ == State::Stopping ? tr("Stop now") : tr("Stop"));
    stop_->setToolTip(tr("Stop every rank (SIGTERM, then SIGKILL after the grace); press again to skip the grace"));
    detachBox_->setText(tr("Keep running when the workbench closes"));
    detachBox_->setToolTip(tr("Detached: a supervisor on the machine that runs it (the first host over SSH) starts, watches and restarts the ranks and keeps the record; the workbench attaches to it and may close at any time"));
    detach_->setText(tr("Detach"));
    detach_->setToolTip(tr("Stop following the run here; it goes on, and can be attached to again from Runs"));
    progress_->setFormat(tr("%v of %m checks"));
    if (auto* model = qobject_cast<PreflightModel*>(checks_->model())) model->retranslate();
}

} // namespace sb::gui
