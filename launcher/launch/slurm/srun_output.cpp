#include "srun_output.hpp"

#include <QHash>
#include <QRegularExpression>

#include <csignal>
#include <cstring>
#include <utility>

namespace sb::launch {

namespace {

constexpr int kMaxTasks = 1 << 20;

// srun names a task's signal with strsignal(), in the locale it shares with us.
int signalFromDescription(const QString& text)
{
    static const QHash<QString, int> bySignal = [] {
        QHash<QString, int> h;
        for (int sig = 1; sig < SIGRTMAX; ++sig)
            if (const char* s = ::strsignal(sig)) h.insert(QString::fromLocal8Bit(s), sig);
        return h;
    }();
    return bySignal.value(text, 0);
}

// "Completed", "Exited with exit code 3", "Killed", "Segmentation fault (core dumped)".
bool parseTaskStatus(QString status, SrunMessage& m)
{
    static const QRegularExpression exited(QStringLiteral("^Exited with exit code (\\d{1,3})$"));
    if (status == QLatin1String("Completed")) {
        m.exitKind = RankExit::Exited;
        m.code = 0;
        return true;
    }
    if (const auto e = exited.match(status); e.hasMatch()) {
        m.exitKind = RankExit::Exited;
        m.code = e.captured(1).toInt();
        return true;
    }
    if (status.endsWith(QLatin1String(" (core dumped)"))) status.chop(14);
    if (const int sig = signalFromDescription(status)) {
        m.exitKind = RankExit::Signaled;
        m.code = sig;
        return true;
    }
    return false;
}

} // namespace

bool splitTaskLabel(QByteArrayView line, int* task, QByteArrayView* text)
{
    qsizetype i = 0;
    while (i < line.size() && line[i] == ' ') ++i;
    const qsizetype digits = i;
    qint64 id = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9' && id <= kMaxTasks) id = id * 10 + (line[i++] - '0');
    if (i == digits || id > kMaxTasks || i >= line.size() || line[i] != ':') return false;
    if (i + 1 < line.size() && line[i + 1] != ' ') return false; // "12:30 ..." is no label
    *task = static_cast<int>(id);
    *text = line.sliced(std::min(i + 2, line.size()));
    return true;
}

QList<int> parseTaskList(QStringView list)
{
    if (list.startsWith(u'[') && list.endsWith(u']')) list = list.sliced(1, list.size() - 2);
    QList<int> out;
    for (QStringView part : list.split(u',')) {
        const qsizetype dash = part.indexOf(u'-');
        bool ok1 = false, ok2 = true;
        const int first = (dash < 0 ? part : part.first(dash)).toInt(&ok1);
        const int last = dash < 0 ? first : part.sliced(dash + 1).toInt(&ok2);
        if (!ok1 || !ok2 || first < 0 || last < first || last >= kMaxTasks || out.size() + (last - first) >= kMaxTasks)
            return {};
        for (int t = first; t <= last; ++t) out << t;
    }
    return out;
}

namespace {

bool parseJobLine(SrunMessage& m)
{
    static const QRegularExpression queued(QStringLiteral("^job (\\d+) queued and waiting for resources"));
    static const QRegularExpression allocated(QStringLiteral("^job (\\d+) has been allocated resources"));
    static const QRegularExpression jobNodes(QStringLiteral("^jobid (\\d+): nodes\\(\\d+\\):`([^']*)'"));
    for (const auto& [re, kind] : {std::pair{&queued, SrunMessage::Queued}, std::pair{&allocated, SrunMessage::Allocated},
                                   std::pair{&jobNodes, SrunMessage::JobNodes}}) {
        const QRegularExpressionMatch r = re->match(m.text);
        if (!r.hasMatch()) continue;
        m.kind = kind;
        m.jobId = r.captured(1).toLongLong();
        if (kind == SrunMessage::JobNodes) m.nodes = r.captured(2);
        return true;
    }
    return false;
}

bool parseStepLaunch(SrunMessage& m)
{
    static const QRegularExpression launching(
        QStringLiteral("^launching (?:StepId=)?((\\d+)\\.\\S+) on host ([^\\s,]+), \\d+ tasks?: (\\S+)$"));
    const QRegularExpressionMatch r = launching.match(m.text);
    const QList<int> tasks = r.hasMatch() ? parseTaskList(r.captured(4)) : QList<int>();
    if (tasks.isEmpty()) return false;
    m.kind = SrunMessage::StepLaunch;
    m.step = r.captured(1);
    m.jobId = r.captured(2).toLongLong();
    m.host = r.captured(3);
    m.tasks = tasks;
    return true;
}

bool parseTaskExit(SrunMessage& m)
{
    // error() while the step runs, verbose() (behind the plugin's name) once srun cancels it.
    static const QRegularExpression taskExit(
        QStringLiteral("^(?:error: |[a-z_]+/[a-z_]+: _task_finish: )?([^\\s:=]+): tasks? ([0-9][0-9,-]*): (.+)$"));
    const QRegularExpressionMatch r = taskExit.match(m.text);
    const QList<int> tasks = r.hasMatch() ? parseTaskList(r.captured(2)) : QList<int>();
    if (tasks.isEmpty() || !parseTaskStatus(r.captured(3), m)) return false;
    m.kind = SrunMessage::TaskExit;
    m.host = r.captured(1);
    m.tasks = tasks;
    return true;
}

// The option table and the plugins' progress notes that --verbose adds.
bool isChatter(const QString& text)
{
    static const QRegularExpression optionsBlock(
        QStringLiteral("^(defined options|end of defined options|-+ -+|[a-z][a-z0-9-]*\\s+: .*)$"));
    static const QRegularExpression pluginNote(QStringLiteral("^[a-z_]+/[a-z_]+: "));
    return optionsBlock.match(text).hasMatch() || pluginNote.match(text).hasMatch();
}

} // namespace

SrunMessage parseSrunLine(QByteArrayView line)
{
    SrunMessage m;
    m.fromSrun = line.startsWith("srun: ");
    m.text = QString::fromUtf8(m.fromSrun ? line.sliced(6) : line);
    if (!m.fromSrun || parseJobLine(m) || parseStepLaunch(m) || parseTaskExit(m)) return m;
    if (isChatter(m.text)) m.kind = SrunMessage::Chatter;
    return m;
}

void TaskLineJoiner::feed(int task, QByteArrayView text, const Sink& sink)
{
    protocol::LineSplitter& splitter = tasks_[task];
    auto out = [&](QByteArray line, bool truncated) { sink(task, std::move(line), truncated); };
    splitter.feed(text, out);
    if (text.size() != kPieceBytes) splitter.feed("\n", out);
}

void TaskLineJoiner::finish(const Sink& sink)
{
    for (auto& [task, splitter] : tasks_) {
        const int id = task;
        splitter.finish([&](QByteArray line, bool truncated) { sink(id, std::move(line), truncated); });
    }
}

void SrunOutputReader::feed(OutputStream stream, QByteArrayView data)
{
    (stream == OutputStream::Stdout ? out_ : err_).feed(data, [&](QByteArray line, bool) { onLine(stream, line); });
}

void SrunOutputReader::onLine(OutputStream stream, QByteArrayView line)
{
    int task = -1;
    QByteArrayView text;
    if (!splitTaskLabel(line, &task, &text)) {
        sinks_.message(parseSrunLine(line));
        return;
    }
    (stream == OutputStream::Stdout ? outTasks_ : errTasks_).feed(task, text, [&](int t, QByteArray l, bool cut) {
        sinks_.taskLine(t, stream, std::move(l), cut);
    });
}

void SrunOutputReader::finish()
{
    for (OutputStream stream : {OutputStream::Stdout, OutputStream::Stderr}) {
        const bool isOut = stream == OutputStream::Stdout;
        (isOut ? out_ : err_).finish([&](QByteArray line, bool) { onLine(stream, line); });
        (isOut ? outTasks_ : errTasks_).finish([&](int t, QByteArray l, bool cut) { sinks_.taskLine(t, stream, std::move(l), cut); });
    }
}

} // namespace sb::launch
