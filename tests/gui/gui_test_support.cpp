#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "settings/run_settings.hpp"
#include "views/memory_view.hpp"
#include "window/file_controller.hpp"
#include "window/language_manager.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTest>
#include <QValueAxis>

#include <cmath>

namespace sb::gui::test {

using app::RunSettings;

void isolateSettings()
{
    static QTemporaryDir dir;
    QCoreApplication::setOrganizationName(QStringLiteral("shardbench-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("shardbench"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    // Data files (a generated SSH config, launched plans) never go to the real home.
    qputenv("XDG_DATA_HOME", QFile::encodeName(dir.filePath(QStringLiteral("data"))));
}

Workbench::Workbench() : languages(new LanguageManager), window(new MainWindow(languages.get()))
{
    window->files()->setInteractive(false);
    window->resize(1400, 900);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get())) qWarning("the main window was not exposed");
    waitForMemoryView(*window);
}

Workbench::~Workbench()
{
    window.reset();
    languages->setLanguage(QStringLiteral("en"));
}

bool waitForMemoryView(MainWindow& w)
{
    return QTest::qWaitFor([&] { return w.memoryView()->shownRevision() == w.document()->revision(); }, 5000);
}

int moduleIndex(const MainWindow& w, const char* path) { return w.document()->tree().findModule(path); }

QStringList tickLabels(const QValueAxis* axis)
{
    QStringList out;
    const double step = axis->tickInterval();
    if (!(step > 0)) return out;
    const QByteArray format = axis->labelFormat().toLatin1();
    for (double v = std::ceil((axis->min() - axis->tickAnchor()) / step) * step + axis->tickAnchor(); v <= axis->max() + step * 1e-9;
         v += step)
        out << QString::asprintf(format.constData(), v);
    return out;
}

void useRunFolder(const QString& dir)
{
    QDir().mkpath(dir);
    RunSettings::corePath.setValue(binPath(QStringLiteral("shardbench-core")));
    RunSettings::storePath.setValue(QDir(dir).filePath(QStringLiteral("runs.sqlite")));
    RunSettings::launchDir.setValue(QDir(dir).filePath(QStringLiteral("launches")));
}

QString binPath(const QString& name) { return QDir(qEnvironmentVariable("SB_BIN_DIR")).filePath(name); }

QString writeTinyPlan(const QString& path, int steps, const QStringList& moreOptions)
{
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(binPath(QStringLiteral("shardbench-cli")),
              QStringList{QStringLiteral("plan"), QStringLiteral("--preset"), QStringLiteral("transformer"), QStringLiteral("--vocab"),
               QStringLiteral("64"), QStringLiteral("--dim"), QStringLiteral("32"), QStringLiteral("--layers"), QStringLiteral("2"),
               QStringLiteral("--heads"), QStringLiteral("2"), QStringLiteral("--max-seq"), QStringLiteral("16"),
               QStringLiteral("--seq"), QStringLiteral("16"), QStringLiteral("--batch"), QStringLiteral("2"),
               QStringLiteral("--procs-per-node"), QStringLiteral("2"), QStringLiteral("--steps"), QString::number(steps),
               QStringLiteral("-o"), path} + moreOptions);
    if (!cli.waitForFinished(30000) || cli.exitCode() != 0) return QString::fromUtf8(cli.readAll()) + cli.errorString();
    return {};
}

QString sourcePath(const QString& relative)
{
    return QDir(qEnvironmentVariable("SB_SOURCE_DIR")).filePath(relative);
}

int runOnLaptopScreen(int argc, char** argv, const std::function<int(int, char**)>& exec)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly)) return 2;
    f.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    f.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config));
    QApplication app(argc, argv);
    return exec(argc, argv);
}

} // namespace sb::gui::test
