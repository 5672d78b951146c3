#include "hosts/host_probe.hpp"

#include "hosts/python_probe.hpp"

#include "launch/bounded_output.hpp"
#include "launch/port_picker.hpp"
#include "launch/shell_quote.hpp"
#include "launch/ssh/remote_command.hpp"
#include "launch/ssh/ssh_connection.hpp"
#include "plan/plan_json.hpp"
#include "events/event_line.hpp"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QScopeGuard>
#include <QThread>
#include <QUuid>

namespace sb::app {

namespace {

// Fixed text: nothing a user typed goes into it.
const char kMachineScript[] =
    "if command -v nproc >/dev/null 2>&1; then echo \"@cpus $(nproc)\"; fi; "
    "if command -v nvidia-smi >/dev/null 2>&1; then echo @nvidia-smi; "
    "nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null; fi";

// Remembers whether the user was asked about the key, and the answer.
class RecordingPolicy final : public launch::HostKeyPolicy {
public:
    explicit RecordingPolicy(launch::HostKeyPolicy& inner) : inner_(inner) {}
    launch::HostKeyDecision decideUnknownHost(const launch::HostKeyInfo& info) override
    {
        asked = true;
        decision = inner_.decideUnknownHost(info);
        return decision;
    }
    bool asked = false;
    launch::HostKeyDecision decision = launch::HostKeyDecision::Reject;

private:
    launch::HostKeyPolicy& inner_;
};

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

void readMachine(const QByteArray& out, HostProbeResult& r)
{
    for (const QByteArray& raw : out.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.startsWith("@cpus ")) r.cpus = line.mid(6).toInt();
        else if (line == "@nvidia-smi") r.gpuToolFound = true;
        else if (r.gpuToolFound && !line.isEmpty()) r.gpus << QString::fromUtf8(line);
    }
}

QList<QPair<QByteArray, QByteArray>> probeEnvironment(int port)
{
    return {{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"LOCAL_RANK", "0"}, {"LOCAL_WORLD_SIZE", "1"},
            {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", QByteArray::number(port)}, {"SB_THREADS", "1"},
            {"SB_RENDEZVOUS_TIMEOUT_S", "20"}};
}

// The probe's one step prints a few kilobytes of events; far more is not a
// working shardbench-core, and is not kept.
constexpr qsizetype kMaxProbeOutput = 1 << 20;

QString outputTooLong()
{
    return QStringLiteral("its output was too long (more than %1 on stdout), so it was stopped").arg(launch::byteLimitText(kMaxProbeOutput));
}

// A failed probe run: its last error event ("" when it printed none).
QString coreFailure(const QByteArray& out)
{
    QString error;
    for (const QByteArray& line : out.split('\n')) {
        const protocol::ParsedLine p = protocol::parseOutputLine(line);
        if (p.kind == protocol::ParsedLine::Event && p.event.type == QLatin1String(protocol::type::error)) error = protocol::errorText(p.event);
    }
    return error;
}

} // namespace

QByteArray probePlanJson()
{
    static const QByteArray json = [] {
        Plan plan = defaultPlan(tutorialTransformer(16, 8, 1, 1, 16, 4));
        plan.name = "shardbench-probe";
        plan.mesh.nodes = 1;
        plan.mesh.procsPerNode = 1;
        plan.training.microBatch = 1;
        plan.training.seqLen = 4;
        plan.training.steps = 1;
        return QByteArray::fromStdString(planToString(plan));
    }();
    return json;
}

bool readProbeOutput(const QByteArray& stdoutText, HostProbeResult& r)
{
    for (const QByteArray& line : stdoutText.split('\n')) {
        const protocol::ParsedLine p = protocol::parseOutputLine(line);
        if (p.kind != protocol::ParsedLine::Event) continue;
        if (const auto hello = protocol::eventAs<protocol::Hello>(p.event)) {
            r.coreVersion = QString::fromStdString(hello->coreVersion);
            r.torchVersion = QString::fromStdString(hello->torch);
            r.coreDevice = QString::fromStdString(hello->device);
            return true;
        }
    }
    return false;
}

HostProbeResult probeSshHost(const launch::HostSpec& host, const launch::SshOptions& ssh, launch::HostKeyPolicy& policy,
                             const HostProbeOptions& options, const std::atomic<bool>* cancel, launch::ConnectGate* gate)
{
    QElapsedTimer clock;
    clock.start();
    HostProbeResult r;
    r.host = host.name;
    auto done = [&](HostProbeResult::Failure f, const QString& detail = {}) {
        r.failure = f;
        r.detail = detail;
        r.ms = clock.elapsed();
        return r;
    };
    if (cancelled(cancel)) return done(HostProbeResult::Cancelled);

    launch::SshConnection conn;
    RecordingPolicy recorder(policy);
    launch::HostKeyInfo key;
    // One try, holding a slot of the shared gate to the end: a launch's
    // handshakes are bounded the same way, and the slot also bounds how many
    // hosts run the core's test at once (hosts that are one machine, or a
    // shared login node, would otherwise time each other out).
    if (gate && !gate->acquire()) return done(HostProbeResult::Cancelled);
    const auto releaseSlot = qScopeGuard([gate] {
        if (gate) gate->release();
    });
    const QString error = qtMessage(conn.open(host, ssh, recorder, &key));
    if (cancelled(cancel)) return done(HostProbeResult::Cancelled);
    r.address = conn.hostname();
    r.user = conn.user();
    r.port = conn.port();
    r.keyType = key.keyType;
    r.keyFingerprint = key.fingerprint;
    if (!error.isEmpty()) {
        if (key.fingerprint.isEmpty()) return done(HostProbeResult::Unreachable, error);
        r.reachable = true;
        if (recorder.asked && recorder.decision == launch::HostKeyDecision::Reject)
            return done(HostProbeResult::HostKeyRefused, error);
        // The launcher's refusals of a known host's different key (ssh_connection.cpp).
        if (!recorder.asked && error.contains(QLatin1String("host key has CHANGED")))
            return done(HostProbeResult::HostKeyChanged, error);
        if (!recorder.asked && error.contains(QLatin1String("key of another type")))
            return done(HostProbeResult::HostKeyOtherType, error);
        r.keyChecked = true;
        if (error.contains(QLatin1String("permission denied")) || error.contains(QLatin1String("authentication failed")) ||
            error.contains(QLatin1String("public-key")))
            return done(HostProbeResult::NotAuthenticated, error);
        return done(HostProbeResult::Other, error);
    }
    r.reachable = r.keyChecked = r.authenticated = true;
    if (cancelled(cancel)) return done(HostProbeResult::Cancelled);

    QByteArray out;
    int status = -1;
    if (const Status ran = conn.run(kMachineScript, &out, &status, options.commandTimeoutMs); !ran)
        return done(HostProbeResult::Other, qtMessage(ran));
    readMachine(out, r);
    if (!options.runCore) return done(HostProbeResult::None);
    if (cancelled(cancel)) return done(HostProbeResult::Cancelled);
    if (!options.python.isEmpty()) {
        r.corePath = options.python;
        const Result<QByteArray> check = launch::shellCommand({options.python.toUtf8(), "-c", kPythonCheck});
        if (!check) return done(HostProbeResult::Other, qtMessage(check));
        out.clear();
        if (const Status ran = conn.run(check.value(), &out, &status, options.coreTimeoutMs, kMaxProbeOutput, true); !ran)
            return done(HostProbeResult::Other, qtMessage(ran));
        r.exitCode = status;
        if (status == 127 || status == 126) return done(HostProbeResult::PythonMissing);
        const HostProbeResult::Failure f = readPythonCheck(out, options.needCuda, r);
        return done(f, r.detail);
    }

    // The core's plan goes through SFTP, as a run's does, into a folder of
    // this probe's own: hosts that share a file system (a cluster's home) are
    // probed at once, and one must never read another's half-written plan.
    const QString folder = options.remoteDir + QStringLiteral("/probe-") + QUuid::createUuid().toString(QUuid::Id128).left(16);
    const Result<QString> uploaded = conn.upload(folder, QStringLiteral("plan.json"), probePlanJson());
    if (!uploaded) return done(HostProbeResult::Other, qtMessage(uploaded));
    const QString dir = uploaded.value();
    const auto removeFolder = qScopeGuard([&] {
        // Best effort: a folder left behind is named probe-* under the remote folder.
        const Result<QByteArray> rm = launch::shellCommand({"rm", "-f", "--", (dir + QStringLiteral("/plan.json")).toUtf8()});
        const Result<QByteArray> rmdir = launch::shellCommand({"rmdir", "--", dir.toUtf8()});
        QByteArray said;
        int code = -1;
        if (rm && rmdir) (void)conn.run(rm.value() + " && " + rmdir.value(), &said, &code, options.commandTimeoutMs);
    });
    QByteArray ports;
    (void)conn.run(launch::listeningPortsCommand(), &ports, &status, options.commandTimeoutMs); // none: any port
    const int port = launch::pickRendezvousPort(launch::listeningPorts(ports), false);
    QByteArrayList argv{"env"};
    for (const auto& [name, value] : probeEnvironment(port ? port : 29517)) argv << name + '=' + value;
    argv << options.remoteCore.toUtf8() << "--plan" << (dir + QStringLiteral("/plan.json")).toUtf8() << "--run-id" << "probe";
    const Result<QByteArray> command = launch::shellCommand(argv);
    if (!command) return done(HostProbeResult::Other, qtMessage(command));
    out.clear();
    status = -1;
    if (const QString e = qtMessage(conn.run(command.value(), &out, &status, options.coreTimeoutMs, kMaxProbeOutput, true)); !e.isEmpty())
        return done(e.contains(QLatin1String("timed out")) ? HostProbeResult::CoreTimeout : HostProbeResult::CoreFailed,
                    e.contains(QLatin1String("output was too long")) ? outputTooLong() : e);
    r.corePath = options.remoteCore;
    r.exitCode = status;
    // 127: not found on PATH; 126: found but not executable (POSIX shells).
    if (status == 127 || status == 126) return done(HostProbeResult::CoreMissing);
    r.coreFound = true;
    if (!readProbeOutput(out, r)) return done(HostProbeResult::CoreFailed, coreFailure(out));
    return done(HostProbeResult::None);
}

HostProbeResult probeLocalHost(const QString& corePath, const HostProbeOptions& options, const std::atomic<bool>* cancel)
{
    QElapsedTimer clock;
    clock.start();
    HostProbeResult r;
    r.local = true;
    r.reachable = r.keyChecked = r.authenticated = true;
    r.cpus = QThread::idealThreadCount();
    r.corePath = corePath;
    auto done = [&](HostProbeResult::Failure f, const QString& detail = {}) {
        r.failure = f;
        r.detail = detail;
        r.ms = clock.elapsed();
        return r;
    };
    const QString smi = QStandardPaths::findExecutable(QStringLiteral("nvidia-smi"));
    if (!smi.isEmpty()) {
        QProcess p;
        p.start(smi, {QStringLiteral("--query-gpu=name,memory.total"), QStringLiteral("--format=csv,noheader")});
        if (p.waitForFinished(options.commandTimeoutMs)) readMachine("@nvidia-smi\n" + p.readAllStandardOutput(), r);
    }
    if (!options.runCore) return done(HostProbeResult::None);
    if (cancelled(cancel)) return done(HostProbeResult::Cancelled);
    if (!options.python.isEmpty()) {
        r.corePath = options.python;
        QProcess p;
        p.setStandardInputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        p.start(options.python, {QStringLiteral("-c"), QString::fromLatin1(kPythonCheck)});
        if (!p.waitForStarted(10000)) return done(HostProbeResult::PythonMissing);
        const launch::BoundedOutput read = launch::readBoundedOutput(p, kMaxProbeOutput, options.coreTimeoutMs, cancel);
        if (read.outcome == launch::BoundedOutput::Cancelled) return done(HostProbeResult::Cancelled);
        if (read.outcome != launch::BoundedOutput::Finished) return done(HostProbeResult::Other, QStringLiteral("the Python check did not end in time"));
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        const HostProbeResult::Failure f = readPythonCheck(read.out, options.needCuda, r);
        return done(f, r.detail);
    }
    const QFileInfo core(corePath);
    if (!core.exists() || !core.isFile() || !core.isExecutable())
        return done(HostProbeResult::CoreMissing);
    r.coreFound = true;
    QTemporaryDir dir;
    QFile plan(dir.filePath(QStringLiteral("plan.json")));
    if (!dir.isValid() || !plan.open(QIODevice::WriteOnly) || plan.write(probePlanJson()) < 0)
        return done(HostProbeResult::Other, plan.errorString());
    plan.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    int port = launch::pickRendezvousPort({}, true);
    for (const auto& [name, value] : probeEnvironment(port ? port : 29517))
        env.insert(QString::fromUtf8(name), QString::fromUtf8(value));
    QProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(dir.path());
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice()); // the events are on stdout
    p.start(core.absoluteFilePath(), {QStringLiteral("--plan"), plan.fileName(), QStringLiteral("--run-id"), QStringLiteral("probe")});
    if (!p.waitForStarted(10000)) return done(HostProbeResult::CoreFailed, p.errorString());
    // Read as it comes, at most kMaxProbeOutput; a cancel is noticed within 100 ms.
    const launch::BoundedOutput read = launch::readBoundedOutput(p, kMaxProbeOutput, options.coreTimeoutMs, cancel);
    if (read.outcome == launch::BoundedOutput::Cancelled) return done(HostProbeResult::Cancelled);
    if (read.outcome == launch::BoundedOutput::TimedOut) return done(HostProbeResult::CoreTimeout);
    if (read.outcome == launch::BoundedOutput::TooLong) return done(HostProbeResult::CoreFailed, outputTooLong());
    const QByteArray& out = read.out;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (!readProbeOutput(out, r)) return done(HostProbeResult::CoreFailed, coreFailure(out));
    return done(HostProbeResult::None);
}

} // namespace sb::app
