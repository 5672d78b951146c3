// The plans opened or saved last, newest first, kept in the settings.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace sb::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 8;
    explicit RecentFiles(QObject* parent = nullptr);

    QStringList files() const;
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
    // Rebuilds `menu` with one entry per file and a "clear" entry.
    void fillMenu(QMenu* menu);

Q_SIGNALS:
    void openRequested(const QString& path);
};

} // namespace sb::gui
