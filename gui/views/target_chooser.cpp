#include "target_chooser.hpp"

#include "named_widget.hpp"

#include "hosts/host_catalog.hpp"

#include <QButtonGroup>
#include <QEvent>
#include <QFormLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QRadioButton>
#include <QSet>
#include <QVBoxLayout>

namespace sb::gui {

using app::HostCatalog;
using app::HostEntry;
using launch::LaunchTarget;

namespace {
constexpr int NameRole = Qt::UserRole + 1;
constexpr int SlotsRole = Qt::UserRole + 2;
} // namespace

TargetChooser::TargetChooser(HostCatalog* catalog, QWidget* parent)
    : Retranslated<QWidget>(parent), catalog_(catalog), local_(named<QRadioButton>("targetLocal")),
      remote_(named<QRadioButton>("targetHosts")), hosts_(named<QListWidget>("targetHostList")),
      slurm_(named<QRadioButton>("targetSlurm")), slurmForm_(new QWidget), partition_(named<QLineEdit>("slurmPartition")),
      account_(named<QLineEdit>("slurmAccount")), timeLimit_(named<QLineEdit>("slurmTime"))
{
    auto* group = new QButtonGroup(this);
    group->addButton(local_);
    group->addButton(remote_);
    group->addButton(slurm_);
    auto* form = new QFormLayout(slurmForm_);
    form->setContentsMargins(20, 0, 0, 0);
    form->addRow(QStringLiteral("--partition"), partition_);
    form->addRow(QStringLiteral("--account"), account_);
    form->addRow(QStringLiteral("--time"), timeLimit_);
    slurmForm_->setEnabled(false);
    local_->setChecked(true);
    hosts_->setEnabled(false);
    hosts_->setMaximumHeight(110);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(local_);
    layout->addWidget(remote_);
    layout->addWidget(hosts_);
    layout->addWidget(slurm_);
    layout->addWidget(slurmForm_);
    connect(remote_, &QRadioButton::toggled, this, [this](bool on) {
        hosts_->setEnabled(on);
        Q_EMIT changed();
    });
    connect(slurm_, &QRadioButton::toggled, this, [this](bool on) {
        slurmForm_->setEnabled(on);
        Q_EMIT changed();
    });
    for (QLineEdit* e : {partition_, account_, timeLimit_}) connect(e, &QLineEdit::textChanged, this, &TargetChooser::changed);
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
    launch::TargetChoice c;
    c.slurm = slurm_->isChecked();
    c.local = local_->isChecked();
    if (c.slurm) {
        c.slurmOptions.partition = partition_->text().trimmed();
        c.slurmOptions.account = account_->text().trimmed();
        c.slurmOptions.timeLimit = timeLimit_->text().trimmed();
    }
    for (int i = 0; i < hosts_->count() && !c.local && !c.slurm; ++i) {
        const QListWidgetItem* item = hosts_->item(i);
        if (item->checkState() != Qt::Checked) continue;
        c.hosts << launch::HostSpec{item->data(NameRole).toString(), item->data(SlotsRole).toInt()};
    }
    return launch::targetFrom(c);
}

void TargetChooser::setLocal(bool local) { (local ? local_ : remote_)->setChecked(true); }

void TargetChooser::setHostChecked(const QString& name, bool checked)
{
    for (int i = 0; i < hosts_->count(); ++i)
        if (hosts_->item(i)->data(NameRole).toString() == name) hosts_->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void TargetChooser::retranslateUi()
{
    local_->setText(tr("This machine"));
    remote_->setText(tr("These hosts (over SSH):"));
    slurm_->setText(tr("Through Slurm (srun from this machine, a login node):"));
    partition_->setPlaceholderText(tr("the default partition"));
    account_->setPlaceholderText(tr("the default account"));
    timeLimit_->setPlaceholderText(tr("the partition's limit, e.g. 2:00:00"));
    for (int i = 0; i < hosts_->count(); ++i) {
        QListWidgetItem* item = hosts_->item(i);
        const int slots = item->data(SlotsRole).toInt();
        const QString name = item->data(NameRole).toString();
        item->setText(slots > 0 ? tr("%1 (%n rank(s))", nullptr, slots).arg(name) : tr("%1 (the plan's ranks per node)").arg(name));
    }
}

} // namespace sb::gui
