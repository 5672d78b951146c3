#include "script_runner.hpp"

#include "engine_support.hpp"
#include "python_zygote.hpp"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

#include <cmath>
#include <memory>

QString python() { return qEnvironmentVariable("SB_PYTHON"); }

QString sourcePath(const QString& relative) { return qEnvironmentVariable("SB_SOURCE_DIR") + QLatin1Char('/') + relative; }

QString ScriptRun::describe() const { return QStringLiteral("exit %1\n%2\n%3").arg(exitCode).arg(out.right(2000), err.right(2000)); }

QString exportScript(const QTemporaryDir& dir, const sb::Plan& plan, const QString& name)
{
    const QString planPath = writePlan(dir, name + QStringLiteral(".plan.json"), plan);
    const QString script = dir.filePath(name + QStringLiteral(".py"));
    QProcess cli;
    cli.start(LocalRunner::cliPath(),
              {QStringLiteral("export-script"), planPath, QStringLiteral("-o"), script});
    if (planPath.isEmpty() || !cli.waitForFinished(60000) || cli.exitCode() != 0) return QString();
    return script;
}

ScriptRun runScript(const QString& script, int world, const QString& log, const QStringList& args, const QString& interpreter)
{
    const QStringList spy = log.isEmpty() ? QStringList{} : QStringList{sourcePath(QStringLiteral("tests/engine/data/fsdp2/spy.py")), log};
    const QStringList argv = spy + QStringList{script} + args;
    ScriptRun run;
    auto keep = [&](int rank, int exitCode, const QString& out, const QString& err) {
        if (rank != 0 && exitCode == 0) return;
        run.exitCode = exitCode;
        run.out = out;
        run.err = err;
    };
    if (interpreter == python()) {
        // The project's Python: each rank is a fork of the suite's zygote.
        PythonZygote& zygote = PythonZygote::instance();
        for (int attempt = 0;; ++attempt) {
            const int port = LocalRunner::freePort();
            std::vector<PythonZygote::Child> ranks;
            for (int r = 0; r < world; ++r) {
                QProcessEnvironment env = LocalRunner::rankEnvironment(r, world, port);
                env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
                ranks.push_back(zygote.start(argv, env));
            }
            // Rank 0 first: a port picked free can be taken by another suite's
            // process before rank 0's store binds it (the suites run side by
            // side). Then the other ranks wait on a server that is not theirs:
            // they are stopped and the run starts again on another port.
            const PythonZygote::Ended first = zygote.wait(ranks[0], 240000);
            if (first.exitCode != 0 && LocalRunner::rendezvousPortTaken(first.err) && attempt < 2) {
                for (int r = 1; r < world; ++r) {
                    zygote.kill(ranks[static_cast<std::size_t>(r)]);
                    zygote.wait(ranks[static_cast<std::size_t>(r)], 10000);
                }
                continue;
            }
            for (int r = world - 1; r >= 1; --r) {
                const PythonZygote::Ended e = zygote.wait(ranks[static_cast<std::size_t>(r)], 240000);
                keep(r, e.exitCode, e.out, e.err);
            }
            keep(0, first.exitCode, first.out, first.err);
            break;
        }
    } else {
        QProcessEnvironment env;
        env.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        const std::vector<std::unique_ptr<QProcess>> procs = LocalRunner::start(world, argv, env, interpreter);
        for (int r = world - 1; r >= 0; --r) {
            QProcess& p = *procs[static_cast<std::size_t>(r)];
            if (!p.waitForFinished(240000)) p.kill();
            p.waitForFinished();
            keep(r, p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
                 QString::fromUtf8(p.readAllStandardError()));
        }
    }
    run.steps = scriptSteps(run.out);
    return run;
}

PythonRun runPython(const QStringList& args, int timeoutMs)
{
    PythonZygote& zygote = PythonZygote::instance();
    const PythonZygote::Ended e = zygote.wait(zygote.start(args), timeoutMs);
    return {e.exitCode, e.out, e.err};
}

std::vector<StepLine> scriptSteps(const QString& out)
{
    static const QRegularExpression line(QStringLiteral("^step \\d+ loss (\\S+) grad_norm (\\S+)(?:[^\\n]* val_loss (\\S+))?"),
                                         QRegularExpression::MultilineOption);
    std::vector<StepLine> steps;
    for (auto it = line.globalMatch(out); it.hasNext();) {
        const auto m = it.next();
        steps.push_back({m.captured(1).toDouble(), m.captured(2).toDouble(),
                         m.hasCaptured(3) ? m.captured(3).toDouble() : std::nan("")});
    }
    return steps;
}

std::vector<StepLine> coreSteps(const RankResult& rank)
{
    std::vector<StepLine> out;
    for (const QJsonObject& e : rank.ofType(QStringLiteral("step")))
        out.push_back({e.value(QStringLiteral("loss")).toDouble(), e.value(QStringLiteral("grad_norm")).toDouble(),
                       e.value(QStringLiteral("eval_loss")).toDouble(std::nan(""))});
    return out;
}

double worstDifference(const std::vector<StepLine>& a, const std::vector<StepLine>& b)
{
    if (a.size() != b.size() || a.empty()) return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        worst = std::max(worst, std::abs(a[i].loss - b[i].loss) / std::abs(b[i].loss));
        worst = std::max(worst, std::abs(a[i].gradNorm - b[i].gradNorm) / std::abs(b[i].gradNorm));
    }
    return worst;
}

bool haveTorch2()
{
    // The zygote imports torch, FSDP2 (fully_shard is 2.x) and numpy, or says why not.
    const QString error = PythonZygote::instance().error();
    if (!error.isEmpty()) qWarning("%s", qPrintable(error));
    return error.isEmpty();
}
