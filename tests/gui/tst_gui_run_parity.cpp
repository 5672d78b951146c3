// One plan, one run store, four runs: `shardbench-cli run` and the Run
// area's Launch, each supervised and detached (followed to its end). Every
// row each run left in every table keyed by its run, read straight from the
// SQLite file, is compared column by column between the two front ends:
// identical apart from ids, times, process ids and what is measured, each
// left out by name below with the reason (printed with the number of rows
// compared). Real shardbench-core, shardbench-cli and shardbench-supervise.
#include "gui_test_support.hpp"

#include "history/store_access.hpp"
#include "session/attached_run.hpp"
#include "session/run_session.hpp"
#include "views/launch_panel.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include <QCheckBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>

using namespace sb;
using namespace sb::gui;

namespace {

// How a column is compared when not as stored: `normalise` leaves out what
// differs between any two runs; without it only whether it is NULL is compared.
struct Column {
    QString name;
    QString why;
    std::function<QString(const QString&)> normalise;
};

// The rows of one run in a table, in an order both front ends share; `sorted`:
// the rows' order is the scheduler's, so they are compared sorted.
struct Table {
    QString label;
    const char* name;
    const char* selection; // of the run's rows (%1: its id)
    const char* order;
    QList<Column> columns;
    bool sorted = false;
};

const QString kIdentity = QStringLiteral("an id of this store");
const QString kTime = QStringLiteral("a time");
const QString kMeasured = QStringLiteral("measured while it ran");
// The events and log files of a detached run are read by byte offset; the
// lines before carry times, pids and ports, each of its own length.
const QString kOffset = QStringLiteral("a byte offset in the run directory's files");

QString withoutJsonKeys(const QString& json, const QStringList& keys)
{
    QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    for (const QString& key : keys) o.remove(key);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString withoutOffset(const QString& src) { return src.left(src.lastIndexOf(u':')) + QStringLiteral(":<offset>"); }

// What differs in the words of two runs: pids, the free rendezvous port each
// run picked, and the timings, throughput and memory of the core's step and
// checkpoint lines (event_log.cpp). The rest of every line is compared.
QString maskedLogLine(QString line)
{
    static const QList<QPair<QRegularExpression, QString>> masks = {
        {QRegularExpression(QStringLiteral("\\bpid \\d+")), QStringLiteral("pid <pid>")},
        {QRegularExpression(QStringLiteral("^supervisor \\d+ on ")), QStringLiteral("supervisor <pid> on ")},
        {QRegularExpression(QStringLiteral("(rendezvous [\\w.-]+):\\d+")), QStringLiteral("\\1:<port>")},
        {QRegularExpression(QStringLiteral("[\\d.]+ ms/step  \\d+ tokens/s  peak [\\d.]+ \\w+$")), QStringLiteral("<measured>")},
        {QRegularExpression(QStringLiteral(" in \\d+ ms$")), QStringLiteral(" in <ms> ms")},
    };
    for (const auto& [pattern, replacement] : masks) line.replace(pattern, replacement);
    return line;
}

// Every table that holds rows of one run (launcher/store/schema.cpp, version
// 9); a column not named here is compared as stored. The hosts table is not
// one: it records SSH hosts by name, none for a local run.
const QList<Table>& perRunTables()
{
    const Column runId{QStringLiteral("run_id"), kIdentity, {}};
    const Column rowId{QStringLiteral("id"), kIdentity, {}};
    const Column t{QStringLiteral("t"), kTime, {}};
    const Column src{QStringLiteral("src"), kOffset, withoutOffset};
    static const QList<Table> tables = {
        {QStringLiteral("runs"), "runs", "id = %1", "id",
         {rowId,
          {QStringLiteral("uid"), QStringLiteral("each run's own; other columns carry it as <uid>"), {}},
          {QStringLiteral("created_at"), kTime, {}},
          {QStringLiteral("started_at"), kTime, {}},
          {QStringLiteral("ended_at"), kTime, {}},
          {QStringLiteral("launcher_pid"), QStringLiteral("the process that launched: the CLI's or this test's"), {}},
          {QStringLiteral("attach_json"), QStringLiteral("the supervisor's pid and start time"),
           [](const QString& j) {
               return withoutJsonKeys(j, {QStringLiteral("supervisor_pid"), QStringLiteral("supervisor_start_time")});
           }}}},
        {QStringLiteral("run_attempts"), "run_attempts", "run_id = %1", "attempt",
         {runId, {QStringLiteral("started_at"), kTime, {}}, {QStringLiteral("ended_at"), kTime, {}}}},
        {QStringLiteral("step_metrics"), "step_metrics", "run_id = %1", "attempt, rank, step",
         {runId, t,
          {QStringLiteral("tokens_per_s"), kMeasured, {}},
          {QStringLiteral("step_ms"), kMeasured, {}},
          {QStringLiteral("forward_ms"), kMeasured, {}},
          {QStringLiteral("backward_ms"), kMeasured, {}},
          {QStringLiteral("optimizer_ms"), kMeasured, {}},
          {QStringLiteral("comm_exposed_ms"), kMeasured, {}},
          // The core's allocator counts; an async checkpoint's buffers come and go with its thread.
          {QStringLiteral("mem_current"), kMeasured, {}},
          {QStringLiteral("mem_peak"), kMeasured, {}},
          {QStringLiteral("mem_reserved"), kMeasured, {}},
          {QStringLiteral("device_mem_used"), QStringLiteral("the rank process's resident set"), {}}}},
        // Each rank's events in its order; the ranks' interleaving is the scheduler's.
        {QStringLiteral("events"), "events", "run_id = %1", "attempt, rank, id",
         {rowId, runId, t, src,
          {QStringLiteral("json"),
           QStringLiteral("its t, a rank's pid and rendezvous port, a save's ms and stall_ms, the checksum of a "
                          "checkpoint index (it holds the uid and the save's time), the measured peak_bytes"),
           [](const QString& j) {
               return withoutJsonKeys(j, {QStringLiteral("t"), QStringLiteral("pid"), QStringLiteral("master"), QStringLiteral("ms"),
                                          QStringLiteral("stall_ms"), QStringLiteral("checksum"), QStringLiteral("peak_bytes")});
           }}}},
        // Each rank's output in its order, but for its checkpoint lines: a save
        // is asynchronous, its line comes among whichever step lines are
        // written when it is durable (run to run, the CLI's own runs too).
        {QStringLiteral("logs of the ranks"), "logs", "run_id = %1 AND rank IS NOT NULL",
         "attempt, rank, stream, line LIKE '%] checkpoint of step %', id",
         {rowId, runId, t, src, {QStringLiteral("line"), QStringLiteral("pids, ports, timings, memory"), maskedLogLine}}},
        // The launcher's (or the supervisor's) lines: when each rank started
        // and ended, in whichever order the ranks did.
        {QStringLiteral("logs of the launcher"), "logs", "run_id = %1 AND rank IS NULL", "attempt, id",
         {rowId, runId, t, src, {QStringLiteral("line"), QStringLiteral("pids, ports"), maskedLogLine}},
         true},
        {QStringLiteral("checkpoints"), "checkpoints", "run_id = %1", "attempt, step, rank",
         {rowId, runId, t, src,
          {QStringLiteral("ms"), kMeasured, {}},
          {QStringLiteral("checksum"), QStringLiteral("of the checkpoint's index, which holds the uid and the save's time"), {}}}},
        {QStringLiteral("ingest_offsets"), "ingest_offsets", "run_id = %1", "file",
         {runId, {QStringLiteral("next_offset"), kOffset, {}}}},
    };
    return tables;
}

QString text(const QVariant& v)
{
    if (v.isNull()) return QStringLiteral("NULL");
    if (v.typeId() == QMetaType::Double) return QString::number(v.toDouble(), 'g', 17);
    return v.toString();
}

using Row = QStringList; // "column=value", in the table's column order

// A store file read through a connection of its own.
class StoreFile {
public:
    explicit StoreFile(const QString& path) : name_(QStringLiteral("rows-%1").arg(++count_))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name_);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (!db.open()) error_ = db.lastError().text();
    }
    ~StoreFile() { QSqlDatabase::removeDatabase(name_); }
    QString error() const { return error_; }

