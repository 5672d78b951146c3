// The question about an unknown host key, as OpenSSH asks it: the host, its
// address, the key's type and SHA256 fingerprint (to compare with what the
// host's administrator says), and where an accepted key is remembered.
#pragma once

#include "launch/ssh/host_key_policy.hpp"

#include <QDialog>

class QLabel;
class QPushButton;

namespace sb::gui {

class HostKeyDialog : public QDialog {
    Q_OBJECT
public:
    explicit HostKeyDialog(const launch::HostKeyInfo& info, QWidget* parent = nullptr);

    launch::HostKeyDecision decision() const { return decision_; }
    QString fingerprintText() const;
    QPushButton* acceptButton() const { return remember_; }
    QPushButton* acceptOnceButton() const { return once_; }
    QPushButton* refuseButton() const { return refuse_; }

private:
    void decide(launch::HostKeyDecision d);

    launch::HostKeyDecision decision_ = launch::HostKeyDecision::Reject;
    QLabel* fingerprint_;
    QPushButton* remember_;
    QPushButton* once_;
    QPushButton* refuse_;
};

} // namespace sb::gui
