#include "port_picker.hpp"

#include <QHostAddress>
#include <QList>
#include <QRandomGenerator>
#include <QTcpServer>

namespace sb::launch {

int pickRendezvousPort(const QSet<int>& busy, bool tryBind)
{
    for (int i = 0; i < 200; ++i) {
        const int port = 20000 + static_cast<int>(QRandomGenerator::global()->bounded(12000));
        if (busy.contains(port)) continue;
        if (tryBind) {
            QTcpServer probe;
            if (!probe.listen(QHostAddress::Any, static_cast<quint16>(port))) continue;
        }
        return port;
    }
    return 0;
}

QSet<int> listeningPorts(const QByteArray& procNetTcp)
{
    // "  sl  local_address rem_address   st ...": local "0100007F:1F90", st 0A = LISTEN.
    QSet<int> ports;
    for (const QByteArray& line : procNetTcp.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 4 || f[3] != "0A") continue;
        const qsizetype colon = f[1].lastIndexOf(':');
        if (colon < 0) continue;
        bool ok = false;
        const int port = f[1].mid(colon + 1).toInt(&ok, 16);
        if (ok) ports.insert(port);
    }
    return ports;
}

} // namespace sb::launch
