#include "language_manager.hpp"

#include "settings/setting.hpp"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sb::gui {

using app::Setting;

namespace {
const Setting<QString> kLanguage{QStringLiteral("ui/language")};

QString resolve(const QString& code)
{
    if (!code.isEmpty()) return code;
    const QString system = QLocale::system().name(); // "de_DE", "zh_CN"
    for (const Language& l : LanguageManager::languages())
        if (system == l.code || system.section(u'_', 0, 0) == l.code) return l.code;
    return QStringLiteral("en");
}
} // namespace

LanguageManager::LanguageManager(QObject* parent)
    : QObject(parent), app_(new QTranslator(this)), qt_(new QTranslator(this))
{
}

LanguageManager::~LanguageManager() = default;

QList<Language> LanguageManager::languages()
{
    return {
        {QStringLiteral("en"), QStringLiteral("English")},
        {QStringLiteral("de"), QStringLiteral("Deutsch")},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文")},
    };
}

bool LanguageManager::setLanguage(const QString& code)
{
    if (!apply(code)) return false;
    kLanguage.setValue(code);
    return true;
}

void LanguageManager::restore()
{
    if (!apply(kLanguage.value())) apply(QString());
}

bool LanguageManager::apply(const QString& code)
{
    const QString effective = resolve(code);
    auto* next = new QTranslator(this);
    if (effective != u"en" && !next->load(QStringLiteral(":/i18n/shardbench_") + effective)) {
        delete next;
        return false;
    }
    QCoreApplication::removeTranslator(app_);
    QCoreApplication::removeTranslator(qt_);
    delete app_;
    app_ = next;
    // Qt's own strings (standard dialogs), when the system has them installed.
    if (qt_->load(QStringLiteral("qtbase_") + effective, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt_);
    QLocale::setDefault(QLocale(effective));
    chosen_ = code;
    effective_ = effective;
    // Installing posts LanguageChange to every widget; English still needs one.
    if (effective == u"en") {
        QEvent change(QEvent::LanguageChange);
        QCoreApplication::sendEvent(QCoreApplication::instance(), &change);
    } else {
        QCoreApplication::installTranslator(app_);
    }
    Q_EMIT languageChanged(effective);
    return true;
}

} // namespace sb::gui
