// Failure reasons as codes (core/plan/failure_reason.hpp): every kind of
// rank exit keeps the English sentence it had and gains its code and
// arguments; an exit without a host stays text only; the catalogue's names
// are unique and found again by name.
#include "launch/failure_analysis.hpp"

#include <QSet>
#include <QTest>

#include <csignal>

using namespace sb;
using namespace sb::launch;

namespace {

ObservedExit exitOf(RankExit::Kind kind, int code, const QString& host = QStringLiteral("node-b"))
{
    ObservedExit o;
    o.exit.rank = 3;
    o.exit.kind = kind;
    o.exit.code = code;
    o.host = host;
    return o;
}

} // namespace

class LauncherFailureReasons : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachExitHasItsCodeAndSentence_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("detail");
        QTest::addColumn<bool>("stopped");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::newRow("runtime") << int(RankExit::Exited) << 1 << QString() << false << "rank.runtime_failure"
                                 << "rank 3 on node-b exited with code 1 (runtime failure)";
        QTest::newRow("bad input") << int(RankExit::Exited) << 2 << QString() << false << "rank.bad_input"
                                   << "rank 3 on node-b exited with code 2 (bad input)";
        QTest::newRow("rendezvous") << int(RankExit::Exited) << 3 << QString() << false << "rank.rendezvous"
                                    << "rank 3 on node-b exited with code 3 (rendezvous failed)";
        QTest::newRow("cannot run") << int(RankExit::Exited) << 126 << QString() << false << "rank.cannot_run"
                                    << "rank 3 on node-b exited with code 126 (the core could not be executed)";
        QTest::newRow("not found") << int(RankExit::Exited) << 127 << QString() << false << "rank.not_found"
                                   << "rank 3 on node-b exited with code 127 (the core was not found)";
        QTest::newRow("other code") << int(RankExit::Exited) << 42 << QString() << false << "rank.exited"
                                    << "rank 3 on node-b exited with code 42";
        QTest::newRow("killed") << int(RankExit::Signaled) << int(SIGKILL) << QString() << false << "rank.killed"
                                << "rank 3 on node-b was killed by signal 9 (SIGKILL)";
        QTest::newRow("stopped") << int(RankExit::Signaled) << int(SIGTERM) << QString() << true << "rank.stopped"
                                 << "rank 3 on node-b was stopped (SIGTERM)";
        QTest::newRow("lost") << int(RankExit::Lost) << 0 << "connection reset" << false << "rank.lost"
                              << "rank 3 on node-b was lost: connection reset";
        QTest::newRow("not started") << int(RankExit::NotStarted) << 0 << "no such file" << false
                                     << "rank.not_started" << "rank 3 on node-b could not be started: no such file";
    }

    void eachExitHasItsCodeAndSentence()
    {
        QFETCH(int, kind);
        QFETCH(int, code);
        QFETCH(QString, detail);
        QFETCH(bool, stopped);
        QFETCH(QString, name);
        QFETCH(QString, text);
        ObservedExit o = exitOf(RankExit::Kind(kind), code);
        o.exit.detail = detail;
        o.exit.stoppedByLauncher = stopped;
        const CodedReason r = failureReasonCoded(o);
        QCOMPARE(r.code, name);
        QCOMPARE(r.text, text);
        // The same sentence the exit's own description gives (backend.cpp).
        QCOMPARE(r.text, QStringLiteral("rank 3 on node-b ") + describeExit(o.exit));
        QCOMPARE(failureReason(o), text);
        QVERIFY(r.args.size() >= 2);
        QCOMPARE(r.args[0], QStringLiteral("3"));
        QCOMPARE(r.args[1], QStringLiteral("node-b"));
    }

    void theLastErrorIsADetailAfterTheSentence()
    {
        ObservedExit o = exitOf(RankExit::Exited, 1);
        o.lastError = QStringLiteral("CUDA out of memory");
        const CodedReason r = failureReasonCoded(o);
        QCOMPARE(r.text, QStringLiteral("rank 3 on node-b exited with code 1 (runtime failure): CUDA out of memory"));
        QCOMPARE(r.args, (QStringList{QStringLiteral("3"), QStringLiteral("node-b"), QStringLiteral("CUDA out of memory")}));
        // A template in another language gets the same detail.
        QCOMPARE(FailureReason::fillFailure("Rang %1 auf %2", {"3", "node-b", "oom"}), std::string("Rang 3 auf node-b: oom"));
    }

    void anExitWithoutAHostIsTextOnly()
    {
        const CodedReason r = failureReasonCoded(exitOf(RankExit::Exited, 1, QString()));
        QCOMPARE(r.code, QString());
        QCOMPARE(r.text, QStringLiteral("rank 3 exited with code 1 (runtime failure)"));
    }

    void theCatalogueNamesAreUniqueAndFound()
    {
        QSet<QString> names;
        for (const FailureTemplate& t : failureCatalogue()) {
            QVERIFY2(!names.contains(QLatin1String(t.name)), t.name);
            names.insert(QLatin1String(t.name));
            QCOMPARE(failureCodeNamed(t.name), std::optional<FailureCode>(t.code));
            QCOMPARE(&failureTemplate(t.code), &t);
        }
        QVERIFY(!failureCodeNamed("no.such_code"));
        QCOMPARE(QString::fromStdString(FailureReason{FailureCode::LaunchFailed, {"no route"}}.message()),
                 QStringLiteral("launch failed: no route"));
    }
};

QTEST_GUILESS_MAIN(LauncherFailureReasons)
#include "tst_launcher_failure_reasons.moc"
