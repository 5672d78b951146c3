// The per-rank memory estimate of the open plan, kept current: a change of the
// document schedules one recomputation on the next turn of the event loop (so
// a burst of edits costs one estimate), and the largest fitting micro-batch
// follows on the turn after, off the edit-to-redraw path.
#pragma once

#include "rank_groups.hpp"

#include "estimate/estimate.hpp"

#include <QObject>

#include <vector>

namespace sb::gui {

class PlanDocument;

class MemoryModel : public QObject {
    Q_OBJECT
public:
    explicit MemoryModel(PlanDocument* document, QObject* parent = nullptr);

    PlanDocument* document() const { return document_; }
    // False while the plan has errors: there is nothing sound to estimate.
    bool hasEstimate() const { return hasEstimate_; }
    const Estimate& estimate() const { return estimate_; }
    const std::vector<RankGroup>& groups() const { return groups_; }
    // -1 while unknown (not computed yet, or the plan has errors); 0 when even 1 does not fit.
    int largestMicroBatch() const { return largestMicroBatch_; }
    // The document revision the estimate belongs to.
    quint64 revision() const { return revision_; }

    // Recomputes at once (tests, export); normally changes are coalesced.
    void refreshNow();

Q_SIGNALS:
    void estimateChanged();
    void largestMicroBatchChanged();

private:
    void schedule();
    void computeLargestMicroBatch();

    PlanDocument* document_;
    Estimate estimate_;
    std::vector<RankGroup> groups_;
    bool hasEstimate_ = false;
    bool scheduled_ = false;
    int largestMicroBatch_ = -1;
    quint64 revision_ = 0;
};

} // namespace sb::gui
