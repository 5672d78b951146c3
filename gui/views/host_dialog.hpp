// Adding or editing a host by hand: the name to use for it, its address,
// the login, port, key file and how many ranks (GPUs) to run there.
#pragma once

#include "hosts/host_catalog.hpp"

#include <QDialog>

class QLabel;
class QLineEdit;
class QSpinBox;

namespace sb::gui {

class HostDialog : public QDialog {
    Q_OBJECT
public:
    HostDialog(app::HostCatalog* catalog, const app::HostEntry& entry, QWidget* parent = nullptr);

    app::HostEntry entry() const;
    QLineEdit* nameEdit() const { return name_; }
    QLineEdit* addressEdit() const { return address_; }
    QLineEdit* userEdit() const { return user_; }
    QSpinBox* portBox() const { return port_; }
    QLineEdit* keyEdit() const { return key_; }
    QSpinBox* gpusBox() const { return gpus_; }
    QLabel* errorLabel() const { return error_; }

    // Stores the host; false (with the reason shown) when the catalog refuses it.
    bool apply();
    void accept() override;

private:
    app::HostCatalog* catalog_;
    QString previousName_;
    QLineEdit* name_;
    QLineEdit* address_;
    QLineEdit* user_;
    QSpinBox* port_;
    QLineEdit* key_;
    QSpinBox* gpus_;
    QLabel* error_;
};

} // namespace sb::gui
