// What the store suites share: a sample run and step, and raw SQL on a
// database file outside the store (to build old schemas and read them back).
#pragma once

#include "store/run_store.hpp"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

namespace sb::store::test {

inline NewRun sampleRun(const QString& uid, const QString& name = QString())
{
    NewRun r;
    r.uid = uid;
    r.name = name;
    r.planJson = QStringLiteral("{\"format\":\"shardbench-plan\"}");
    r.backend = QStringLiteral("ssh");
    r.hosts = {QStringLiteral("node-a slots=2"), QStringLiteral("node-b slots=2")};
    r.worldSize = 4;
    r.maxRestarts = 2;
    r.createdAt = 1700000000.5;
    return r;
}

inline MetricRow metric(qint64 run, int rank, int step, int attempt, double loss)
{
    MetricRow m;
    m.runId = run;
    m.m.rank = rank;
    m.m.step = step;
    m.m.attempt = attempt;
    m.m.steps = 100;
    m.m.t = 1700000000.0 + step;
    m.m.loss = loss;
    m.m.lr = 3e-4;
    m.m.gradNorm = 0.5;
    m.m.tokens = 4096;
    m.m.tokensPerS = 1e5;
    m.m.stepMs = 12.5;
    m.m.forwardMs = 4;
    m.m.backwardMs = 6;
    m.m.optimizerMs = 2;
    m.m.commExposedMs = 0.5;
    m.m.memCurrent = 1000 + rank;
    m.m.memPeak = 2000 + rank;
    m.m.memReserved = 4096;
    m.m.deviceMemUsed = -1; // unknown: NULL
    return m;
}

// Runs a SQL file (statements end with ';' at a line end; -- comments).
inline QString execSqlFile(const QString& dbPath, const QString& sqlFile)
{
    QFile f(sqlFile);
    if (!f.open(QIODevice::ReadOnly)) return QStringLiteral("cannot read ") + sqlFile;
    QString err;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("fixture"));
        db.setDatabaseName(dbPath);
        if (!db.open()) return db.lastError().text();
        QSqlQuery q(db);
        QString stmt;
        for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
            if (line.trimmed().startsWith(QLatin1String("--")) || line.trimmed().isEmpty()) continue;
            stmt += line + QLatin1Char('\n');
            if (line.trimmed().endsWith(QLatin1Char(';'))) {
                if (!q.exec(stmt)) err = stmt + q.lastError().text();
                stmt.clear();
                if (!err.isEmpty()) break;
            }
        }
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("fixture"));
    return err;
}

inline QVariant scalar(const QString& dbPath, const QString& sql)
{
    QVariant v;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("scalar"));
        db.setDatabaseName(dbPath);
        db.open();
        QSqlQuery q(db);
        if (q.exec(sql) && q.next()) v = q.value(0);
        q = QSqlQuery();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("scalar"));
    return v;
}
} // namespace sb::store::test
