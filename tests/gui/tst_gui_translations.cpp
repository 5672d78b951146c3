// The shipped .ts files are complete: no unfinished, vanished or obsolete
// entry, every translation (and every plural form) filled in with the same
// placeholders as its source, and every string lupdate finds in gui/ present.
#include "ts_file.hpp"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void complete_data();
    void complete();
    void coversEverySourceString_data() { complete_data(); }
    void coversEverySourceString();
};

namespace {

using Message = sb::gui::test::TsMessage;
QList<Message> readTs(const QString& path, QString* error) { return sb::gui::test::readTsFile(path, error); }

QStringList placeholders(const QString& s)
{
    static const QRegularExpression re(QStringLiteral("%(\\d|n)"));
    QStringList out;
    for (auto it = re.globalMatch(s); it.hasNext();) out << it.next().captured(0);
    out.sort();
    out.removeDuplicates();
    return out;
}

QString tsPath(const QString& language)
{
    return QDir(qEnvironmentVariable("SB_SOURCE_DIR")).filePath(QStringLiteral("translations/shardbench_%1.ts").arg(language));
}

} // namespace

void TestTranslations::complete_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("German") << QStringLiteral("de");
    QTest::newRow("Simplified Chinese") << QStringLiteral("zh_CN");
}

void TestTranslations::complete()
{
    QFETCH(QString, language);
    QString error;
    const QList<Message> messages = readTs(tsPath(language), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(messages.size() > 100);
    for (const Message& m : messages) {
        const QString where = m.context + QStringLiteral(": ") + m.source;
        QVERIFY2(m.type.isEmpty(), qPrintable(m.type + QStringLiteral(" entry: ") + where));
        QVERIFY2(!m.forms.isEmpty(), qPrintable(where));
        for (const QString& form : m.forms) {
            QVERIFY2(!form.trimmed().isEmpty(), qPrintable(QStringLiteral("empty translation: ") + where));
            QStringList expected = placeholders(m.source);
            QStringList got = placeholders(form);
            // A plural form may spell out the number ("one unit") instead of %n.
            if (m.numerus) {
                expected.removeAll(QStringLiteral("%n"));
                got.removeAll(QStringLiteral("%n"));
            }
            QVERIFY2(expected == got, qPrintable(QStringLiteral("placeholders differ: ") + where + QStringLiteral(" -> ") + form));
        }
    }
}

void TestTranslations::coversEverySourceString()
{
    QFETCH(QString, language);
    QTemporaryDir dir;
    const QString fresh = dir.filePath(QStringLiteral("fresh.ts"));
    QProcess lupdate;
    lupdate.start(QStringLiteral(SB_LUPDATE),
                  {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"), QStringLiteral("-silent"),
                   QDir(qEnvironmentVariable("SB_SOURCE_DIR")).filePath(QStringLiteral("gui")), QStringLiteral("-ts"), fresh});
    QVERIFY(lupdate.waitForFinished(120000));
    QCOMPARE(lupdate.exitCode(), 0);
    QString error;
    QSet<QString> shipped, found;
    for (const Message& m : readTs(tsPath(language), &error)) shipped << m.context + u'\x1f' + m.source;
    for (const Message& m : readTs(fresh, &error)) found << m.context + u'\x1f' + m.source;
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QSet<QString> missing = found - shipped;
    const QSet<QString> stale = shipped - found;
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("not in the .ts: ") + QStringList(missing.values()).join(u'|')));
    QVERIFY2(stale.isEmpty(), qPrintable(QStringLiteral("no longer in gui/: ") + QStringList(stale.values()).join(u'|')));
}

QTEST_APPLESS_MAIN(TestTranslations)
#include "tst_gui_translations.moc"
