#include "launcher_test_support.hpp"
#include "../../safe_signal.hpp"

#include "plan/plan_json.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <csignal>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace sb::test {

QString binDir() { return qEnvironmentVariable("SB_BIN_DIR"); }
QString sourceDir() { return qEnvironmentVariable("SB_SOURCE_DIR"); }
QString corePath() { return binDir() + QStringLiteral("/shardbench-core"); }
QString cliPath() { return binDir() + QStringLiteral("/shardbench-cli"); }

QString writeTinyPlan(const QString& path, int nodes, int procsPerNode, int steps, const QString& checkpointDir,
                      int checkpointInterval)
{
    auto model = presetConfig("transformer");
    if (!model) return QStringLiteral("no transformer preset");
    model->vocabSize = 64;
    model->dim = 32;
    model->nLayers = 2;
    model->nHeads = 2;
    model->nKvHeads = 2;
    model->ffnHidden = 128;
    model->maxSeqLen = 16;
    Plan plan = defaultPlan(*model);
    plan.name = "tiny";
    plan.mesh.nodes = nodes;
    plan.mesh.procsPerNode = procsPerNode;
    plan.training.microBatch = 2;
    plan.training.seqLen = 16;
    plan.training.steps = steps;
    plan.training.checkpoint.dir = checkpointDir.toStdString();
    plan.training.checkpoint.interval = checkpointInterval;
    return QString::fromStdString(savePlanFile(plan, path.toStdString()).message());
}

QList<ProcessInfo> processes()
{
    QList<ProcessInfo> out;
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& p : pids) {
        bool ok = false;
        const qint64 pid = p.toLongLong(&ok);
        if (!ok) continue;
        ProcessInfo info;
        info.pid = pid;
        QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!cmd.open(QIODevice::ReadOnly)) continue;
        info.cmdline = cmd.readAll();
        info.cmdline.replace('\0', ' ');
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (stat.open(QIODevice::ReadOnly)) {
            const QByteArray s = stat.readAll();
            const qsizetype open = s.indexOf('('), close = s.lastIndexOf(')');
            if (open >= 0 && close > open) {
                info.comm = s.mid(open + 1, close - open - 1);
                const QList<QByteArray> rest = s.mid(close + 2).split(' ');
                if (rest.size() > 2) {
                    if (rest[0] == "Z") continue; // a zombie is gone, only not yet reaped
                    info.ppid = rest[1].toLongLong();
                }
            }
        }
        out << info;
    }
    return out;
}

QList<ProcessInfo> processesMentioning(const QByteArray& text)
{
    QList<ProcessInfo> out;
    const qint64 self = ::getpid();
    for (const ProcessInfo& p : processes())
        if (p.pid != self && p.cmdline.contains(text)) out << p;
    return out;
}

QList<ProcessInfo> waitUntilNoneMention(const QByteArray& text, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    for (;;) {
        const QList<ProcessInfo> left = processesMentioning(text);
        if (left.isEmpty() || t.elapsed() > timeoutMs) return left;
        QThread::msleep(100);
    }
}

QString describe(const QList<ProcessInfo>& ps)
{
    QStringList lines;
    for (const ProcessInfo& p : ps)
        lines << QStringLiteral("pid %1 (%2): %3").arg(p.pid).arg(QString::fromUtf8(p.comm), QString::fromUtf8(p.cmdline.left(300)));
    return lines.join(QLatin1Char('\n'));
}

int rankOf(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/environ").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    int slurmRank = -1;
    for (const QByteArray& kv : f.readAll().split('\0'))
        if (kv.startsWith("RANK=")) return kv.mid(5).toInt();
        else if (kv.startsWith("SLURM_PROCID=")) slurmRank = kv.mid(13).toInt();
    return slurmRank;
}

void dieWithParent(QProcess& process, int sig)
{
#ifdef __linux__
    process.setChildProcessModifier([sig] { ::prctl(PR_SET_PDEATHSIG, sig); });
#else
    (void)process;
    (void)sig;
#endif
}

int runProgram(const QString& program, const QStringList& args, QByteArray* output, int timeoutMs)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000)) return -1;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    if (output) *output = p.readAll();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

SshdFixture::SshdFixture(QString d) : dir(std::move(d)) {}

SshdFixture::~SshdFixture()
{
    for (int i = 0; i < hostCount(); ++i) killHost(i);
}

QString SshdFixture::writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size())
        return QStringLiteral("cannot write ") + path;
    return {};
}

