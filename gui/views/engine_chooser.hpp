// What the ranks of a launch run: shardbench-core, the plan's exported FSDP2
// script under PyTorch, or a PyTorch script of the user's (docs/gui.md,
// "Engines"). The script and the Python are paths where the ranks run (over
// SSH, on the hosts). Remembered across sessions (RunSettings).
#pragma once

#include "retranslated.hpp"

#include "launch/run_config.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sb::gui {

class EngineChooser : public Retranslated<QWidget> {
    Q_OBJECT
public:
    enum Choice { Core, ExportedScript, OwnScript };

    explicit EngineChooser(QWidget* parent = nullptr);

    QComboBox* choiceBox() const { return choice_; }
    QLineEdit* scriptEdit() const { return script_; }
    QLineEdit* argumentsEdit() const { return arguments_; }
    QLineEdit* pythonEdit() const { return python_; }

    launch::Engine engine() const;
    QString script() const;  // "" unless the user's own script is chosen
    QStringList scriptArgs() const; // its arguments, split as a shell would (quotes group)
    QString python() const;

Q_SIGNALS:
    void changed(); // the choice, or one of its fields

private:
    void update();
    void chooseScript();
    void retranslateUi() override;

    QComboBox* choice_;
    QLineEdit* script_;
    QPushButton* browse_;
    QLineEdit* arguments_;
    QLabel* argumentsLabel_;
    QLineEdit* python_;
    QLabel* scriptLabel_;
    QLabel* pythonLabel_;
};

} // namespace sb::gui