    // The first value of a query's first row; null when there is none.
    QVariant value(const QString& sql)
    {
        QSqlQuery q(QSqlDatabase::database(name_, false));
        if (q.exec(sql) && q.next()) return q.value(0);
        error_ = sql + QStringLiteral(": ") + q.lastError().text();
        return {};
    }

    // The run's rows as compared: the run's uid as <uid> in every value,
    // each column of `t` normalised or reduced to NULL or <set>.
    QList<Row> rows(const Table& t, qint64 runId, const QString& uid)
    {
        QSqlQuery q(QSqlDatabase::database(name_, false));
        QList<Row> out;
        const QString sql = QStringLiteral("SELECT * FROM %1 WHERE %2 ORDER BY %3")
                                .arg(QLatin1String(t.name), QString::fromLatin1(t.selection).arg(runId), QLatin1String(t.order));
        if (!q.exec(sql)) {
            error_ = sql + QStringLiteral(": ") + q.lastError().text();
            return out;
        }
        while (q.next()) {
            const QSqlRecord r = q.record();
            Row row;
            for (int i = 0; i < r.count(); ++i) {
                const QString column = r.fieldName(i);
                const auto rule = std::find_if(t.columns.begin(), t.columns.end(), [&](const Column& c) { return c.name == column; });
                QString v = text(r.value(i));
                if (!uid.isEmpty()) v.replace(uid, QStringLiteral("<uid>"));
                if (rule != t.columns.end() && !r.value(i).isNull()) v = rule->normalise ? rule->normalise(v) : QStringLiteral("<set>");
                row << column + u'=' + v;
            }
            out << row;
        }
        if (t.sorted) std::sort(out.begin(), out.end());
        return out;
    }

private:
    static inline int count_ = 0;
    QString name_;
    QString error_;
};

} // namespace

