#include "log_panes.hpp"

#include "named_widget.hpp"

#include "models/run_log_model.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sb::gui {

LogPanes::LogPanes(QWidget* parent)
    : Retranslated<QWidget>(parent), filter_(named<QLineEdit>("logFilter")), tabs_(named<QTabWidget>("logTabs")),
      enlarge_(named<QToolButton>("enlargeLog"))
{
    setObjectName(QStringLiteral("logPanes"));
    filter_->setClearButtonEnabled(true);
    tabs_->setDocumentMode(true);
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
        if (index >= 0 && index < proxies_.size() && proxies_[index]->rank() >= 0) Q_EMIT rankPaneShown(proxies_[index]->rank());
    });
    enlarge_->setCheckable(true);
    enlarge_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(enlarge_, &QToolButton::toggled, this, [this](bool on) {
        retranslateUi();
        Q_EMIT enlargeToggled(on);
    });
    // The filter and Enlarge sit in the tab bar's corner: every other line of
    // height goes to the log's own lines (a laptop screen has few to spare).
    auto* corner = new QWidget;
    auto* bar = new QHBoxLayout(corner);
    bar->setContentsMargins(0, 0, 0, 0);
    filter_->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    bar->addWidget(filter_, 1);
    bar->addWidget(enlarge_);
    tabs_->setCornerWidget(corner, Qt::TopRightCorner);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_, 1);
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        for (LogFilterProxy* p : proxies_) p->setText(text);
    });
    setModel(nullptr, 0);
}

void LogPanes::addPane(int rank)
{
    auto* proxy = new LogFilterProxy(rank, this);
    proxy->setSourceModel(model_);
    proxy->setText(filter_->text());
    auto* view = new QListView;
    view->setObjectName(QStringLiteral("logPane_%1").arg(rank));
    view->setModel(proxy);
    view->setUniformItemSizes(true); // fast with many lines
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setWordWrap(false);
    // Follow the end while the user has not scrolled up.
    auto* bar = view->verticalScrollBar();
    auto atEnd = std::make_shared<bool>(true);
    connect(bar, &QScrollBar::valueChanged, view, [bar, atEnd](int v) { *atEnd = v >= bar->maximum() - 2; });
    connect(proxy, &QAbstractItemModel::rowsInserted, view, [view, atEnd] {
        if (*atEnd) view->scrollToBottom();
    });
    proxies_ << proxy;
    tabs_->addTab(view, QString());
}

void LogPanes::showRank(int rank)
{
    for (int i = 0; i < proxies_.size(); ++i)
        if (proxies_[i]->rank() == rank) tabs_->setCurrentIndex(i);
}

void LogPanes::setModel(RunLogModel* model, int worldSize)
{
    const QSignalBlocker rebuilding(tabs_); // no pane is "shown" while they are rebuilt
    while (tabs_->count() > 0) {
        QWidget* w = tabs_->widget(0);
        tabs_->removeTab(0);
        delete w;
    }
    qDeleteAll(proxies_);
    proxies_.clear();
    model_ = model;
    // Without a run, an empty "All" pane: its tab gives the corner's filter and Enlarge their height.
    addPane(LogFilterProxy::kAllRanks);
    if (model_) {
        addPane(RunLogModel::kLauncher);
        for (int r = 0; r < worldSize; ++r) addPane(r);
    }
    retranslateUi();
}

int LogPanes::shownLines(int rank) const
{
    for (LogFilterProxy* p : proxies_)
        if (p->rank() == rank) return p->rowCount();
    return 0;
}

void LogPanes::retranslateUi()
{
    filter_->setPlaceholderText(tr("Filter the log…"));
    enlarge_->setText(enlarge_->isChecked() ? tr("Show the charts") : tr("Enlarge the log"));
    enlarge_->setToolTip(enlarge_->isChecked() ? tr("Give the charts their room back")
                                               : tr("The log takes the whole view; the charts give way until you press again"));
    for (int i = 0; i < proxies_.size(); ++i) {
        const int rank = proxies_[i]->rank();
        tabs_->setTabText(i, rank == LogFilterProxy::kAllRanks ? tr("All")
                             : rank == RunLogModel::kLauncher  ? tr("Launcher")
                                                                : tr("Rank %1").arg(rank));
    }
}

} // namespace sb::gui
