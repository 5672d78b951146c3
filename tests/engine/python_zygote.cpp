#include "python_zygote.hpp"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

#include <signal.h>

namespace {

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

QStringList PythonZygote::torchModules()
{
    return {QStringLiteral("numpy"), QStringLiteral("torch"), QStringLiteral("torch.distributed.fsdp"),
            QStringLiteral("torch.distributed.checkpoint"), QStringLiteral("safetensors.torch")};
}

QStringList PythonZygote::transformersModules()
{
    QStringList modules = torchModules();
    modules << QStringLiteral("transformers.models.auto.modeling_auto");
    for (const char* family : {"llama", "mistral", "qwen2", "qwen3", "gpt2"})
        modules << QStringLiteral("transformers.models.%1.modeling_%1").arg(QLatin1String(family));
    return modules;
}

PythonZygote& PythonZygote::instance(const QStringList& modules)
{
    static const std::unique_ptr<PythonZygote> zygote(new PythonZygote(modules));
    return *zygote;
}

PythonZygote::PythonZygote(const QStringList& modules)
{
    const QString python = qEnvironmentVariable("SB_PYTHON");
    if (python.isEmpty()) {
        error_ = QStringLiteral("SB_PYTHON is not set");
        return;
    }
    // One thread a process, as the suites' ranks run (2 cores): OpenMP reads
    // this when torch is imported, before any fork.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    proc_.setProcessEnvironment(env);
    proc_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    proc_.start(python, QStringList{qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/engine/python_zygote.py")} + modules);
    QDeadlineTimer deadline(180000);
    while (proc_.state() != QProcess::NotRunning && !proc_.canReadLine() && !deadline.hasExpired())
        proc_.waitForReadyRead(1000);
    const QJsonObject hello = QJsonDocument::fromJson(proc_.readLine()).object();
    if (!hello.value(QStringLiteral("ready")).toBool()) {
        error_ = QStringLiteral("%1 could not import %2: %3")
                     .arg(python, modules.join(QStringLiteral(", ")), hello.value(QStringLiteral("error")).toString(QStringLiteral("no answer")));
        return;
    }
    // A fork copies one thread only: a thread started by an import would be missing in every child.
    if (hello.value(QStringLiteral("threads")).toInt() != 1)
        error_ = QStringLiteral("the zygote has %1 threads after its imports; forking it is unsafe").arg(hello.value(QStringLiteral("threads")).toInt());
}

PythonZygote::~PythonZygote()
{
    if (proc_.state() == QProcess::NotRunning) return;
    proc_.closeWriteChannel(); // the zygote kills its children and exits
    if (!proc_.waitForFinished(10000)) proc_.kill();
}

bool PythonZygote::send(const QByteArray& line)
{
    if (!error_.isEmpty() || proc_.state() != QProcess::Running) return false;
    proc_.write(line + '\n');
    return proc_.waitForBytesWritten(10000);
}

bool PythonZygote::readReplies(int timeoutMs)
{
    if (!proc_.canReadLine() && !proc_.waitForReadyRead(timeoutMs)) return proc_.state() == QProcess::Running;
    while (proc_.canReadLine()) {
        const QJsonObject r = QJsonDocument::fromJson(proc_.readLine()).object();
        const qint64 id = r.value(QStringLiteral("id")).toInteger();
        if (r.contains(QStringLiteral("pid"))) pids_.insert(id, r.value(QStringLiteral("pid")).toInteger());
        if (r.contains(QStringLiteral("exit"))) exits_.insert(id, r.value(QStringLiteral("exit")).toInt());
    }
    return true;
}

PythonZygote::Child PythonZygote::start(const QStringList& argv, const QProcessEnvironment& env, const QString& workDir)
{
    Child c;
    c.id = nextId_++;
    c.outPath = dir_.filePath(QStringLiteral("%1.out").arg(c.id));
    c.errPath = dir_.filePath(QStringLiteral("%1.err").arg(c.id));
    QJsonObject vars;
    for (const QString& k : env.keys()) vars.insert(k, env.value(k));
    const QJsonObject req{{QStringLiteral("id"), c.id},
                          {QStringLiteral("argv"), QJsonArray::fromStringList(argv)},
                          {QStringLiteral("env"), vars},
                          {QStringLiteral("cwd"), workDir},
                          {QStringLiteral("stdout"), c.outPath},
                          {QStringLiteral("stderr"), c.errPath}};
    if (!send(QJsonDocument(req).toJson(QJsonDocument::Compact))) return c;
    QDeadlineTimer deadline(30000);
    while (!pids_.contains(c.id) && !deadline.hasExpired())
        if (!readReplies(1000)) break;
    c.pid = pids_.value(c.id, -1);
    return c;
}

PythonZygote::Ended PythonZygote::wait(const Child& child, int timeoutMs)
{
    Ended e;
    if (!child.started()) {
        e.err = error_.isEmpty() ? QStringLiteral("the zygote did not start the child") : error_;
        return e;
    }
    QDeadlineTimer deadline(timeoutMs);
    while (!exits_.contains(child.id) && !deadline.hasExpired())
        if (!readReplies(1000)) break;
    if (!exits_.contains(child.id)) {
        e.timedOut = true;
        kill(child);
        QDeadlineTimer grace(10000);
        while (!exits_.contains(child.id) && !grace.hasExpired())
            if (!readReplies(1000)) break;
    }
    const int code = exits_.value(child.id, -1);
    e.exitCode = code < 0 ? -1 : code;
    e.out = readFile(child.outPath);
    e.err = readFile(child.errPath);
    return e;
}

void PythonZygote::kill(const Child& child)
{
    if (child.started()) send(QStringLiteral("{\"kill\": %1}").arg(child.pid).toUtf8());
}
