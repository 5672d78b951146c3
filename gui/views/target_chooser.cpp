#include "target_chooser.hpp"

#include "session/host_catalog.hpp"

#include <QButtonGroup>
#include <QEvent>
#include <QListWidget>
#include <QRadioButton>
#include <QSet>
#include <QVBoxLayout>

namespace sb::gui {

namespace {
constexpr int NameRole = Qt::UserRole + 1;
constexpr int SlotsRole = Qt::UserRole + 2;
} // namespace

TargetChooser::TargetChooser(HostCatalog* catalog, QWidget* parent)
    : QWidget(parent), catalog_(catalog), local_(new QRadioButton), remote_(new QRadioButton), hosts_(new QListWidget)
{
    local_->setObjectName(QStringLiteral("targetLocal"));
    remote_->setObjectName(QStringLiteral("targetHosts"));
    hosts_->setObjectName(QStringLiteral("targetHostList"));
    auto* group = new QButtonGroup(this);
    group->addButton(local_);
    group->addButton(remote_);
    local_->setChecked(true);
    hosts_->setEnabled(false);
    hosts_->setMaximumHeight(110);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(local_);
    layout->addWidget(remote_);
    layout->addWidget(hosts_);
    connect(remote_, &QRadioButton::toggled, this, [this](bool on) {
        hosts_->setEnabled(on);
        Q_EMIT changed();
    });
    connect(hosts_, &QListWidget::itemChanged, this, &TargetChooser::changed);
    connect(catalog_, &HostCatalog::changed, this, &TargetChooser::reload);
    reload();
    retranslateUi();
}

void TargetChooser::reload()
{
    QSet<QString> checked;
    for (int i = 0; i < hosts_->count(); ++i)
        if (hosts_->item(i)->checkState() == Qt::Checked) checked << hosts_->item(i)->data(NameRole).toString();
    const QSignalBlocker block(hosts_);
    hosts_->clear();
    for (const HostEntry& h : catalog_->hosts()) {
        auto* item = new QListWidgetItem(hosts_);
        item->setData(NameRole, h.name);
        item->setData(SlotsRole, h.gpus);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(h.name) ? Qt::Checked : Qt::Unchecked);
    }
    retranslateUi();
    Q_EMIT changed();
}

LaunchTarget TargetChooser::target() const
{
    LaunchTarget t;
    t.local = local_->isChecked();
    if (t.local) return t;
    for (int i = 0; i < hosts_->count(); ++i) {
        const QListWidgetItem* item = hosts_->item(i);
        if (item->checkState() != Qt::Checked) continue;
        t.hosts << launch::HostSpec{item->data(NameRole).toString(), item->data(SlotsRole).toInt()};
    }
    return t;
}

void TargetChooser::setLocal(bool local) { (local ? local_ : remote_)->setChecked(true); }

void TargetChooser::setHostChecked(const QString& name, bool checked)
{
    for (int i = 0; i < hosts_->count(); ++i)
        if (hosts_->item(i)->data(NameRole).toString() == name) hosts_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void TargetChooser::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void TargetChooser::retranslateUi()
{
    local_->setText(tr("This machine"));
    remote_->setText(tr("These hosts (over SSH):"));
    for (int i = 0; i < hosts_->count(); ++i) {
        QListWidgetItem* item = hosts_->item(i);
        const int slots = item->data(SlotsRole).toInt();
        const QString name = item->data(NameRole).toString();
        item->setText(slots > 0 ? tr("%1 (%n rank(s))", nullptr, slots).arg(name) : tr("%1 (the plan's ranks per node)").arg(name));
    }
}

} // namespace sb::gui
