// The messages of a Qt Linguist .ts file, for the tests that hold the
// translations to the code (tst_gui_translations, tst_gui_problems).
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sb::gui::test {

struct TsMessage {
    QString context;
    QString source;
    QString type;          // translation type attribute: "", "unfinished", "vanished", "obsolete"
    QStringList forms;     // the translation, or its numerus forms
    bool numerus = false;
};

// Every message in file order; `error` names the file and the problem.
QList<TsMessage> readTsFile(const QString& path, QString* error);

} // namespace sb::gui::test
