// The Cluster area against a real OpenSSH server on loopback (the launcher
// suites' sshd fixture): hosts come from the SSH config and from the host
// dialog; a connection test shows reachable, logged in, GPUs and the core's
// version; an unknown host key opens the dialog with its fingerprint (accept
// or refuse; Enter presses Refuse, its default button:
// enterInTheHostKeyDialogRefuses), a changed key is refused with an
// explanation and no dialog; the tiny plan launches over SSH on a chosen
// host; and with the Run area's engine set to PyTorch a test checks each
// host's Python for PyTorch with fully_shard instead of the core
// (theTestChecksTheRunAreasEngine).
#include "gui_test_support.hpp"
#include "../status_checks.hpp"

#include "launcher_test_support.hpp"

#include "hosts/host_catalog.hpp"
#include "hosts/host_probe_runner.hpp"
#include "document/plan_document.hpp"
#include "models/hosts_model.hpp"
#include "models/live_run_model.hpp"
#include "session/run_session.hpp"
#include "settings/cluster_settings.hpp"
#include "text/preflight_text.hpp"
#include "views/cluster_view.hpp"
#include "views/engine_chooser.hpp"
#include "views/host_dialog.hpp"
#include "views/host_key_dialog.hpp"
#include "views/launch_panel.hpp"
#include "views/target_chooser.hpp"
#include "window/cluster_controller.hpp"
#include "window/file_controller.hpp"
#include "window/run_areas.hpp"
#include "window/run_controller.hpp"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QUndoStack>

#include <functional>

using namespace sb;
using namespace sb::gui;
using sb::app::ClusterSettings;
using sb::app::HostCatalog;
using sb::app::HostEntry;
using sb::app::HostProbeResult;
namespace lt = sb::test;      // the launcher suites' fixture
namespace gt = sb::gui::test; // the workbench suites' helpers

class TestCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void hostsComeFromTheSshConfig();
    void unknownHostKeyAskedThenAccepted();
    void unknownHostKeyRefused();
    void changedHostKeyRefusedWithoutAsking();
    void enterInTheHostKeyDialogRefuses();
    void hostAddedByHandIsTested();
    void launchOverSshOnAChosenHost();
    void theTestChecksTheRunAreasEngine();

private:
    RunAreas* areas() const { return w_->window->areas(); }
    using Answer = std::function<void(HostKeyDialog*)>;
    static Answer click(QPushButton* (HostKeyDialog::*button)() const);
    static void pressEnter(HostKeyDialog* dialog); // on the focused widget, as a person would
    // Selects `host` in the table, presses "Test selected", answers the key
    // question (when `answer` is set) and waits for the result.
    HostProbeResult probe(const QString& host, const Answer& answer, QString* shownFingerprint = nullptr);
    QString fingerprint(int host) const; // "SHA256:..." by ssh-keygen

    QTemporaryDir tmp_;
    std::unique_ptr<lt::SshdFixture> sshd_;
    std::unique_ptr<gt::Workbench> w_;
};

void TestCluster::initTestCase()
{
    gt::isolateSettings();
    qunsetenv("SSH_AUTH_SOCK"); // only the fixture's key, never the agent of whoever runs the tests
    QVERIFY(tmp_.isValid());
    sshd_ = std::make_unique<lt::SshdFixture>(tmp_.filePath(QStringLiteral("sshd")));
    const QString error = sshd_->start({QStringLiteral("127.0.0.2")});
    if (!error.isEmpty()) QSKIP(qPrintable(QStringLiteral("no loopback sshd: ") + error));
    gt::useRunFolder(tmp_.filePath(QStringLiteral("work")));
    ClusterSettings::sshConfig.setValue(sshd_->configFile);
    ClusterSettings::sshDir.setValue(sshd_->sshDir);
    ClusterSettings::connectTimeoutS.setValue(10);
    ClusterSettings::remoteCore.setValue(gt::binPath(QStringLiteral("shardbench-core")));
    ClusterSettings::remoteDir.setValue(tmp_.filePath(QStringLiteral("remote")));
    w_ = std::make_unique<gt::Workbench>();
    w_->window->setInteractive(false);
    w_->window->areaTabs()->setCurrentWidget(areas()->clusterArea());
}

void TestCluster::cleanupTestCase()
{
    w_.reset();
    sshd_.reset();
}

