// The interface language: loads the compiled translations embedded under
// :/i18n, installs them (Qt then sends every widget a LanguageChange, and
// each retranslates itself), sets the default locale for numbers, and
// remembers the choice.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QTranslator;

namespace sb::gui {

struct Language {
    QString code;       // "de", "zh_CN"; "en" is the source language
    QString nativeName; // shown untranslated in the menu: "Deutsch"
};

class LanguageManager : public QObject {
    Q_OBJECT
public:
    explicit LanguageManager(QObject* parent = nullptr);
    ~LanguageManager() override;

    static QList<Language> languages();
    // The chosen language, "" when following the system.
    QString language() const { return chosen_; }
    // The language in use after resolving "" against the system locale.
    QString effectiveLanguage() const { return effective_; }
    // Switches (and remembers) the language; "" follows the system. False when
    // no translation of that language is built in.
    bool setLanguage(const QString& code);
    // Applies the remembered choice (at start-up).
    void restore();

Q_SIGNALS:
    void languageChanged(const QString& code);

private:
    bool apply(const QString& code);

    QTranslator* app_;
    QTranslator* qt_;
    QString chosen_;
    QString effective_ = QStringLiteral("en");
};

} // namespace sb::gui
