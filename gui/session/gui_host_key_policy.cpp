#include "gui_host_key_policy.hpp"

#include <QMetaMethod>
#include <QThread>

namespace sb::gui {

GuiHostKeyPolicy::GuiHostKeyPolicy(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<launch::HostKeyInfo>();
}

GuiHostKeyPolicy::~GuiHostKeyPolicy() { shutDown(); }

launch::HostKeyDecision GuiHostKeyPolicy::decideUnknownHost(const launch::HostKeyInfo& info)
{
    // Waiting in the GUI thread would wait for ourselves.
    if (QThread::currentThread() == thread()) return launch::HostKeyDecision::Reject;
    int id = 0;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (shutDown_) return launch::HostKeyDecision::Reject;
        id = nextId_++;
        open_.insert(id, true);
    }
    QMetaObject::invokeMethod(
        this,
        [this, id, info] {
            // Nobody to ask (no window): an unknown key is refused, as the CLI does.
            if (isSignalConnected(QMetaMethod::fromSignal(&GuiHostKeyPolicy::askRequested))) Q_EMIT askRequested(id, info);
            else answer(id, launch::HostKeyDecision::Reject);
        },
        Qt::QueuedConnection);
    std::unique_lock<std::mutex> lock(mutex_);
    answered_.wait(lock, [&] { return answers_.contains(id) || shutDown_; });
    open_.remove(id);
    return answers_.contains(id) ? answers_.take(id) : launch::HostKeyDecision::Reject;
}

void GuiHostKeyPolicy::answer(int id, launch::HostKeyDecision decision)
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!open_.contains(id)) return;
        answers_.insert(id, decision);
    }
    answered_.notify_all();
}

void GuiHostKeyPolicy::shutDown()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        shutDown_ = true;
    }
    answered_.notify_all();
}

int GuiHostKeyPolicy::pendingCount() const
{
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(open_.size());
}

} // namespace sb::gui