QString SshdFixture::alias(int i) const
{
    return i < 26 ? QStringLiteral("node-%1").arg(QChar(u'a' + i)) : QStringLiteral("node-%1").arg(i);
}
QString SshdFixture::address(int i) const { return hosts_[i].address; }
int SshdFixture::port(int i) const { return hosts_[i].port; }

QString SshdFixture::hostKeyLine(int i) const
{
    QFile f(hosts_[i].hostKey + QStringLiteral(".pub"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QList<QByteArray> parts = f.readAll().trimmed().split(' ');
    return QStringLiteral("[%1]:%2 %3 %4").arg(address(i)).arg(port(i)).arg(QString::fromUtf8(parts.value(0)), QString::fromUtf8(parts.value(1)));
}

QString SshdFixture::log(int i) const
{
    return hosts_[i].process ? QString::fromUtf8(hosts_[i].process->readAllStandardError()) : QString();
}

QString SshdFixture::start(const QStringList& addresses, const QList<QByteArray>& serverOptions)
{
    const QString sshd = QStringLiteral("/usr/sbin/sshd");
    if (!QFile::exists(sshd)) return QStringLiteral("/usr/sbin/sshd is missing (Debian: openssh-server)");
    // sshd refuses to start without its privilege-separation folder.
    if (!QDir(QStringLiteral("/run/sshd")).exists() && !QDir().mkpath(QStringLiteral("/run/sshd")))
        return QStringLiteral("cannot create /run/sshd");
    sshDir = dir + QStringLiteral("/dot-ssh");
    QDir().mkpath(sshDir);
    identityFile = dir + QStringLiteral("/id_ed25519");
    if (runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                 QStringLiteral("-N"), QString(), QStringLiteral("-C"),
                                                 QStringLiteral("shardbench-test"), QStringLiteral("-f"), identityFile}) != 0)
        return QStringLiteral("ssh-keygen failed for the user key");
    QFile pub(identityFile + QStringLiteral(".pub"));
    if (!pub.open(QIODevice::ReadOnly)) return QStringLiteral("no public user key");
    if (QString e = writeFile(dir + QStringLiteral("/authorized_keys"), pub.readAll()); !e.isEmpty()) return e;

    const QString user = qEnvironmentVariable("USER", ::getuid() == 0 ? QStringLiteral("root") : QString());
    QByteArray clientConfig;
    QByteArray known;
    for (int i = 0; i < addresses.size(); ++i) {
        Host h;
        h.address = addresses[i];
        {
            QTcpServer probe;
            if (!probe.listen(QHostAddress(h.address), 0)) return QStringLiteral("cannot bind %1").arg(h.address);
            h.port = probe.serverPort();
        }
        h.hostKey = dir + QStringLiteral("/host_%1_ed25519").arg(i);
        if (runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                     QStringLiteral("-N"), QString(), QStringLiteral("-f"), h.hostKey}) != 0)
            return QStringLiteral("ssh-keygen failed for a host key");
        const QString config = dir + QStringLiteral("/sshd_%1.conf").arg(i);
        // sshd takes the first value of most keywords (MaxStartups: the last one):
        // a host's own options come first, and replace the fixture's MaxStartups.
        const QByteArray text = serverOptions.value(i) + QStringLiteral(
                                    "Port %1\nListenAddress %2\nHostKey %3\nPidFile %4/sshd_%5.pid\n"
                                    "AuthorizedKeysFile %4/authorized_keys\nUsePAM no\nStrictModes no\n"
                                    "PermitRootLogin prohibit-password\nPubkeyAuthentication yes\n"
                                    "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                    "Subsystem sftp internal-sftp\nMaxSessions 30\n%6"
                                    "UseDNS no\nPrintMotd no\nLogLevel ERROR\n")
                                    .arg(h.port)
                                    .arg(h.address, h.hostKey, dir)
                                    .arg(i)
                                    .arg(serverOptions.value(i).contains("MaxStartups") ? QString() : QStringLiteral("MaxStartups 100\n"))
                                    .toUtf8();
        if (QString e = writeFile(config, text); !e.isEmpty()) return e;
        h.process = std::make_unique<QProcess>();
        dieWithParent(*h.process, SIGKILL);
        h.process->start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), config});
        if (!h.process->waitForStarted(5000)) return QStringLiteral("cannot start sshd: ") + h.process->errorString();
        hosts_.push_back(std::move(h));
        const int idx = static_cast<int>(hosts_.size()) - 1;
        clientConfig += QStringLiteral("Host %1\n  HostName %2\n  Port %3\n  User %4\n  IdentityFile %5\n")
                            .arg(alias(idx), address(idx))
                            .arg(port(idx))
                            .arg(user, identityFile)
                            .toUtf8();
    }
    // Ready when every port accepts connections.
    for (int i = 0; i < hostCount(); ++i) {
        QElapsedTimer t;
        t.start();
        for (;;) {
            if (hosts_[i].process->state() != QProcess::Running)
                return QStringLiteral("sshd for %1 exited: %2").arg(address(i), log(i));
            QTcpSocket s;
            s.connectToHost(QHostAddress(address(i)), static_cast<quint16>(port(i)));
            if (s.waitForConnected(500)) break;
            if (t.elapsed() > 10000) return QStringLiteral("sshd for %1 does not accept connections").arg(address(i));
            QThread::msleep(50);
        }
        known += hostKeyLine(i).toUtf8() + '\n';
    }
    configFile = dir + QStringLiteral("/ssh_config");
    knownHostsFile = dir + QStringLiteral("/known_hosts");
    if (QString e = writeFile(configFile, clientConfig); !e.isEmpty()) return e;
    return writeFile(knownHostsFile, known);
}

