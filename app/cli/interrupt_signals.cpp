#include "interrupt_signals.hpp"

#include <QSocketNotifier>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace sb::cli {

namespace {

int g_pipe[2] = {-1, -1};

extern "C" void onSignal(int sig)
{
    const unsigned char b = static_cast<unsigned char>(sig);
    const int saved = errno;
    if (g_pipe[1] >= 0) (void)!::write(g_pipe[1], &b, 1);
    errno = saved;
}

const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

} // namespace

InterruptSignals::InterruptSignals(QObject* parent) : QObject(parent)
{
    if (g_pipe[0] >= 0 || ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
    notifier_ = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, [this] {
        unsigned char b;
        while (::read(g_pipe[0], &b, 1) == 1) Q_EMIT interrupted(b, ++count_);
    });
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int s : kSignals) sigaction(s, &sa, nullptr);
}

InterruptSignals::~InterruptSignals()
{
    if (!notifier_) return;
    for (int s : kSignals) std::signal(s, SIG_DFL);
    delete notifier_;
    ::close(g_pipe[0]);
    ::close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

} // namespace sb::cli
