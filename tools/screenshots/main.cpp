// shardbench-screenshots: the developer tool behind scripts/screenshots.sh. It
// opens the real workbench window, grabs each view into PNG files and quits;
// the shipped shardbench has no such option.
#include "screenshot_runner.hpp"
#include "window/language_manager.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    // The workbench's own names, so settings and the data folder are where the workbench keeps them.
    QApplication::setOrganizationName(QStringLiteral("shardbench"));
    QApplication::setApplicationName(QStringLiteral("shardbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/shardbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Write a PNG of each view of the workbench, then quit."));
    parser.addHelpOption();
    QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Where the PNG files go."), QStringLiteral("dir"));
    parser.addOption(out);
    QCommandLineOption source(QStringLiteral("source-dir"), QStringLiteral("The repository (for examples/)."),
                              QStringLiteral("dir"), QStringLiteral("."));
    parser.addOption(source);
    parser.process(app);
    if (!parser.isSet(out)) {
        parser.showHelp(2);
    }

    sb::gui::LanguageManager languages;
    languages.restore();
    sb::gui::MainWindow window(&languages);
    return sb::gui::runScreenshots(window, parser.value(out), parser.value(source));
}