QString TestCluster::fingerprint(int host) const
{
    QByteArray out;
    lt::runProgram(QStringLiteral("ssh-keygen"),
                     {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"), QStringLiteral("-f"),
                      sshd_->dir + QStringLiteral("/host_%1_ed25519.pub").arg(host)},
                     &out);
    return QString::fromUtf8(out.split(' ').value(1));
}

TestCluster::Answer TestCluster::click(QPushButton* (HostKeyDialog::*button)() const)
{
    return [button](HostKeyDialog* dialog) { QTest::mouseClick((dialog->*button)(), Qt::LeftButton); };
}

void TestCluster::pressEnter(HostKeyDialog* dialog)
{
    dialog->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(dialog));
    QWidget* focused = QApplication::focusWidget();
    QVERIFY(focused && focused->window() == dialog);
    QTest::keyClick(focused, Qt::Key_Return);
}

HostProbeResult TestCluster::probe(const QString& host, const Answer& answer, QString* shownFingerprint)
{
    ClusterView* view = areas()->clusterView();
    HostsModel* model = areas()->hostsModel();
    const int row = model->rowOfHost(host);
    if (row < 0) return {};
    view->table()->selectionModel()->select(model->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QTest::mouseClick(view->testButton(), Qt::LeftButton);
    ClusterController* cluster = areas()->cluster();
    if (answer) {
        if (!QTest::qWaitFor([&] { return cluster->openHostKeyDialog() != nullptr; }, 20000)) return {};
        HostKeyDialog* dialog = cluster->openHostKeyDialog();
        if (shownFingerprint) *shownFingerprint = dialog->fingerprintText();
        answer(dialog);
    }
    if (!QTest::qWaitFor([&] { return !cluster->probes()->isRunning(); }, 60000)) return {};
    const auto r = model->result(row);
    return r ? *r : HostProbeResult{};
}

void TestCluster::hostsComeFromTheSshConfig()
{
    HostsModel* model = areas()->hostsModel();
    QCOMPARE(model->rowCount(), 2); // this machine, node-a
    QCOMPARE(model->hostName(1), QStringLiteral("node-a"));
    QCOMPARE(model->index(1, HostsModel::AddressColumn).data().toString(), QStringLiteral("127.0.0.2"));
    QCOMPARE(model->index(1, HostsModel::PortColumn).data().toInt(), sshd_->port(0));
    QVERIFY(!model->isManual(1));
    // This machine's test: its core answers with its version.
    const HostProbeResult local = probe(QString(), nullptr);
    QVERIFY2(local.ok(), qPrintable(local.detail));
    QCOMPARE(local.coreVersion, QStringLiteral("0.1.0"));
    QVERIFY(!model->index(0, HostsModel::EngineColumn).data().toString().isEmpty());
}

void TestCluster::unknownHostKeyAskedThenAccepted()
{
    const QString known = tmp_.filePath(QStringLiteral("known_hosts_accept"));
    QCOMPARE(lt::SshdFixture::writeFile(known, {}), QString());
    ClusterSettings::knownHosts.setValue(known);
    QSignalSpy shown(areas()->cluster(), &ClusterController::hostKeyDialogShown);
    QString seen;
    const HostProbeResult r = probe(QStringLiteral("node-a"), click(&HostKeyDialog::acceptButton), &seen);
    QCOMPARE(shown.size(), 1);
    QVERIFY2(seen.startsWith(QStringLiteral("ssh-ed25519 SHA256:")), qPrintable(seen));
    QCOMPARE(seen.section(u' ', 1), fingerprint(0));
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QVERIFY(r.reachable && r.authenticated);
    QCOMPARE(r.coreVersion, QStringLiteral("0.1.0"));
    QVERIFY(!r.torchVersion.isEmpty());
    QCOMPARE(r.gpuToolFound, !QStandardPaths::findExecutable(QStringLiteral("nvidia-smi")).isEmpty());
    HostsModel* model = areas()->hostsModel();
    QCOMPARE(model->index(1, HostsModel::ReachableColumn).data(HostsModel::CheckStateRole).toInt(), int(HostsModel::Passed));
    QCOMPARE(model->index(1, HostsModel::LoginColumn).data(HostsModel::CheckStateRole).toInt(), int(HostsModel::Passed));
    QCOMPARE(model->index(1, HostsModel::EngineColumn).data(HostsModel::CheckStateRole).toInt(), int(HostsModel::Passed));
    // Remembered: known_hosts now holds the key, and the next test asks nothing.
    QFile k(known);
    QVERIFY(k.open(QIODevice::ReadOnly));
    QVERIFY(k.readAll().contains(sshd_->hostKeyLine(0).toUtf8().split(' ').value(2)));
    const HostProbeResult again = probe(QStringLiteral("node-a"), nullptr);
    QVERIFY(again.ok());
    QCOMPARE(shown.size(), 1);
}

void TestCluster::unknownHostKeyRefused()
{
    const QString known = tmp_.filePath(QStringLiteral("known_hosts_refuse"));
    QCOMPARE(lt::SshdFixture::writeFile(known, {}), QString());
    ClusterSettings::knownHosts.setValue(known);
    // Enter, the key a hurried person presses, refuses.
    const HostProbeResult r = probe(QStringLiteral("node-a"), &TestCluster::pressEnter);
    QCOMPARE(r.failure, HostProbeResult::HostKeyRefused);
    QVERIFY(!r.authenticated);
    const QString shown = areas()->hostsModel()->index(1, HostsModel::DetailsColumn).data().toString();
    QVERIFY2(shown.contains(QStringLiteral("refused")) && shown.contains(fingerprint(0)), qPrintable(shown));
    QCOMPARE(areas()->hostsModel()->index(1, HostsModel::LoginColumn).data().toString(), QStringLiteral("key refused"));
    QFile k(known);
    QVERIFY(k.open(QIODevice::ReadOnly));
    QVERIFY(k.readAll().isEmpty());
}

void TestCluster::changedHostKeyRefusedWithoutAsking()
{
    const QString other = tmp_.filePath(QStringLiteral("impostor"));
    QCOMPARE(lt::runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                            QStringLiteral("-N"), QString(), QStringLiteral("-f"), other}),
             0);
    QFile pub(other + QStringLiteral(".pub"));
    QVERIFY(pub.open(QIODevice::ReadOnly));
    const QList<QByteArray> parts = pub.readAll().trimmed().split(' ');
    const QString known = tmp_.filePath(QStringLiteral("known_hosts_changed"));
    QCOMPARE(lt::SshdFixture::writeFile(known, QStringLiteral("[%1]:%2 ").arg(sshd_->address(0)).arg(sshd_->port(0)).toUtf8() +
                                                     parts[0] + ' ' + parts[1] + '\n'),
             QString());
    ClusterSettings::knownHosts.setValue(known);
    QSignalSpy shown(areas()->cluster(), &ClusterController::hostKeyDialogShown);
    const HostProbeResult r = probe(QStringLiteral("node-a"), nullptr);
    QCOMPARE(shown.size(), 0);
    QCOMPARE(r.failure, HostProbeResult::HostKeyChanged);
    const QString text = areas()->hostsModel()->index(1, HostsModel::DetailsColumn).data().toString();
    QVERIFY2(text.contains(QStringLiteral("CHANGED")) && text.contains(QStringLiteral("ssh-keygen -R")), qPrintable(text));
    QCOMPARE(areas()->hostsModel()->index(1, HostsModel::LoginColumn).data().toString(), QStringLiteral("key changed"));
}

