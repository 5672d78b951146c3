#include "host_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sb::gui {

using app::HostCatalog;
using app::HostEditError;
using app::HostEntry;

HostDialog::HostDialog(HostCatalog* catalog, const HostEntry& entry, QWidget* parent)
    : QDialog(parent), catalog_(catalog), previousName_(entry.name), name_(new QLineEdit(entry.name)),
      address_(new QLineEdit(entry.hostname)), user_(new QLineEdit(entry.user)), port_(new QSpinBox),
      key_(new QLineEdit(entry.identityFile)), gpus_(new QSpinBox), error_(new QLabel)
{
    setObjectName(QStringLiteral("hostDialog"));
    setWindowTitle(entry.name.isEmpty() ? tr("Add a host") : tr("Edit host %1").arg(entry.name));
    port_->setRange(0, 65535);
    port_->setSpecialValueText(tr("22 (default)"));
    port_->setValue(entry.port);
    gpus_->setRange(0, 4096);
    gpus_->setSpecialValueText(tr("the plan's processes per node"));
    gpus_->setValue(entry.gpus);
    name_->setPlaceholderText(tr("gpu-node-1"));
    address_->setPlaceholderText(tr("the name itself, or 10.0.0.11"));
    user_->setPlaceholderText(tr("your user name"));
    key_->setPlaceholderText(tr("ssh-agent and ~/.ssh/id_*"));
    error_->setWordWrap(true);
    QPalette p = error_->palette();
    p.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    error_->setPalette(p);
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Private key file"), QDir::homePath() + QStringLiteral("/.ssh"));
        if (!file.isEmpty()) key_->setText(file);
    });
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(key_, 1);
    keyRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Address"), address_);
    form->addRow(tr("User"), user_);
    form->addRow(tr("Port"), port_);
    form->addRow(tr("Key file"), keyRow);
    form->addRow(tr("Ranks (GPUs)"), gpus_);
    auto* note = new QLabel(tr("shardbench logs in with keys only (ssh-agent or the key file); it never asks for or stores "
                               "a password. A key with a passphrase must be loaded into ssh-agent."));
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &HostDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(error_);
    layout->addWidget(buttons);
}

HostEntry HostDialog::entry() const
{
    HostEntry e;
    e.name = name_->text().trimmed();
    e.hostname = address_->text().trimmed();
    e.user = user_->text().trimmed();
    e.port = port_->value();
    e.identityFile = key_->text().trimmed();
    e.gpus = gpus_->value();
    e.source = HostEntry::Manual;
    return e;
}

bool HostDialog::apply()
{
    const HostEditError e = catalog_->setManualHost(entry(), previousName_);
    switch (e.kind) {
    case HostEditError::None: error_->clear(); return true;
    case HostEditError::BadName: error_->setText(tr("The name cannot be used: %1").arg(e.detail.isEmpty() ? tr("no user@ here; use the User field") : e.detail)); break;
    case HostEditError::BadAddress: error_->setText(tr("The address cannot be used: %1").arg(e.detail.isEmpty() ? tr("no user@ here; use the User field") : e.detail)); break;
    case HostEditError::BadUser: error_->setText(tr("The user name cannot be used: %1").arg(e.detail.isEmpty() ? tr("it contains @") : e.detail)); break;
    case HostEditError::Duplicate: error_->setText(tr("There is already a host named %1.").arg(entry().name)); break;
    }
    return false;
}

void HostDialog::accept()
{
    if (apply()) QDialog::accept();
}

} // namespace sb::gui
