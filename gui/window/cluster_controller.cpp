#include "cluster_controller.hpp"

#include "hosts/host_catalog.hpp"
#include "hosts/host_probe_runner.hpp"
#include "hosts/python_probe.hpp"
#include "run/launch_request.hpp"
#include "text/connection_text.hpp"
#include "models/hosts_model.hpp"
#include "session/gui_host_key_policy.hpp"
#include "settings/cluster_settings.hpp"
#include "settings/run_settings.hpp"
#include "views/cluster_view.hpp"
#include "views/host_dialog.hpp"
#include "views/host_key_dialog.hpp"

#include <QWidget>

namespace sb::gui {

using app::ClusterSettings;
using app::HostCatalog;
using app::HostEntry;
using app::HostProbeOptions;
using app::HostProbeResult;
using app::HostProbeRunner;
using app::ProbeTarget;
using app::RunSettings;

struct ClusterController::Question {
    int id = 0;
    launch::HostKeyInfo info;
};

ClusterController::ClusterController(HostCatalog* catalog, HostsModel* model, ClusterView* view, GuiHostKeyPolicy* policy,
                                     QWidget* window, QObject* parent)
    : QObject(parent), catalog_(catalog), model_(model), view_(view), policy_(policy), window_(window),
      probes_(std::make_unique<HostProbeRunner>(policy))
{
    connect(view_, &ClusterView::addRequested, this, &ClusterController::add);
    connect(view_, &ClusterView::editRequested, this, &ClusterController::edit);
    connect(view_, &ClusterView::removeRequested, catalog_, &HostCatalog::removeHost);
    connect(view_, &ClusterView::testRequested, this, &ClusterController::test);
    connect(view_, &ClusterView::cancelRequested, probes_.get(), &HostProbeRunner::cancel);
    connect(view_, &ClusterView::settingsChanged, catalog_, &HostCatalog::reload);
    connect(view_, &ClusterView::retranslated, this, [this] {
        if (message_) view_->setMessage(message_());
        showEngine();
    });
    connect(probes_.get(), &HostProbeRunner::progressChanged, view_, &ClusterView::setProgress);
    connect(probes_.get(), &HostProbeRunner::resultReady, this, [this](int index, const HostProbeResult& r) {
        const ProbeTarget& t = probes_->targets()[index];
        model_->setResult(t.local ? QString() : t.host.name, r);
    });
    connect(probes_.get(), &HostProbeRunner::finished, this, [this] {
        view_->setTesting(false);
        int failed = 0;
        for (const HostProbeResult& r : probes_->results()) failed += r.ok() ? 0 : 1;
        showMessage([failed] {
            return failed == 0 ? tr("Every tested host is ready.") : tr("%n host(s) failed the test; see the details column.", nullptr, failed);
        });
    });
    // Every unknown host key, from a test or a launch, is asked about here, one at a time.
    connect(policy_, &GuiHostKeyPolicy::askRequested, this, [this](int id, const launch::HostKeyInfo& info) {
        auto q = std::make_shared<Question>();
        q->id = id;
        q->info = info;
        questions_ << q;
        askNext();
    });
    showEngine();
}

void ClusterController::showMessage(std::function<QString()> text)
{
    message_ = std::move(text);
    view_->setMessage(message_ ? message_() : QString());
}

ClusterController::~ClusterController()
{
    // Refuse open questions before the probes are waited for.
    policy_->shutDown();
    probes_.reset();
}

HostKeyDialog* ClusterController::openHostKeyDialog() const { return dialog_.data(); }

void ClusterController::askNext()
{
    if (dialog_ || questions_.isEmpty()) return;
    const std::shared_ptr<Question> q = questions_.takeFirst();
    auto* dialog = new HostKeyDialog(q->info, window_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog_ = dialog;
    connect(dialog, &QDialog::finished, this, [this, dialog, q] {
        policy_->answer(q->id, dialog->decision());
        dialog_.clear();
        askNext();
    });
    dialog->open(); // window-modal, without a nested event loop
    Q_EMIT hostKeyDialogShown(dialog);
}

void ClusterController::test(const QStringList& hosts)
{
    if (probes_->isRunning() || hosts.isEmpty()) return;
    QList<ProbeTarget> targets;
    for (const QString& h : hosts) {
        if (h.isEmpty()) targets << ProbeTarget{true, {}};
        else if (const HostEntry* e = catalog_->find(h)) targets << ProbeTarget{false, launch::HostSpec{e->name, e->gpus}};
        model_->setTesting(h, true);
    }
    const Result<launch::SshOptions> ssh = catalog_->sshOptions();
    if (!ssh) {
        // Nothing is tested with a config that would leave out the hosts added by hand.
        for (const QString& h : hosts) model_->setTesting(h, false);
        const QString error = qtMessage(ssh);
        showMessage([error] { return tr("The SSH config for the hosts added by hand cannot be written: %1").arg(error); });
        return;
    }
    const int count = static_cast<int>(targets.size());
    showMessage([count] { return tr("Testing %n host(s)…", nullptr, count); });
    view_->setTesting(true);
    probes_->start(targets, ssh.value(), RunSettings::resolvedCorePath(), probeOptions());
}

void ClusterController::setNextLaunch(std::function<app::LaunchRequest()> next)
{
    nextLaunch_ = std::move(next);
    showEngine();
}

HostProbeOptions ClusterController::probeOptions() const
{
    HostProbeOptions options;
    options.remoteCore = ClusterSettings::remoteCore.value();
    options.remoteDir = ClusterSettings::remoteDir.value();
    if (nextLaunch_) {
        const app::LaunchRequest next = nextLaunch_();
        app::setProbedEngine(options, next.config, next.plan.mesh.device);
    }
    return options;
}

void ClusterController::showEngine()
{
    const HostProbeOptions options = probeOptions();
    if (options.python.isEmpty())
        view_->setEngineText(tr("A test checks what the Run area's engine needs on each host: shardbench-core, by a one-step test run."));
    else if (options.needCuda)
        view_->setEngineText(tr("A test checks what the Run area's engine needs on each host: %1 with PyTorch 2.6 or newer "
                                "(fully_shard), CUDA and NCCL (the plan runs on CUDA).")
                                 .arg(options.python));
    else
        view_->setEngineText(tr("A test checks what the Run area's engine needs on each host: %1 with PyTorch 2.6 or newer (fully_shard).")
                                 .arg(options.python));
}

void ClusterController::add()
{
    HostDialog dialog(catalog_, HostEntry{}, window_);
    dialog.exec();
}

void ClusterController::edit(const QString& host)
{
    const HostEntry* e = catalog_->find(host);
    if (!e || e->source != HostEntry::Manual) return;
    HostDialog dialog(catalog_, *e, window_);
    dialog.exec();
}

} // namespace sb::gui