class TestRunParity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::isolateSettings();
        QVERIFY(tmp_.isValid());
        // The ranks on one thread each. Set here, both front ends' ranks
        // inherit it: the Run area has no environment of a run to set, and a
        // CLI `--env` the workbench lacks would launch something else.
        qputenv("SB_THREADS", "1");
        test::useRunFolder(tmp_.filePath(QStringLiteral("work")));
        plan_ = tmp_.filePath(QStringLiteral("p.json"));
        // A checkpoint folder relative to the plan's: both front ends store it
        // as the same absolute folder.
        QCOMPARE(test::writeTinyPlan(plan_, 8, {QStringLiteral("--checkpoint-dir"), QStringLiteral("ckpt"),
                                                QStringLiteral("--checkpoint-interval"), QStringLiteral("4")}),
                 QString());
        w_ = std::make_unique<test::Workbench>();
        w_->window->setInteractive(false);
        QVERIFY(w_->window->files()->openFile(plan_));
        w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
        store_ = areas()->store()->path();
        QCOMPARE(store_, tmp_.filePath(QStringLiteral("work/runs.sqlite")));
    }

    void cleanupTestCase() { w_.reset(); }

    void supervisedRunsStoreTheSameRows() { compareFrontEnds(false); }
    void detachedRunsStoreTheSameRows() { compareFrontEnds(true); }

