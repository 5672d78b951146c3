// Helper of tst_launcher_store: writes step metrics into a run store as
// fast as it can and reports each committed step on stdout ("committed N"),
// until the test kills it with SIGKILL.
#include "store/sqlite_run_store.hpp"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: launcher_store_writer_child DB\n");
        return 2;
    }
    sb::Result<std::unique_ptr<sb::store::SqliteRunStore>> opened = sb::store::SqliteRunStore::open(QString::fromLocal8Bit(argv[1]));
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.error().c_str());
        return 1;
    }
    const std::unique_ptr<sb::store::SqliteRunStore> store = std::move(opened).value();
    sb::store::NewRun run;
    run.uid = QStringLiteral("writer-child");
    run.planJson = QStringLiteral("{}");
    run.backend = QStringLiteral("local");
    run.worldSize = 4;
    run.createdAt = 1;
    const qint64 id = store->createRun(run).value();
    std::printf("run %lld\n", static_cast<long long>(id));
    std::fflush(stdout);
    for (int step = 1;; ++step) {
        for (int rank = 0; rank < 4; ++rank) {
            sb::store::MetricRow row;
            row.runId = id;
            row.m.rank = rank;
            row.m.step = step;
            row.m.t = step;
            row.m.loss = 1.0 / step;
            row.m.tokens = 64;
            store->addStepMetrics(row);
        }
        if (step % 500 == 0) {
            if (const sb::Status flushed = store->flush(); !flushed) {
                std::fprintf(stderr, "%s\n", flushed.message().c_str());
                return 1;
            }
            std::printf("committed %d\n", step);
            std::fflush(stdout);
        }
    }
}
