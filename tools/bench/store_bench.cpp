// shardbench-store-bench: ingest rate of step metrics through the run
// store's writer thread, and the time to read one metric of one run back.
// Reported, not asserted; docs/performance.md ("Run store") keeps the numbers.
#include "store/run_reader.hpp"
#include "store/sqlite_run_store.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace sb::store;
using sb::Result;
using sb::Status;

namespace {

QString cpuModel()
{
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (!f.open(QIODevice::ReadOnly)) return QStringLiteral("unknown CPU");
    // /proc files report size 0: read everything instead of testing atEnd().
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        if (line.startsWith(QLatin1String("model name"))) return line.section(QLatin1Char(':'), 1).trimmed();
    }
    return QStringLiteral("unknown CPU");
}

int usage()
{
    std::fprintf(stderr, "usage: shardbench-store-bench [--rows N] [--ranks R] [--reads K] [--db FILE]\n"
                         "  --rows N   step metric rows to ingest (default 1000000)\n"
                         "  --ranks R  ranks the rows are spread over (default 8)\n"
                         "  --reads K  repetitions of the read (default 5; the best and the first are shown)\n"
                         "  --db FILE  database file (default: a fresh one in a temporary folder)\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    qint64 rows = 1000000;
    int ranks = 8;
    int reads = 5;
    QString dbPath;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        auto next = [&](qint64& out, qint64 min) {
            bool ok = false;
            if (i + 1 < args.size()) out = args[++i].toLongLong(&ok);
            return ok && out >= min;
        };
        qint64 v = 0;
        if (a == QLatin1String("--rows")) {
            if (!next(v, 1)) return usage();
            rows = v;
        } else if (a == QLatin1String("--ranks")) {
            if (!next(v, 1) || v > 100000) return usage();
            ranks = static_cast<int>(v);
        } else if (a == QLatin1String("--reads")) {
            if (!next(v, 1) || v > 1000) return usage();
            reads = static_cast<int>(v);
        } else if (a == QLatin1String("--db") && i + 1 < args.size()) {
            dbPath = args[++i];
        } else {
            return usage();
        }
    }
    QTemporaryDir tmp;
    if (dbPath.isEmpty()) {
        if (!tmp.isValid()) {
            std::fprintf(stderr, "shardbench-store-bench: cannot create a temporary folder\n");
            return 1;
        }
        dbPath = tmp.filePath(QStringLiteral("bench.sqlite"));
    }

    Result<std::unique_ptr<SqliteRunStore>> opened = SqliteRunStore::open(dbPath);
    if (!opened) {
        std::fprintf(stderr, "shardbench-store-bench: %s\n", opened.error().c_str());
        return 1;
    }
    std::unique_ptr<SqliteRunStore> store = std::move(opened).value();
    NewRun run;
    run.uid = QStringLiteral("bench-%1").arg(QDateTime::currentMSecsSinceEpoch());
    run.name = QStringLiteral("bench");
    run.planJson = QStringLiteral("{}");
    run.backend = QStringLiteral("local");
    run.worldSize = ranks;
    run.createdAt = QDateTime::currentMSecsSinceEpoch() / 1000.0;
    const Result<qint64> created = store->createRun(run);
    if (!created) {
        std::fprintf(stderr, "shardbench-store-bench: cannot create a run: %s\n", created.error().c_str());
        return 1;
    }
    const qint64 runId = created.value();

    // Rows arrive as the supervisor produces them: step by step, every rank.
    QElapsedTimer timer;
    timer.start();
    const qint64 steps = (rows + ranks - 1) / ranks;
    qint64 made = 0;
    for (qint64 s = 1; s <= steps && made < rows; ++s) {
        for (int r = 0; r < ranks && made < rows; ++r, ++made) {
            MetricRow row;
            row.runId = runId;
            sb::protocol::StepMetrics& m = row.m;
            m.rank = r;
            m.step = static_cast<int>(s);
            m.steps = static_cast<int>(steps);
            m.t = 1.7e9 + static_cast<double>(s) * 0.01;
            m.loss = 6.0 * std::exp(-static_cast<double>(s) / 1e5) + 1.0;
            m.lr = 3e-4;
            m.gradNorm = 0.5;
            m.tokens = 4096;
            m.tokensPerS = 1.2e5 + r;
            m.stepMs = 30.0 + r;
            m.forwardMs = 10.0;
            m.backwardMs = 15.0;
            m.optimizerMs = 5.0;
            m.commExposedMs = 1.0;
            m.memCurrent = 1 << 20;
            m.memPeak = 2 << 20;
            m.memReserved = 3 << 20;
            m.deviceMemUsed = 4 << 20;
            store->addStepMetrics(row);
        }
    }
    const double enqueueS = timer.nsecsElapsed() / 1e9;
    if (const Status flushed = store->flush(); !flushed) {
        std::fprintf(stderr, "shardbench-store-bench: ingest failed: %s\n", flushed.message().c_str());
        return 1;
    }
    const double ingestS = timer.nsecsElapsed() / 1e9;
    const WriterStats stats = store->stats();
    store.reset();

    Result<std::unique_ptr<RunReader>> read = RunReader::open(dbPath);
    if (!read) {
        std::fprintf(stderr, "shardbench-store-bench: %s\n", read.error().c_str());
        return 1;
    }
    const std::unique_ptr<RunReader> reader = std::move(read).value();
    std::vector<double> times;
    qsizetype points = 0;
    for (int k = 0; k < reads; ++k) {
        timer.restart();
        const MetricSeries s = reader->series(runId, Metric::Loss);
        times.push_back(timer.nsecsElapsed() / 1e6);
        points = s.size();
    }
    const double first = times.front();
    const double best = *std::min_element(times.begin(), times.end());

    QTextStream out(stdout);
    out << "machine: " << cpuModel() << ", " << QThread::idealThreadCount() << " hardware threads, "
        << QSysInfo::prettyProductName() << ", Qt " << qVersion() << "\n";
    out << "database: " << dbPath << " (" << QFileInfo(dbPath).size() / (1024 * 1024) << " MiB after ingest)\n";
    out << "ingest: " << made << " step rows (" << ranks << " ranks x " << steps << " steps) in "
        << QString::number(ingestS, 'f', 3) << " s = " << QString::number(made / ingestS, 'f', 0)
        << " rows/s (enqueue alone " << QString::number(enqueueS, 'f', 3) << " s; " << stats.transactions
        << " transactions)\n";
    out << "read: " << points << " points of one metric (loss, every rank) in " << QString::number(best, 'f', 1)
        << " ms best of " << reads << " (first " << QString::number(first, 'f', 1) << " ms)\n";
    out.flush();
    return 0;
}