void SshdFixture::killHost(int i)
{
    Host& h = hosts_[i];
    if (!h.process || h.process->state() == QProcess::NotRunning) return;
    const qint64 listener = h.process->processId();
    // Every sshd process below the listener: the per-connection monitors and
    // session processes. The commands they run (sh, shardbench-core) stay.
    const QList<ProcessInfo> all = processes();
    QHash<qint64, qint64> parent;
    for (const ProcessInfo& p : all) parent.insert(p.pid, p.ppid);
    auto below = [&](qint64 pid) {
        for (qint64 p = parent.value(pid, 0); p > 1; p = parent.value(p, 0))
            if (p == listener) return true;
        return false;
    };
    sb::test::signalProcess(listener, SIGKILL);
    for (const ProcessInfo& p : all)
        if (p.comm == "sshd" && below(p.pid)) sb::test::signalProcess(p.pid, SIGKILL);
    h.process->waitForFinished(5000);
}

CliResult runCli(const QStringList& args, int timeoutMs)
{
    CliResult r;
    QProcess p;
    QElapsedTimer t;
    t.start();
    dieWithParent(p, SIGTERM);
    p.start(cliPath(), args);
    if (!p.waitForStarted(10000)) return r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.ms = t.elapsed();
    if (qEnvironmentVariableIsSet("SB_TEST_TIMING")) qInfo("%lld ms: %s", r.ms, qPrintable(args.join(QLatin1Char(' ')).left(60)));
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString describe(const CliResult& r)
{
    return QStringLiteral("exit %1\n--- stdout\n%2\n--- stderr\n%3").arg(r.code).arg(r.out, r.err);
}

TcpForwarder::TcpForwarder() { dieWithParent(process_, SIGKILL); }

TcpForwarder::~TcpForwarder() { kill(); }

QString TcpForwarder::start(const QString& listenAddress, const QString& targetAddress, int targetPort, int delayMs)
{
    const QString script = sourceDir() + QStringLiteral("/tests/launcher/support/tcp_forwarder.py");
    process_.start(QStringLiteral("python3"),
                   {script, listenAddress, targetAddress, QString::number(targetPort), QString::number(delayMs)});
    if (!process_.waitForStarted(5000)) return QStringLiteral("cannot start python3: ") + process_.errorString();
    // The port may already be buffered: waitForReadyRead() waits for more data only.
    QElapsedTimer waited;
    waited.start();
    while (!process_.canReadLine()) {
        if (waited.elapsed() > 20000 || process_.state() != QProcess::Running)
            return QStringLiteral("the forwarder printed no port: ") + QString::fromUtf8(process_.readAllStandardError());
        process_.waitForReadyRead(200);
    }
    port_ = process_.readLine().trimmed().toInt();
    return port_ > 0 ? QString() : QStringLiteral("the forwarder printed no port");
}

void TcpForwarder::freeze() { sb::test::signalProcess(process_.processId(), SIGSTOP); }
void TcpForwarder::thaw() { sb::test::signalProcess(process_.processId(), SIGCONT); }

void TcpForwarder::kill()
{
    if (process_.state() == QProcess::NotRunning) return;
    process_.kill(); // SIGKILL ends a stopped process too
    process_.waitForFinished(5000);
}

} // namespace sb::test
