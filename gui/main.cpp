// shardbench: the workbench. Everything lives in sb_gui; this only parses the
// command line and wires the window up.
#include "window/file_controller.hpp"
#include "window/language_manager.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("shardbench"));
    QApplication::setApplicationName(QStringLiteral("shardbench"));
    QApplication::setApplicationVersion(QStringLiteral(SB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/shardbench.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Design an FSDP2 sharding plan and see every rank's memory."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("plan"), QStringLiteral("A plan to open (JSON)."), QStringLiteral("[plan]"));
    parser.process(app);

    sb::gui::LanguageManager languages;
    languages.restore();
    sb::gui::MainWindow window(&languages);
    if (!parser.positionalArguments().isEmpty()) window.files()->openFile(parser.positionalArguments().constFirst());
    window.show();
    return QApplication::exec();
}
