#include "run_dir_checks.hpp"

#include "store/run_reader.hpp"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

namespace sb::test {

bool waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs) return false;
        QTest::qWait(100);
    }
    return true;
}

bool readStderrUntil(QProcess& p, QByteArray* err, const QByteArray& text, int timeoutMs)
{
    waitFor([&] {
        p.waitForReadyRead(50);
        *err += p.readAllStandardError();
        return err->contains(text) || p.state() == QProcess::NotRunning;
    }, timeoutMs);
    return err->contains(text);
}

QJsonObject readJsonFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QJsonObject stateOf(const QString& runDir) { return readJsonFile(runDir + QStringLiteral("/state.json")); }
QString statusOf(const QString& runDir) { return stateOf(runDir).value(QStringLiteral("status")).toString(); }

bool isFinalStatus(const QString& s)
{
    return s == QLatin1String("completed") || s == QLatin1String("failed") || s == QLatin1String("cancelled");
}

QList<QByteArray> linesOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<QByteArray> out = f.readAll().split('\n');
    if (!out.isEmpty() && out.back().isEmpty()) out.removeLast();
    return out;
}

DirCounts countDir(const QString& runDir)
{
    DirCounts c;
    QDirIterator it(runDir, {QStringLiteral("rank-*")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        for (const QByteArray& l : linesOf(path)) {
            if (path.endsWith(QLatin1String(".events"))) {
                const QJsonObject e = QJsonDocument::fromJson(l).object();
                const QString type = e.value(QStringLiteral("type")).toString();
                if (type == QLatin1String("step")) {
                    ++c.steps;
                    c.maxStep = std::max(c.maxStep, e.value(QStringLiteral("step")).toInt());
                } else if (type == QLatin1String("system")) {
                    ++c.systemSamples;
                } else {
                    ++c.otherEvents;
                }
            } else if (path.endsWith(QLatin1String("rank-0.log"))) {
                ++c.rank0LogLines;
            }
        }
    }
    c.supervisorLines = static_cast<int>(linesOf(runDir + QStringLiteral("/supervisor.log")).size());
    return c;
}

StoreCounts countStore(const QString& db, qint64 runId)
{
    StoreCounts c;
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
    if (!reader) return c;
    QSet<QString> keys;
    reader->forEachStepRow(runId, -1, [&](const store::MetricRow& r) {
        ++c.steps;
        keys.insert(QStringLiteral("%1/%2/%3").arg(r.m.attempt).arg(r.m.rank).arg(r.m.step));
    });
    c.distinctSteps = static_cast<int>(keys.size());
    c.events = static_cast<int>(reader->events(runId).size());
    c.systemSamples = static_cast<int>(reader->systemSamples(runId).size());
    c.supervisorLines = static_cast<int>(reader->logs(runId, -1).size());
    c.rank0LogLines = static_cast<int>(reader->logs(runId, 0).size());
    c.attempts = static_cast<int>(reader->attempts(runId).size());
    if (auto run = reader->run(runId)) {
        c.status = run->status;
        c.reason = run->reason;
    }
    return c;
}

QString runDirOf(const QString& db, qint64 runId)
{
    QString error;
    auto reader = store::RunReader::open(db).valueOr(nullptr);
    auto run = reader ? reader->run(runId) : std::nullopt;
    return run ? run->runDir : QString();
}

void expectStoreMatchesDir(const QString& db, qint64 runId, const QString& runDir, int extraSupervisorRows)
{
    const DirCounts d = countDir(runDir);
    const StoreCounts s = countStore(db, runId);
    QVERIFY(d.steps > 0);
    QCOMPARE(s.steps, d.steps);
    QCOMPARE(s.distinctSteps, d.steps);
    QCOMPARE(s.events, d.otherEvents);
    QVERIFY(d.systemSamples > 0); // every rank's first, at its start
    QCOMPARE(s.systemSamples, d.systemSamples);
    QCOMPARE(s.supervisorLines, d.supervisorLines + extraSupervisorRows);
    QCOMPARE(s.rank0LogLines, d.rank0LogLines);
}

} // namespace sb::test