void TestCluster::enterInTheHostKeyDialogRefuses()
{
    launch::HostKeyInfo info;
    info.host = QStringLiteral("node-z");
    info.address = QStringLiteral("192.0.2.7");
    info.keyType = QStringLiteral("ssh-ed25519");
    info.fingerprint = QStringLiteral("SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    HostKeyDialog dialog(info, w_->window.get());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.refuseButton()->isDefault());
    QVERIFY(!dialog.acceptButton()->isDefault() && !dialog.acceptOnceButton()->isDefault());
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(dialog.refuseButton()));
    pressEnter(&dialog);
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
    QCOMPARE(dialog.decision(), launch::HostKeyDecision::Reject);
    QVERIFY(!dialog.isVisible());
}

void TestCluster::hostAddedByHandIsTested()
{
    ClusterSettings::knownHosts.setValue(sshd_->knownHostsFile);
    HostEntry empty;
    HostDialog dialog(areas()->hosts(), empty);
    dialog.nameEdit()->setText(QStringLiteral("lab box"));
    QVERIFY(!dialog.apply()); // a space is not allowed
    QVERIFY(!dialog.errorLabel()->text().isEmpty());
    dialog.nameEdit()->setText(QStringLiteral("lab-box"));
    dialog.addressEdit()->setText(sshd_->address(0));
    dialog.portBox()->setValue(sshd_->port(0));
    dialog.userEdit()->setText(qEnvironmentVariable("USER", QStringLiteral("root")));
    dialog.keyEdit()->setText(sshd_->identityFile);
    dialog.gpusBox()->setValue(2);
    QVERIFY(dialog.apply());
    HostsModel* model = areas()->hostsModel();
    const int row = model->rowOfHost(QStringLiteral("lab-box"));
    QVERIFY(row > 0);
    QVERIFY(model->isManual(row));
    QCOMPARE(model->index(row, HostsModel::GpusColumn).data().toString(), QStringLiteral("2"));
    // The generated config carries the hand-made host and includes the user's.
    const Result<launch::SshOptions> ssh = areas()->hosts()->sshOptions();
    SB_VERIFY_OK(ssh);
    QFile config(ssh.value().configFile);
    QVERIFY(config.open(QIODevice::ReadOnly));
    const QByteArray text = config.readAll();
    QVERIFY(text.contains("Host lab-box"));
    QVERIFY(text.contains(QByteArray("Include \"").append(sshd_->configFile.toUtf8()).append('"')));
    const HostProbeResult r = probe(QStringLiteral("lab-box"), nullptr);
    QVERIFY2(r.ok(), qPrintable(r.detail));
    QCOMPARE(r.port, sshd_->port(0));
    QCOMPARE(r.coreVersion, QStringLiteral("0.1.0"));
    // Edits are kept in the settings.
    HostCatalog again;
    QVERIFY(again.find(QStringLiteral("lab-box")));
    QCOMPARE(again.find(QStringLiteral("lab-box"))->gpus, 2);
}

