// The base of the suites that drive shardbench-cli: a scratch folder with the
// store their runs write to (db_) and a tiny plan (plan_), and the CLI run
// with their patience. No run of theirs may reach the user's own store.
#pragma once

#include "launcher_test_support.hpp"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace sb::test {

class CliSuite : public QObject {
protected:
    using Result = CliResult;
    static Result cli(const QStringList& args, int timeoutMs = 120000) { return runCli(args, timeoutMs); }

    // For initTestCase: "" once shardbench-cli (and, with needsCore, the core)
    // is built, SHARDBENCH_DB unset and, with planSteps > 0, plan_ written
    // (1 node x 2 ranks); else what is wrong.
    QString prepare(bool needsCore, int planSteps = 0);

    QTemporaryDir tmp_;
    QString db_ = tmp_.filePath(QStringLiteral("runs.sqlite"));
    QString plan_ = tmp_.filePath(QStringLiteral("plan.json"));
};

} // namespace sb::test
