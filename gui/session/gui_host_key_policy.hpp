// Asks the person at the workbench about unknown host keys. libssh calls
// decideUnknownHost() from connection threads; each question is handed to
// the GUI thread as a signal and the thread waits until answer() is called
// (or the policy shuts down, which refuses). Nothing here shows a widget:
// the window connects `askRequested` to the host key dialog.
#pragma once

#include "launch/ssh/host_key_policy.hpp"

#include <QHash>
#include <QObject>

#include <condition_variable>
#include <mutex>

namespace sb::gui {

class GuiHostKeyPolicy final : public QObject, public launch::HostKeyPolicy {
    Q_OBJECT
public:
    explicit GuiHostKeyPolicy(QObject* parent = nullptr);
    ~GuiHostKeyPolicy() override; // refuses every open question

    launch::HostKeyDecision decideUnknownHost(const launch::HostKeyInfo& info) override;

    // GUI thread: the answer to question `id`.
    void answer(int id, launch::HostKeyDecision decision);
    // Refuses every open question and every later one (closing the window).
    void shutDown();
    int pendingCount() const;

Q_SIGNALS:
    // In the GUI thread (queued).
    void askRequested(int id, const sb::launch::HostKeyInfo& info);

private:
    mutable std::mutex mutex_;
    std::condition_variable answered_;
    QHash<int, launch::HostKeyDecision> answers_;
    QHash<int, bool> open_;
    int nextId_ = 1;
    bool shutDown_ = false;
};

} // namespace sb::gui

Q_DECLARE_METATYPE(sb::launch::HostKeyInfo)
