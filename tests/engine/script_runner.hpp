// The exported FSDP2 script under the real PyTorch 2.x of SB_PYTHON, for the
// suites that compare it with shardbench-core: export, run, and read the
// losses both print.
#pragma once

#include <cmath>

#include "local_runner.hpp"

#include "plan/plan.hpp"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <vector>

// ctest sets SB_SOURCE_DIR and SB_PYTHON (the project's environment, with PyTorch 2.x).
QString python();
QString sourcePath(const QString& relative); // under SB_SOURCE_DIR

struct StepLine {
    double loss = 0, gradNorm = 0;
    double evalLoss = std::nan(""); // the validation loss, on the steps that took it
};

struct ScriptRun {
    int exitCode = -1;
    QString out, err; // rank 0's, or the first failing rank's
    std::vector<StepLine> steps;
    QString describe() const;
};

// Writes `plan` as DIR/NAME.plan.json and exports it as DIR/NAME.py; "" when export-script fails.
QString exportScript(const QTemporaryDir& dir, const sb::Plan& plan, const QString& name);
// `world` processes of the script with torchrun's environment, under `interpreter`:
// the spy logging to `log` around the real FSDP2, or the script alone when `log` is empty.
ScriptRun runScript(const QString& script, int world, const QString& log, const QStringList& args = {},
                    const QString& interpreter = python());
// A script of the project's Python (SB_PYTHON), run as a fork of the suite's
// zygote (python_zygote.hpp); exitCode -1 when it was killed or timed out.
struct PythonRun {
    int exitCode = -1;
    QString out, err;
    bool ok() const { return exitCode == 0; }
};
PythonRun runPython(const QStringList& args, int timeoutMs = 300000);
// The "step N loss L grad_norm G ... [val_loss V]" lines of the script's output.
std::vector<StepLine> scriptSteps(const QString& out);
std::vector<StepLine> coreSteps(const RankResult& rank);
// Largest relative difference of the losses and of the gradient norms (infinite when the counts differ).
double worstDifference(const std::vector<StepLine>& a, const std::vector<StepLine>& b);
// Whether SB_PYTHON has PyTorch 2.x with fully_shard and numpy (the zygote started).
bool haveTorch2();

// In a suite's initTestCase: skips without PyTorch 2.x at SB_PYTHON, fails on CI (which must have it).
#define SB_REQUIRE_TORCH2()                                                                                          \
    do {                                                                                                               \
        const bool ok = haveTorch2();                                                                                  \
        if (!ok && qEnvironmentVariableIsSet("CI")) QFAIL("no PyTorch 2.x at SB_PYTHON: scripts/install-deps.sh makes the environment"); \
        if (!ok) QSKIP("no PyTorch 2.x at SB_PYTHON (scripts/install-deps.sh makes the project's environment)");    \
    } while (false)
