// Switching to German from the language menu retranslates the open window.
#include "gui_test_support.hpp"

#include "models/plan_tree_model.hpp"
#include "views/memory_view.hpp"
#include "views/plan_tree_view.hpp"
#include "window/language_manager.hpp"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTest>

using namespace sb::gui;

class TestLanguage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateSettings(); }
    void germanFromTheMenu();
    void chineseAndBack();
};

static QAction* languageAction(MainWindow& w, const QString& code)
{
    for (QAction* a : w.actions().languages)
        if (a->data().toString() == code) return a;
    return nullptr;
}

void TestLanguage::germanFromTheMenu()
{
    test::Workbench w;
    QCOMPARE(w->actions().file->title(), QStringLiteral("&File"));
    QAction* german = languageAction(*w.window, QStringLiteral("de"));
    QVERIFY(german);
    QCOMPARE(german->text(), QStringLiteral("Deutsch"));
    german->trigger();
    QTRY_COMPARE(w->actions().file->title(), QStringLiteral("&Datei"));
    QCOMPARE(w->languages()->effectiveLanguage(), QStringLiteral("de"));
    QVERIFY(german->isChecked());
    QCOMPARE(w->actions().edit->title(), QStringLiteral("&Bearbeiten"));
    QCOMPARE(w->problemsDock()->windowTitle(), QStringLiteral("Probleme"));
    QCOMPARE(w->planTreeModel()->headerData(PlanTreeModel::NameColumn, Qt::Horizontal).toString(), QStringLiteral("Modul"));
    QVERIFY2(w->memoryView()->verdictText().startsWith(QStringLiteral("Passt")), qPrintable(w->memoryView()->verdictText()));
    // The choice is remembered for the next start.
    {
        LanguageManager next;
        next.restore();
        QCOMPARE(next.language(), QStringLiteral("de"));
    }

    languageAction(*w.window, QStringLiteral("en"))->trigger();
    QTRY_COMPARE(w->actions().file->title(), QStringLiteral("&File"));
    QVERIFY(w->memoryView()->verdictText().startsWith(QStringLiteral("Fits")));
}

void TestLanguage::chineseAndBack()
{
    test::Workbench w;
    languageAction(*w.window, QStringLiteral("zh_CN"))->trigger();
    QTRY_VERIFY(w->actions().file->title() != QStringLiteral("&File"));
    QVERIFY(w->actions().file->title().contains(QStringLiteral("文件")));
    languageAction(*w.window, QStringLiteral("en"))->trigger();
    QTRY_COMPARE(w->actions().file->title(), QStringLiteral("&File"));
}

QTEST_MAIN(TestLanguage)
#include "tst_gui_language.moc"
