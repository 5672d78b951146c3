#include "hf_journey.hpp"

#include <QProcess>

namespace sb::test {

namespace {

struct Ran {
    bool ok = false;
    QString out, err;
};

Ran runPython(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(qEnvironmentVariable("SB_PYTHON"), args);
    Ran r;
    r.ok = p.waitForFinished(timeoutMs) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

QString transformersMissing()
{
    if (!qEnvironmentVariableIsSet("SB_PYTHON")) return QStringLiteral("SB_PYTHON is not set (ctest sets it; scripts/install-deps.sh makes .venv)");
    const Ran r = runPython({QStringLiteral("-c"), QStringLiteral("import numpy, torch, transformers")}, 120000);
    return r.ok ? QString() : QStringLiteral("SB_PYTHON lacks numpy, torch or transformers (scripts/install-deps.sh): ") + r.err.right(500);
}

QString hfJourney(const QStringList& args)
{
    const QString script = qEnvironmentVariable("SB_SOURCE_DIR") + QStringLiteral("/tests/launcher/support/hf_journey.py");
    const Ran r = runPython(QStringList{script} + args, 300000);
    if (r.ok) return r.out.isNull() ? QStringLiteral("") : r.out;
    qWarning("hf_journey.py %s: %s%s", qPrintable(args.join(QLatin1Char(' '))), qPrintable(r.out), qPrintable(r.err));
    return QString();
}

} // namespace sb::test
