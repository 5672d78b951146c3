#include "memory_model.hpp"

#include "document/plan_document.hpp"
#include "plan/resolve.hpp"

#include <QTimer>

namespace sb::gui {

MemoryModel::MemoryModel(PlanDocument* document, QObject* parent) : QObject(parent), document_(document)
{
    connect(document_, &PlanDocument::changed, this, &MemoryModel::schedule);
    refreshNow();
}

void MemoryModel::schedule()
{
    if (scheduled_) return;
    scheduled_ = true;
    QTimer::singleShot(0, this, [this] {
        if (scheduled_) refreshNow();
    });
}

void MemoryModel::refreshNow()
{
    scheduled_ = false;
    revision_ = document_->revision();
    hasEstimate_ = !document_->hasErrors();
    largestMicroBatch_ = -1;
    if (hasEstimate_) {
        const Plan& plan = document_->plan();
        const ModuleTree& tree = document_->tree();
        estimate_ = estimateMemory(plan, tree, resolvePlan(plan, tree));
        groups_ = groupRanks(estimate_);
        const quint64 revision = revision_;
        QTimer::singleShot(0, this, [this, revision] {
            if (revision == revision_ && hasEstimate_) computeLargestMicroBatch();
        });
    } else {
        estimate_ = Estimate{};
        groups_.clear();
    }
    Q_EMIT estimateChanged();
    Q_EMIT largestMicroBatchChanged();
}

void MemoryModel::computeLargestMicroBatch()
{
    largestMicroBatch_ = largestFittingMicroBatch(document_->plan(), document_->tree());
    Q_EMIT largestMicroBatchChanged();
}

} // namespace sb::gui
