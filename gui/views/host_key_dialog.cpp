#include "host_key_dialog.hpp"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace sb::gui {

HostKeyDialog::HostKeyDialog(const launch::HostKeyInfo& info, QWidget* parent)
    : QDialog(parent), fingerprint_(new QLabel(info.keyType + QLatin1Char(' ') + info.fingerprint)),
      remember_(new QPushButton(tr("Trust and remember"))), once_(new QPushButton(tr("Trust this time"))),
      refuse_(new QPushButton(tr("Refuse")))
{
    setObjectName(QStringLiteral("hostKeyDialog"));
    setWindowTitle(tr("Unknown host key"));
    setMinimumWidth(640);
    remember_->setObjectName(QStringLiteral("acceptHostKey"));
    once_->setObjectName(QStringLiteral("acceptHostKeyOnce"));
    refuse_->setObjectName(QStringLiteral("refuseHostKey"));
    fingerprint_->setObjectName(QStringLiteral("hostKeyFingerprint"));
    fingerprint_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    fingerprint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* icon = new QLabel;
    icon->setPixmap(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(40, 40));
    auto* intro = new QLabel(tr("<b>%1</b> is not in your known hosts. Before you trust it, compare its fingerprint with "
                                "the one the host's administrator gives you (on the host: <tt>ssh-keygen -lf "
                                "/etc/ssh/ssh_host_ed25519_key.pub</tt>).")
                                 .arg(info.host.toHtmlEscaped()));
    intro->setWordWrap(true);
    auto* grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("Address")), 0, 0);
    grid->addWidget(new QLabel(QStringLiteral("%1:%2").arg(info.address).arg(info.port)), 0, 1);
    grid->addWidget(new QLabel(tr("Fingerprint")), 1, 0);
    grid->addWidget(fingerprint_, 1, 1);
    grid->addWidget(new QLabel(tr("Remembered in")), 2, 0);
    grid->addWidget(new QLabel(info.knownHostsFile.isEmpty() ? tr("~/.ssh/known_hosts") : info.knownHostsFile), 2, 1);
    grid->setColumnStretch(1, 1);
    auto* buttons = new QDialogButtonBox;
    buttons->addButton(remember_, QDialogButtonBox::AcceptRole);
    buttons->addButton(once_, QDialogButtonBox::AcceptRole);
    buttons->addButton(refuse_, QDialogButtonBox::RejectRole);
    // Nothing is trusted by pressing Enter: Refuse is the default and has the
    // focus, and the trusting buttons never become default when focused.
    remember_->setAutoDefault(false);
    once_->setAutoDefault(false);
    refuse_->setDefault(true);
    connect(remember_, &QPushButton::clicked, this, [this] { decide(launch::HostKeyDecision::AcceptAndRemember); });
    connect(once_, &QPushButton::clicked, this, [this] { decide(launch::HostKeyDecision::AcceptOnce); });
    connect(refuse_, &QPushButton::clicked, this, [this] { decide(launch::HostKeyDecision::Reject); });
    auto* top = new QHBoxLayout;
    top->addWidget(icon, 0, Qt::AlignTop);
    top->addWidget(intro, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(grid);
    layout->addWidget(buttons);
    refuse_->setFocus(Qt::OtherFocusReason);
}

QString HostKeyDialog::fingerprintText() const { return fingerprint_->text(); }

void HostKeyDialog::decide(launch::HostKeyDecision d)
{
    decision_ = d;
    if (d == launch::HostKeyDecision::Reject) reject();
    else accept();
}

} // namespace sb::gui
