// A typed value in the user's settings. Each one is declared next to its only
// reader, so a key and its default never drift apart (Tiled's preferences.h).
#pragma once

#include <QSettings>
#include <QString>
#include <QVariant>

#include <utility>

namespace sb::app {

template <typename T>
class Setting {
public:
    explicit Setting(QString key, T defaultValue = T{}) : key_(std::move(key)), default_(std::move(defaultValue)) {}

    T value() const { return value(default_); }
    T value(const T& fallback) const
    {
        const QVariant v = QSettings().value(key_);
        return v.isValid() && v.canConvert<T>() ? v.value<T>() : fallback;
    }
    void setValue(const T& value) const { QSettings().setValue(key_, QVariant::fromValue(value)); }
    void reset() const { QSettings().remove(key_); }
    const QString& key() const { return key_; }
    const T& defaultValue() const { return default_; }

private:
    QString key_;
    T default_;
};

} // namespace sb::app
