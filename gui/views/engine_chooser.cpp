#include "views/engine_chooser.hpp"

#include "named_widget.hpp"

#include "settings/run_settings.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>

#include <algorithm>
#include <initializer_list>

namespace sb::gui {

using app::RunSettings;

namespace {
const char* const kChoiceNames[] = {"core", "exported", "script"};
} // namespace

EngineChooser::EngineChooser(QWidget* parent)
    : Retranslated<QWidget>(parent), choice_(named<QComboBox>("engine")), script_(named<QLineEdit>("engineScript")),
      browse_(named<QPushButton>("chooseScript")), arguments_(named<QLineEdit>("engineScriptArgs")), argumentsLabel_(new QLabel),
      python_(named<QLineEdit>("enginePython")), scriptLabel_(new QLabel), pythonLabel_(new QLabel)
{
    setObjectName(QStringLiteral("engineChooser"));
    choice_->addItems({QString(), QString(), QString()});
    const QString saved = RunSettings::engine.value();
    for (int i = 0; i < 3; ++i)
        if (saved == QLatin1String(kChoiceNames[i])) choice_->setCurrentIndex(i);
    script_->setText(RunSettings::script.value());
    arguments_->setText(RunSettings::scriptArgs.value());
    python_->setText(RunSettings::python.value());

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(choice_, 0, 0, 1, 3);
    grid->addWidget(scriptLabel_, 1, 0);
    grid->addWidget(script_, 1, 1);
    grid->addWidget(browse_, 1, 2);
    grid->addWidget(argumentsLabel_, 2, 0);
    grid->addWidget(arguments_, 2, 1, 1, 2);
    grid->addWidget(pythonLabel_, 3, 0);
    grid->addWidget(python_, 3, 1, 1, 2);
    grid->setColumnStretch(1, 1);

    connect(choice_, &QComboBox::currentIndexChanged, this, [this](int i) {
        RunSettings::engine.setValue(QLatin1String(kChoiceNames[std::clamp(i, 0, 2)]));
        update();
        Q_EMIT changed();
    });
    connect(script_, &QLineEdit::textChanged, this, [](const QString& t) { RunSettings::script.setValue(t.trimmed()); });
    connect(arguments_, &QLineEdit::textChanged, this, [](const QString& t) { RunSettings::scriptArgs.setValue(t.trimmed()); });
    connect(python_, &QLineEdit::textChanged, this, [](const QString& t) { RunSettings::python.setValue(t.trimmed()); });
    for (QLineEdit* e : {script_, arguments_, python_}) connect(e, &QLineEdit::textChanged, this, &EngineChooser::changed);
    connect(browse_, &QPushButton::clicked, this, &EngineChooser::chooseScript);
    retranslateUi();
    update();
}

launch::Engine EngineChooser::engine() const
{
    return choice_->currentIndex() == Core ? launch::Engine::Core : launch::Engine::PyTorch;
}

QString EngineChooser::script() const { return choice_->currentIndex() == OwnScript ? script_->text().trimmed() : QString(); }

QStringList EngineChooser::scriptArgs() const
{
    return choice_->currentIndex() == OwnScript ? QProcess::splitCommand(arguments_->text()) : QStringList();
}

QString EngineChooser::python() const
{
    const QString p = python_->text().trimmed();
    return p.isEmpty() ? QStringLiteral("python3") : p;
}

void EngineChooser::update()
{
    const bool pytorch = choice_->currentIndex() != Core, own = choice_->currentIndex() == OwnScript;
    for (QWidget* w : std::initializer_list<QWidget*>{scriptLabel_, script_, browse_, argumentsLabel_, arguments_}) w->setVisible(own);
    pythonLabel_->setVisible(pytorch);
    python_->setVisible(pytorch);
}

void EngineChooser::chooseScript()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Training script"), script_->text(), tr("Python (*.py);;All files (*)"));
    if (!path.isEmpty()) script_->setText(path);
}

void EngineChooser::retranslateUi()
{
    choice_->setItemText(Core, tr("shardbench-core"));
    choice_->setItemText(ExportedScript, tr("PyTorch FSDP2: the plan's exported script"));
    choice_->setItemText(OwnScript, tr("PyTorch: a script of mine"));
    choice_->setToolTip(tr("What every rank runs. A PyTorch script gets torchrun's environment, reports through "
                           "shardbench_report.py and resumes from the newest checkpoint in its own folder"));
    scriptLabel_->setText(tr("Script"));
    script_->setPlaceholderText(tr("train.py, where the ranks run"));
    browse_->setText(tr("Choose…"));
    argumentsLabel_->setText(tr("Arguments"));
    arguments_->setPlaceholderText(tr("none"));
    arguments_->setToolTip(tr("The script's own arguments, after it on every rank's command line (quotes group words)"));
    pythonLabel_->setText(tr("Python"));
    python_->setPlaceholderText(QStringLiteral("python3"));
    python_->setToolTip(tr("The Python that runs the script where the ranks run: a path, or a name on the PATH there"));
}

} // namespace sb::gui