private:
    RunAreas* areas() const { return w_->window->areas(); }

    // `shardbench-cli run` in the plan's folder (where its relative paths
    // are); the run's id. Detached, its run directory goes where the
    // workbench's does (runs/ beside the store), so run_dir compares as stored.
    qint64 runCli(bool detach, const QString& name)
    {
        QProcess cli;
        cli.setWorkingDirectory(tmp_.path());
        cli.setProcessChannelMode(QProcess::MergedChannels);
        QStringList args{QStringLiteral("run"), plan_, QStringLiteral("--local"), QStringLiteral("--db"), store_,
                         QStringLiteral("--name"), name, QStringLiteral("--quiet")};
        if (detach) args << QStringLiteral("--detach");
        cli.start(test::binPath(QStringLiteral("shardbench-cli")), args);
        if (!cli.waitForFinished(120000) || cli.exitStatus() != QProcess::NormalExit || cli.exitCode() != 0) {
            qWarning("shardbench-cli run: %s", cli.readAll().constData());
            return -1;
        }
        return StoreFile(store_).value(QStringLiteral("SELECT max(id) FROM runs")).toLongLong();
    }

    // The open plan launched from the Run area and followed to its end; the run's id.
    qint64 runWorkbench(bool detach, const QString& name)
    {
        LaunchPanel* panel = areas()->launchPanel();
        panel->nameEdit()->setText(name);
        panel->detachBox()->setChecked(detach);
        RunController* rc = areas()->runs();
        const RunSession* before = rc->session();
        const AttachedRun* attachedBefore = rc->attached();
        QTest::mouseClick(panel->launchButton(), Qt::LeftButton);
        qint64 id = -1;
        if (detach) {
            if (!QTest::qWaitFor([&] { return rc->attached() != attachedBefore && rc->attached() != nullptr; }, 60000)) return -1;
            if (!QTest::qWaitFor([&] { return rc->attached()->isFinished(); }, 120000)) return -1;
            id = rc->attached()->runId();
        } else {
            if (!QTest::qWaitFor([&] { return rc->session() != before && rc->session() != nullptr; }, 60000)) return -1;
            if (!QTest::qWaitFor([&] { return rc->session()->isFinished(); }, 120000)) return -1;
            id = rc->session()->runId();
        }
        if (!QTest::qWaitFor([&] { return rc->state() == RunController::State::Idle; }, 10000)) return -1;
        return id;
    }

    void compareFrontEnds(bool detach)
    {
        const QString name = detach ? QStringLiteral("rows-detached") : QStringLiteral("rows");
        const qint64 fromCli = runCli(detach, name);
        QVERIFY(fromCli > 0);
        const qint64 fromGui = runWorkbench(detach, name);
        QVERIFY2(fromGui > fromCli, qPrintable(areas()->launchPanel()->messageLabel()->text()));

        StoreFile file(store_);
        QVERIFY2(file.error().isEmpty(), qPrintable(file.error()));
        auto uid = [&](qint64 id) { return file.value(QStringLiteral("SELECT uid FROM runs WHERE id = %1").arg(id)).toString(); };
        const QString cliUid = uid(fromCli), guiUid = uid(fromGui);
        QVERIFY(!cliUid.isEmpty() && !guiUid.isEmpty());
        // The run went as planned: 8 steps of 2 ranks on one thread each, checkpoints at 4 and 8.
        const QString ofCli = QStringLiteral(" WHERE run_id = %1").arg(fromCli);
        QCOMPARE(file.value(QStringLiteral("SELECT status || ' ' || steps_done || ' ' || (run_dir IS NOT NULL) FROM runs WHERE id = %1")
                                .arg(fromCli)).toString(),
                 QStringLiteral("completed 8 %1").arg(int(detach)));
        QCOMPARE(file.value(QStringLiteral("SELECT count(*) FROM step_metrics") + ofCli).toInt(), 16);
        QCOMPARE(file.value(QStringLiteral("SELECT group_concat(step) FROM checkpoints") + ofCli +
                            QStringLiteral(" AND status = 'complete'")).toString(),
                 QStringLiteral("4,8"));
        QCOMPARE(file.value(QStringLiteral("SELECT count(*) FROM events") + ofCli +
                            QStringLiteral(" AND type = 'hello' AND json LIKE '%\"threads\":1,%'")).toInt(),
                 2);

        QStringList differences;
        for (const Table& t : perRunTables()) {
            const QList<Row> cli = file.rows(t, fromCli, cliUid), gui = file.rows(t, fromGui, guiUid);
            QVERIFY2(file.error().isEmpty(), qPrintable(file.error()));
            if (cli.size() != gui.size())
                differences << QStringLiteral("%1: %2 rows from the CLI, %3 from the workbench")
                                   .arg(t.label).arg(cli.size()).arg(gui.size());
            for (qsizetype i = 0; i < std::min(cli.size(), gui.size()); ++i)
                for (qsizetype c = 0; c < cli[i].size(); ++c)
                    if (cli[i][c] != gui[i].value(c))
                        differences << QStringLiteral("%1 row %2: cli %3 | workbench %4")
                                           .arg(t.label).arg(i).arg(cli[i][c], gui[i].value(c));
            QStringList left;
            for (const Column& c : t.columns)
                left << QStringLiteral("%1%2 (%3)").arg(c.name, c.normalise ? QStringLiteral(" in part") : QString(), c.why);
            qInfo("%s %s: %lld rows compared; left out: %s", detach ? "detached" : "supervised", qPrintable(t.label),
                  static_cast<long long>(cli.size()), qPrintable(left.join(QStringLiteral("; "))));
        }
        for (const QString& d : differences) qWarning("%s", qPrintable(d));
        QVERIFY2(differences.isEmpty(), qPrintable(differences.mid(0, 60).join(u'\n')));
    }

    QTemporaryDir tmp_;
    std::unique_ptr<test::Workbench> w_;
    QString store_, plan_;
};

QTEST_MAIN(TestRunParity)
#include "tst_gui_run_parity.moc"
