// The Cluster area: this machine and every known host (from ~/.ssh/config
// and added by hand) with the result of its latest connection test, the
// buttons to add, edit, remove and test hosts (in parallel, with progress),
// what a test checks (the Run area's engine), and where SSH settings and the
// remote shardbench-core are.
#pragma once

#include "retranslated.hpp"

#include <QWidget>

class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace sb::gui {

class HostsModel;

class ClusterView : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit ClusterView(HostsModel* model, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* editButton() const { return edit_; }
    QPushButton* removeButton() const { return remove_; }
    QPushButton* testButton() const { return test_; }
    QPushButton* testAllButton() const { return testAll_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QLineEdit* sshConfigEdit() const { return sshConfig_; }
    QLineEdit* knownHostsEdit() const { return knownHosts_; }
    QLineEdit* remoteCoreEdit() const { return remoteCore_; }
    QLineEdit* remoteDirEdit() const { return remoteDir_; }
    QLabel* engineLabel() const { return engine_; }
    // Selected rows as host names ("" is this machine).
    QStringList selectedHosts() const;

    void setTesting(bool testing);
    void setProgress(int done, int total);
    void setMessage(const QString& text);
    void setEngineText(const QString& text); // what a test checks
    void reloadSettings();

Q_SIGNALS:
    // After a change of language: texts set from outside must be set again.
    void retranslated();
    void addRequested();
    void editRequested(const QString& host);
    void removeRequested(const QString& host);
    void testRequested(const QStringList& hosts); // "" is this machine
    void cancelRequested();
    void settingsChanged();

private:
    void retranslateUi() override;
    void updateButtons();

    HostsModel* model_;
    QTableView* table_;
    QPushButton* add_;
    QPushButton* edit_;
    QPushButton* remove_;
    QPushButton* test_;
    QPushButton* testAll_;
    QPushButton* cancel_;
    QProgressBar* progress_;
    QLabel* message_;
    QLabel* engine_;
    QGroupBox* settings_;
    QLineEdit* sshConfig_;
    QLineEdit* knownHosts_;
    QLineEdit* remoteCore_;
    QLineEdit* remoteDir_;
    QLabel* labels_[4];
    bool testing_ = false;
};

} // namespace sb::gui
