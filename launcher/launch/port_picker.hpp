// Picks the rendezvous port (MASTER_PORT) of an attempt: a random port in
// 20000-31999, below Linux's ephemeral range so that no outgoing connection
// holds it, avoiding ports known to be listening.
#pragma once

#include <QByteArray>
#include <QSet>

namespace sb::launch {

// `busy`: ports to avoid. With `tryBind`, also checks that this machine can
// listen on it. Returns 0 when nothing was found.
int pickRendezvousPort(const QSet<int>& busy, bool tryBind);

// Listening TCP ports from the text of /proc/net/tcp and /proc/net/tcp6.
QSet<int> listeningPorts(const QByteArray& procNetTcp);

} // namespace sb::launch