void TestCluster::launchOverSshOnAChosenHost()
{
    const QString plan = tmp_.filePath(QStringLiteral("p.json"));
    QCOMPARE(gt::writeTinyPlan(plan, 10), QString());
    QVERIFY(w_->window->files()->openFile(plan));
    w_->window->areaTabs()->setCurrentWidget(areas()->runArea());
    TargetChooser* target = areas()->launchPanel()->targetChooser();
    target->hostsButton()->setChecked(true);
    target->setHostChecked(QStringLiteral("lab-box"), true);
    QCOMPARE(launch::sshHosts(target->target()).size(), 1);
    QCOMPARE(launch::sshSlots(target->target()), 2);
    RunController* rc = areas()->runs();
    QTest::mouseClick(areas()->launchPanel()->launchButton(), Qt::LeftButton);
    QVERIFY2(QTest::qWaitFor([&] { return rc->session() != nullptr; }, 60000),
             qPrintable(areas()->launchPanel()->messageLabel()->text()));
    RunSession* s = rc->session();
    QVERIFY(QTest::qWaitFor([&] { return s->isFinished(); }, 60000));
    QVERIFY2(s->status() == store::RunStatus::Completed, qPrintable(s->reason()));
    QCOMPARE(s->launch().config.backend(), launch::BackendKind::Ssh);
    QCOMPARE(s->live()->lastStep(), 10);
}

