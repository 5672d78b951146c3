// One Python of SB_PYTHON per test process, started on first use, that has
// imported PyTorch (and, for the suites that ask, transformers) and forks a
// child for each script run (python_zygote.py): the engine suites start
// hundreds of Python processes, and each would spend seconds of CPU
// importing the CUDA build of torch. A child runs its script as `python
// SCRIPT ARGS` would, under the real PyTorch; only the import is shared.
#pragma once

#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

class PythonZygote {
public:
    struct Child {
        qint64 id = -1, pid = -1;
        QString outPath, errPath;
        bool started() const { return pid > 0; }
    };
    struct Ended {
        int exitCode = -1; // -1 when it was killed or did not end in time
        bool timedOut = false;
        QString out, err;
    };

    // The modules every suite's scripts need: torch, FSDP2, DCP, numpy.
    static QStringList torchModules();
    // torchModules() and transformers' models of the families the core trains.
    static QStringList transformersModules();
    // The test process's zygote; `modules` are imported when this call starts it.
    static PythonZygote& instance(const QStringList& modules = torchModules());

    // Empty when the zygote is ready; else why not (no SB_PYTHON, an import failed).
    QString error() const { return error_; }
    // Starts `argv` (a script and its arguments) with `env` added to the
    // zygote's environment; !started() on failure.
    Child start(const QStringList& argv, const QProcessEnvironment& env = {}, const QString& workDir = {});
    // Waits up to timeoutMs for the child to end (killing it after that).
    Ended wait(const Child& child, int timeoutMs);
    void kill(const Child& child);

    PythonZygote(const PythonZygote&) = delete;
    PythonZygote& operator=(const PythonZygote&) = delete;
    ~PythonZygote();

private:
    explicit PythonZygote(const QStringList& modules);
    bool readReplies(int timeoutMs); // false when the zygote is gone
    bool send(const QByteArray& line);

    QProcess proc_;
    QTemporaryDir dir_;
    QString error_;
    qint64 nextId_ = 1;
    QHash<qint64, qint64> pids_;  // request id -> pid
    QHash<qint64, int> exits_;    // request id -> exit code
    QByteArray pending_;
};
