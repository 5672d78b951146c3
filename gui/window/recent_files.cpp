#include "recent_files.hpp"

#include "settings/setting.hpp"

#include <QDir>
#include <QFileInfo>
#include <QMenu>

namespace sb::gui {

using app::Setting;

namespace {
const Setting<QStringList> kRecent{QStringLiteral("files/recent")};
} // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {}

QStringList RecentFiles::files() const { return kRecent.value(); }

void RecentFiles::add(const QString& path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMax) list.removeLast();
    kRecent.setValue(list);
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = files();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    kRecent.setValue(list);
}

void RecentFiles::clear() { kRecent.setValue({}); }

void RecentFiles::fillMenu(QMenu* menu)
{
    menu->clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString path = list[i];
        const QString text = QStringLiteral("&%1 %2").arg(i + 1).arg(QDir::toNativeSeparators(path));
        menu->addAction(text, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (list.isEmpty()) menu->addAction(tr("No recent plans"))->setEnabled(false);
    menu->addSeparator();
    menu->addAction(tr("Clear list"), this, &RecentFiles::clear)->setEnabled(!list.isEmpty());
}

} // namespace sb::gui
