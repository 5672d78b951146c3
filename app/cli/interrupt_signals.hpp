// Turns SIGINT, SIGTERM and SIGHUP into a Qt signal (self-pipe + socket
// notifier), so a Ctrl-C cancels a run through the event loop instead of
// killing the launcher and orphaning its ranks.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace sb::cli {

class InterruptSignals final : public QObject {
    Q_OBJECT
public:
    explicit InterruptSignals(QObject* parent = nullptr);
    ~InterruptSignals() override; // restores the default handlers
    bool ok() const { return notifier_ != nullptr; }

Q_SIGNALS:
    void interrupted(int signalNumber, int count); // count: 1 for the first, 2 for the second...

private:
    QSocketNotifier* notifier_ = nullptr;
    int count_ = 0;
};

} // namespace sb::cli
