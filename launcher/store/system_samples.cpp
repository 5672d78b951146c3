#include "system_samples.hpp"

#include "run_reader.hpp"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>

namespace sb::store {

QString systemColumnList()
{
    QStringList names;
    for (const SystemField& f : kSystemFields) names << QLatin1String(f.name);
    return names.join(QStringLiteral(", "));
}

QByteArray systemSamplesCsv(const QList<SystemSample>& samples)
{
    QByteArray out = "attempt,rank,t";
    for (const SystemField& f : kSystemFields) out += ',' + QByteArray(f.name);
    out += '\n';
    for (const SystemSample& s : samples) {
        out += QByteArray::number(s.attempt) + ',' + QByteArray::number(s.rank) + ',' + QByteArray::number(s.t, 'f', 3);
        for (const SystemField& f : kSystemFields) {
            const double v = f.valueOf(s);
            out += ',';
            if (!std::isnan(v)) out += f.count ? QByteArray::number(s.*f.count) : QByteArray::number(v, 'g', 10);
        }
        out += '\n';
    }
    return out;
}

QList<SystemSample> RunReader::systemSamples(qint64 runId, int rank)
{
    QList<SystemSample> out;
    QSqlQuery q(db_);
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT rank, attempt, t, %1 FROM system_samples WHERE run_id = ?%2 ORDER BY rank, attempt, t")
                  .arg(systemColumnList(), rank >= 0 ? QStringLiteral(" AND rank = ?") : QString()));
    q.bindValue(0, runId);
    if (rank >= 0) q.bindValue(1, rank);
    if (!q.exec()) {
        lastError_ = q.lastError().text();
        return out;
    }
    while (q.next()) {
        SystemSample s;
        s.runId = runId;
        s.rank = q.value(0).toInt();
        s.attempt = q.value(1).toInt();
        s.t = q.value(2).toDouble();
        int i = 3;
        for (const SystemField& f : kSystemFields) {
            const QVariant v = q.value(i++);
            if (v.isNull()) continue;
            if (f.real) s.*f.real = v.toDouble();
            else s.*f.count = v.toLongLong();
        }
        out << s;
    }
    return out;
}

} // namespace sb::store
