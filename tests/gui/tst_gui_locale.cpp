// Issue 14 §5: every area in German and Chinese. The test walks each area
// (Plan with the Setup and Problems panels, Cluster, Run, Runs, Checkpoints)
// and fails on a visible text that stayed English, on a table header cut
// short, and on numbers written the English way (fields, chart axes, dates).
#include "gui_test_support.hpp"

#include "document/plan_document.hpp"
#include "views/header_fit.hpp"
#include "views/model_panel.hpp"
#include "views/number_field.hpp"
#include "views/series_chart.hpp"
#include "window/language_manager.hpp"

#include <QAbstractButton>
#include <QChart>
#include <QGroupBox>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sb;
using namespace sb::gui;

class TestLocale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everyAreaInTheLanguage_data();
    void everyAreaInTheLanguage();

private:
    QTemporaryDir dir_;
};

namespace {

// Texts that read the same in every language: names, units, symbols.
bool sameEverywhere(const QString& text)
{
    static const QStringList kept = {QStringLiteral("shardbench"), QStringLiteral("Beta 1"), QStringLiteral("Beta 2"),
                                     QStringLiteral("Epsilon"), QStringLiteral("Seed"), QStringLiteral("Batch"),
                                     QStringLiteral("Checkpoints"), QStringLiteral("Weight Decay"), QStringLiteral("HSDP"),
                                     // German writes these as English does
                                     QStringLiteral("Training"), QStringLiteral("Name"), QStringLiteral("Checkpoints…"),
                                     QStringLiteral("Plan"), QStringLiteral("Cluster"), QStringLiteral("Export")};
    if (kept.contains(text) || text.startsWith(u'-')) return true; // and command-line options ("--partition")
    // Nothing to translate: numbers, sizes, paths, product and model names.
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{4,}"));
    return !word.match(text).hasMatch();
}

QString visibleText(QWidget* w)
{
    if (auto* l = qobject_cast<QLabel*>(w)) return l->text();
    if (auto* b = qobject_cast<QAbstractButton*>(w)) return b->text();
    if (auto* g = qobject_cast<QGroupBox*>(w)) return g->title();
    return {};
}

// Every visible text of the window's current state, by widget.
QHash<QWidget*, QString> texts(QWidget* window)
{
    QHash<QWidget*, QString> out;
    for (QWidget* w : window->findChildren<QWidget*>()) {
        if (!w->isVisible()) continue;
        const QString t = visibleText(w);
        if (!t.trimmed().isEmpty()) out.insert(w, t);
    }
    return out;
}

} // namespace

void TestLocale::initTestCase()
{
    test::isolateSettings();
    QVERIFY(dir_.isValid());
    test::useRunFolder(dir_.path());
}

void TestLocale::everyAreaInTheLanguage_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("German") << QStringLiteral("de");
    QTest::newRow("Simplified Chinese") << QStringLiteral("zh_CN");
}

void TestLocale::everyAreaInTheLanguage()
{
    QFETCH(QString, language);
    test::Workbench w;
    w->languages()->setLanguage(QStringLiteral("en"));
    QTabWidget* tabs = w->areaTabs();
    QList<QHash<QWidget*, QString>> english;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QCoreApplication::processEvents();
        english << texts(w.window.get());
    }
    QVERIFY(w->languages()->setLanguage(language));
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QStringList untranslated, clipped;
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QCoreApplication::processEvents();
        const QHash<QWidget*, QString> now = texts(w.window.get());
        for (auto it = now.begin(); it != now.end(); ++it)
            if (english[i].value(it.key()) == it.value() && !sameEverywhere(it.value()))
                untranslated << it.key()->objectName() + QStringLiteral(" \"") + it.value() + u'"';
        for (QHeaderView* h : w->findChildren<QHeaderView*>()) {
            if (!h->isVisible() || h->orientation() != Qt::Horizontal) continue;
            for (int s : clippedSections(h))
                clipped << h->model()->headerData(s, Qt::Horizontal).toString();
        }
    }
    untranslated.removeDuplicates();
    clipped.removeDuplicates();
    QVERIFY2(untranslated.isEmpty(), qPrintable(QStringLiteral("still English: ") + untranslated.join(QStringLiteral(", "))));
    QVERIFY2(clipped.isEmpty(), qPrintable(QStringLiteral("cut short: ") + clipped.join(QStringLiteral(", "))));

    // Numbers as the language writes them: fields and chart axes.
    const QLocale locale(language);
    const std::int64_t vocab = w->document()->plan().model.vocabSize;
    QCOMPARE(w->modelPanel()->sizeBox(ModelPanel::Vocab)->text(), locale.toString(static_cast<qlonglong>(vocab)));
    for (SeriesChart* chart : w->findChildren<SeriesChart*>()) {
        QVERIFY(chart->chart()->localizeNumbers());
        QCOMPARE(chart->chart()->locale().language(), locale.language());
    }
    w->languages()->setLanguage(QStringLiteral("en"));
}

QTEST_MAIN(TestLocale)
#include "tst_gui_locale.moc"
