#include "local_runner.hpp"

#include <QCoreApplication>

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QTcpServer>

#include <memory>

std::vector<QJsonObject> RankResult::ofType(const QString& type) const
{
    std::vector<QJsonObject> out;
    for (const QJsonObject& e : events)
        if (e.value(QStringLiteral("type")).toString() == type) out.push_back(e);
    return out;
}

bool RunResult::ok() const
{
    if (timedOut || ranks.empty()) return false;
    for (const RankResult& r : ranks)
        if (r.crashed || r.exitCode != 0) return false;
    return true;
}

QString RunResult::describe() const
{
    QString s = timedOut ? QStringLiteral("timed out; ") : QString();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        // The rank's own account of what went wrong comes before any stack trace LibTorch appends.
        QString errors;
        for (const QString& line : ranks[i].stdErr.split(u'\n'))
            if (line.contains(QStringLiteral("error")) && errors.size() < 1200) errors += QStringLiteral("  ") + line.left(400) + u'\n';
        s += QStringLiteral("rank %1 exit %2%3:\n%4%5\n")
                 .arg(i)
                 .arg(ranks[i].exitCode)
                 .arg(ranks[i].crashed ? QStringLiteral(" (crashed)") : QString())
                 .arg(errors, ranks[i].stdErr.right(600));
    }
    return s;
}

QString LocalRunner::corePath()
{
    // ctest sets SB_BIN_DIR; run by hand, the suites sit next to the core in build/bin.
    const QString dir = qEnvironmentVariable("SB_BIN_DIR", QCoreApplication::applicationDirPath());
    return dir + QStringLiteral("/shardbench-core");
}

QString LocalRunner::cliPath() { return QFileInfo(corePath()).dir().filePath(QStringLiteral("shardbench-cli")); }

bool LocalRunner::rendezvousPortTaken(const QString& stdErr)
{
    return stdErr.contains(QLatin1String("EADDRINUSE")) || stdErr.contains(QLatin1String("address already in use"), Qt::CaseInsensitive);
}

int LocalRunner::freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

QProcessEnvironment LocalRunner::rankEnvironment(int rank, int world, int port)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("RANK"), QString::number(rank));
    env.insert(QStringLiteral("WORLD_SIZE"), QString::number(world));
    env.insert(QStringLiteral("LOCAL_RANK"), QString::number(rank));
    env.insert(QStringLiteral("LOCAL_WORLD_SIZE"), QString::number(world));
    env.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
    env.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
    env.insert(QStringLiteral("SB_THREADS"), QStringLiteral("1"));
    return env;
}

std::vector<std::unique_ptr<QProcess>> LocalRunner::start(int world, const QStringList& args, const QProcessEnvironment& extraEnv,
                                                          const QString& program)
{
    const int port = freePort();
    std::vector<std::unique_ptr<QProcess>> procs;
    for (int r = 0; r < world; ++r) {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        const QProcessEnvironment rankEnv = rankEnvironment(r, world, port);
        for (const QString& k : rankEnv.keys()) env.insert(k, rankEnv.value(k));
        for (const QString& k : extraEnv.keys()) env.insert(k, extraEnv.value(k));
        p->setProcessEnvironment(env);
        p->start(program.isEmpty() ? corePath() : program, args);
        procs.push_back(std::move(p));
    }
    return procs;
}

namespace {

// The rendezvous never started: rank 0 could not listen on the port given.
bool portWasTaken(const RunResult& r)
{
    return !r.ok() && !r.ranks.empty() && r.ranks[0].ofType(QStringLiteral("step")).empty() &&
           LocalRunner::rendezvousPortTaken(r.ranks[0].stdErr);
}

} // namespace

RunResult LocalRunner::run(int world, const QStringList& args, int timeoutMs, const QProcessEnvironment& extraEnv)
{
    RunResult r = runOnce(world, args, timeoutMs, extraEnv);
    for (int retry = 0; retry < 2 && portWasTaken(r); ++retry) r = runOnce(world, args, timeoutMs, extraEnv);
    return r;
}

RunResult LocalRunner::runOnce(int world, const QStringList& args, int timeoutMs, const QProcessEnvironment& extraEnv)
{
    RunResult result;
    result.ranks.resize(static_cast<std::size_t>(world));
    QElapsedTimer timer;
    timer.start();
    std::vector<std::unique_ptr<QProcess>> procs = start(world, args, extraEnv);
    // Fail fast: as soon as one rank fails, stop the others.
    bool anyFailed = false;
    std::vector<bool> finished(procs.size(), false);
    std::size_t remaining = procs.size();
    while (remaining > 0) {
        if (timer.elapsed() > timeoutMs) {
            result.timedOut = true;
            break;
        }
        for (std::size_t i = 0; i < procs.size(); ++i) {
            if (finished[i]) continue;
            if (procs[i]->state() == QProcess::NotRunning || procs[i]->waitForFinished(20)) {
                finished[i] = true;
                --remaining;
                if (procs[i]->exitStatus() != QProcess::NormalExit || procs[i]->exitCode() != 0) anyFailed = true;
            }
        }
        if (anyFailed) {
            for (std::size_t i = 0; i < procs.size(); ++i)
                if (!finished[i] && !procs[i]->waitForFinished(3000)) procs[i]->kill();
            break;
        }
    }
    for (std::size_t i = 0; i < procs.size(); ++i) {
        QProcess& p = *procs[i];
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished(5000);
        }
        RankResult& rr = result.ranks[i];
        rr.crashed = p.exitStatus() != QProcess::NormalExit;
        rr.exitCode = p.exitCode();
        rr.stdErr = QString::fromUtf8(p.readAllStandardError());
        const QList<QByteArray> lines = p.readAllStandardOutput().split('\n');
        for (const QByteArray& line : lines) {
            if (!line.startsWith("@sb ")) continue;
            const QJsonDocument doc = QJsonDocument::fromJson(line.mid(4));
            if (doc.isObject()) rr.events.push_back(doc.object());
        }
    }
    result.ms = timer.elapsed();
    return result;
}