void TestCluster::theTestChecksTheRunAreasEngine()
{
    const QString venv = qEnvironmentVariable("SB_PYTHON");
    QVERIFY2(!venv.isEmpty(), "SB_PYTHON is not set (ctest sets it)");
    ClusterSettings::knownHosts.setValue(sshd_->knownHostsFile);
    const QString plan = tmp_.filePath(QStringLiteral("engine.json"));
    QCOMPARE(gt::writeTinyPlan(plan, 1), QString()); // on the CPU
    QVERIFY(w_->window->files()->openFile(plan));
    // The engine is chosen where runs are launched; the Cluster area follows it.
    EngineChooser* engine = areas()->launchPanel()->engineChooser();
    engine->choiceBox()->setCurrentIndex(EngineChooser::ExportedScript);
    engine->pythonEdit()->setText(venv);
    w_->window->areaTabs()->setCurrentWidget(areas()->clusterArea());
    QLabel* checks = areas()->clusterView()->engineLabel();
    QVERIFY2(checks->text().contains(venv) && checks->text().contains(QStringLiteral("PyTorch 2.6")), qPrintable(checks->text()));
    HostsModel* model = areas()->hostsModel();
    const int row = model->rowOfHost(QStringLiteral("node-a"));
    auto engineCell = [model](int r) { return model->index(r, HostsModel::EngineColumn).data().toString(); };
    auto engineState = [model](int r) { return model->index(r, HostsModel::EngineColumn).data(HostsModel::CheckStateRole).toInt(); };

    // The project's Python has PyTorch 2.x with fully_shard: the host is ready, with both versions shown.
    for (const QString& host : {QStringLiteral("node-a"), QString()}) {
        const HostProbeResult r = probe(host, nullptr);
        QVERIFY2(r.ok(), qPrintable(r.detail));
        QVERIFY(r.coreVersion.isEmpty()); // the core was not run
        QVERIFY2(r.torchVersion.startsWith(QStringLiteral("2.")), qPrintable(r.torchVersion));
        QVERIFY(!r.pythonVersion.isEmpty());
        const int at = model->rowOfHost(host);
        const QString cell = engineCell(at);
        QVERIFY2(cell.contains(QStringLiteral("PyTorch ") + r.torchVersion) && cell.contains(QStringLiteral("Python ") + r.pythonVersion),
                 qPrintable(cell));
        QCOMPARE(engineState(at), int(HostsModel::Passed));
    }

    // A CUDA plan needs CUDA and NCCL there too.
    PlanDocument* document = w_->window->document();
    Plan cuda = document->plan();
    cuda.mesh.device = Device::Cuda;
    QVERIFY(document->change(QStringLiteral("device"), PlanAspect::Mesh, cuda));
    QVERIFY2(checks->text().contains(QStringLiteral("CUDA and NCCL")), qPrintable(checks->text()));
    const HostProbeResult onCuda = probe(QStringLiteral("node-a"), nullptr);
    if (onCuda.torchCuda && onCuda.torchNccl) {
        QVERIFY2(onCuda.ok(), qPrintable(onCuda.detail));
    } else {
        QCOMPARE(onCuda.failure, HostProbeResult::TorchWithoutCuda);
        QCOMPARE(engineState(row), int(HostsModel::Failed));
    }
    document->undoStack()->undo();
    QCOMPARE(document->plan().mesh.device, Device::Cpu);

    // Debian's own Python has no PyTorch, or 1.13 without fully_shard: the
    // host fails, in the pre-flight's words, naming the host and what it lacks.
    const QString system = QStringLiteral("/usr/bin/python3");
    if (QFileInfo::exists(system)) {
        engine->pythonEdit()->setText(system);
        const HostProbeResult r = probe(QStringLiteral("node-a"), nullptr);
        QVERIFY2(r.failure == HostProbeResult::TorchTooOld || r.failure == HostProbeResult::TorchMissing, qPrintable(r.detail));
        const QString details = model->index(row, HostsModel::DetailsColumn).data().toString();
        QCOMPARE(details, preflightDetailText(app::PreflightDetail{r}));
        QVERIFY2(details.startsWith(QStringLiteral("node-a: ")), qPrintable(details));
        QVERIFY2(details.contains(r.failure == HostProbeResult::TorchTooOld ? QStringLiteral("PyTorch 2.6 or newer")
                                                                            : QStringLiteral("cannot import PyTorch")),
                 qPrintable(details));
        QCOMPARE(engineState(row), int(HostsModel::Failed));
        QVERIFY2(engineCell(row).contains(QStringLiteral("PyTorch")), qPrintable(engineCell(row)));
    }

    // Back to the core: the test runs shardbench-core again, as before.
    engine->choiceBox()->setCurrentIndex(EngineChooser::Core);
    QVERIFY2(checks->text().contains(QStringLiteral("shardbench-core")), qPrintable(checks->text()));
    const HostProbeResult core = probe(QStringLiteral("node-a"), nullptr);
    QVERIFY2(core.ok(), qPrintable(core.detail));
    QCOMPARE(core.coreVersion, QStringLiteral("0.1.0"));
    QVERIFY(core.pythonVersion.isEmpty());
    QVERIFY2(engineCell(row).startsWith(QStringLiteral("shardbench-core 0.1.0")), qPrintable(engineCell(row)));
}

QTEST_MAIN(TestCluster)
#include "tst_gui_cluster.moc"
