// Helper of tst_launcher_store: writes step metrics into a run store as
// fast as it can and reports each committed step on stdout ("committed N"),
// until the test kills it with SIGKILL.
#include "../run_store_fixture.hpp"

#include <QCoreApplication>

#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: launcher_store_writer_child DB\n");
        return 2;
    }
    using namespace sb::store::test;
    const auto [store, id, error] =
        storeWithRun(QString::fromLocal8Bit(argv[1]), bareRun(QStringLiteral("writer-child"), QStringLiteral("local"), 4, 1));
    if (!store) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
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
