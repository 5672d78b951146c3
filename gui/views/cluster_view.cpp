#include "cluster_view.hpp"

#include "named_widget.hpp"

#include "header_fit.hpp"

#include "status_delegate.hpp"

#include "models/hosts_model.hpp"
#include "settings/cluster_settings.hpp"

#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSet>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sb::gui {

using app::ClusterSettings;

ClusterView::ClusterView(HostsModel* model, QWidget* parent)
    : Retranslated<QWidget>(parent), model_(model), table_(named<QTableView>("hostsTable")), add_(named<QPushButton>("addHost")),
      edit_(named<QPushButton>("editHost")), remove_(named<QPushButton>("removeHost")), test_(named<QPushButton>("testHosts")),
      testAll_(named<QPushButton>("testAllHosts")), cancel_(named<QPushButton>("cancelHostTest")),
      progress_(named<QProgressBar>("hostTestProgress")), message_(named<QLabel>("clusterMessage")),
      engine_(named<QLabel>("clusterEngine")), settings_(new QGroupBox), sshConfig_(new QLineEdit), knownHosts_(new QLineEdit),
      remoteCore_(new QLineEdit), remoteDir_(new QLineEdit)
{
    setObjectName(QStringLiteral("clusterView"));
    message_->setWordWrap(true);
    engine_->setWordWrap(true);
    table_->setModel(model_);
    auto* delegate = new StatusDelegate(HostsModel::StatusColorRole, table_);
    for (int c : {HostsModel::ReachableColumn, HostsModel::LoginColumn, HostsModel::GpusSeenColumn, HostsModel::EngineColumn})
        table_->setItemDelegateForColumn(c, delegate);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    new HeaderFit(table_->horizontalHeader());
    table_->setWordWrap(true);
    for (int c = 0; c < HostsModel::DetailsColumn; ++c) table_->resizeColumnToContents(c);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    cancel_->setEnabled(false);

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add_, edit_, remove_}) buttons->addWidget(b);
    buttons->addSpacing(16);
    for (QPushButton* b : {test_, testAll_, cancel_}) buttons->addWidget(b);
    buttons->addWidget(progress_, 1);

    auto* form = new QFormLayout(settings_);
    QLineEdit* edits[4] = {sshConfig_, knownHosts_, remoteCore_, remoteDir_};
    const char* names[4] = {"sshConfigPath", "knownHostsPath", "remoteCorePath", "remoteRunFolder"};
    for (int i = 0; i < 4; ++i) {
        labels_[i] = new QLabel;
        edits[i]->setObjectName(QString::fromLatin1(names[i]));
        form->addRow(labels_[i], edits[i]);
        connect(edits[i], &QLineEdit::editingFinished, this, [this] {
            ClusterSettings::sshConfig.setValue(sshConfig_->text().trimmed());
            ClusterSettings::knownHosts.setValue(knownHosts_->text().trimmed());
            ClusterSettings::remoteCore.setValue(remoteCore_->text().trimmed().isEmpty() ? ClusterSettings::remoteCore.defaultValue()
                                                                                         : remoteCore_->text().trimmed());
            ClusterSettings::remoteDir.setValue(remoteDir_->text().trimmed().isEmpty() ? ClusterSettings::remoteDir.defaultValue()
                                                                                       : remoteDir_->text().trimmed());
            Q_EMIT settingsChanged();
        });
    }

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(engine_);
    layout->addWidget(table_, 1);
    layout->addWidget(message_);
    layout->addWidget(settings_);

    connect(add_, &QPushButton::clicked, this, &ClusterView::addRequested);
    connect(edit_, &QPushButton::clicked, this, [this] {
        const QStringList hosts = selectedHosts();
        if (!hosts.isEmpty() && !hosts.front().isEmpty()) Q_EMIT editRequested(hosts.front());
    });
    connect(remove_, &QPushButton::clicked, this, [this] {
        for (const QString& h : selectedHosts())
            if (!h.isEmpty()) Q_EMIT removeRequested(h);
    });
    connect(test_, &QPushButton::clicked, this, [this] { Q_EMIT testRequested(selectedHosts()); });
    connect(testAll_, &QPushButton::clicked, this, [this] {
        QStringList all;
        for (int r = 0; r < model_->rowCount(); ++r) all << model_->hostName(r);
        Q_EMIT testRequested(all);
    });
    connect(cancel_, &QPushButton::clicked, this, &ClusterView::cancelRequested);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ClusterView::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &ClusterView::updateButtons);
    // The details (why a test failed) wrap within their column.
    connect(model_, &QAbstractItemModel::dataChanged, this, [this] {
        for (int c = 0; c < HostsModel::DetailsColumn; ++c) table_->resizeColumnToContents(c);
        table_->resizeRowsToContents();
    });
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (i.column() != HostsModel::GpusColumn && !model_->isLocal(i.row()) && !testing_) Q_EMIT editRequested(model_->hostName(i.row()));
    });
    reloadSettings();
    retranslateUi();
    updateButtons();
}

QStringList ClusterView::selectedHosts() const
{
    QStringList out;
    QSet<int> rows;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows()) rows.insert(i.row());
    QList<int> sorted(rows.begin(), rows.end());
    std::sort(sorted.begin(), sorted.end());
    for (int r : sorted) out << model_->hostName(r);
    return out;
}

void ClusterView::reloadSettings()
{
    sshConfig_->setText(ClusterSettings::sshConfig.value());
    knownHosts_->setText(ClusterSettings::knownHosts.value());
    remoteCore_->setText(ClusterSettings::remoteCore.value());
    remoteDir_->setText(ClusterSettings::remoteDir.value());
}

void ClusterView::setTesting(bool testing)
{
    testing_ = testing;
    cancel_->setEnabled(testing);
    updateButtons();
}

void ClusterView::setProgress(int done, int total)
{
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(done);
}

void ClusterView::setMessage(const QString& text) { message_->setText(text); }

void ClusterView::setEngineText(const QString& text) { engine_->setText(text); }

void ClusterView::updateButtons()
{
    const QStringList hosts = selectedHosts();
    bool manual = false;
    for (const QString& h : hosts) {
        manual = manual || model_->isManual(model_->rowOfHost(h));
    }
    edit_->setEnabled(!testing_ && manual && hosts.size() == 1);
    remove_->setEnabled(!testing_ && manual);
    test_->setEnabled(!testing_ && !hosts.isEmpty());
    testAll_->setEnabled(!testing_);
    add_->setEnabled(!testing_);
}

void ClusterView::retranslateUi()
{
    add_->setText(tr("Add host…"));
    edit_->setText(tr("Edit…"));
    remove_->setText(tr("Remove"));
    test_->setText(tr("Test selected"));
    testAll_->setText(tr("Test all"));
    cancel_->setText(tr("Cancel"));
    progress_->setFormat(tr("%v of %m hosts tested"));
    settings_->setTitle(tr("SSH and remote hosts"));
    labels_[0]->setText(tr("SSH config file"));
    labels_[1]->setText(tr("known_hosts file"));
    labels_[2]->setText(tr("shardbench-core on the hosts"));
    labels_[3]->setText(tr("Run folder on the hosts"));
    sshConfig_->setPlaceholderText(tr("~/.ssh/config"));
    knownHosts_->setPlaceholderText(tr("~/.ssh/known_hosts"));
    remoteCore_->setToolTip(tr("A path, or a name found on the PATH of a non-interactive login"));
    remoteDir_->setToolTip(tr("Where plans are copied on each host (relative to the home folder)"));
    model_->retranslate();
    updateButtons();
    Q_EMIT retranslated();
}

} // namespace sb::gui
