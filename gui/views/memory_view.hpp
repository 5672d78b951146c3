// The Memory area: a verdict banner (fits, or over capacity by how much), the
// largest micro-batch that fits, then the per-rank chart and the step
// timeline as two tabs (each readable beside the Setup and Problems docks on
// a 1366x768 screen). It follows a MemoryModel and redraws when the estimate
// changes. The texts wrap: they never change the panel's width.
#pragma once

#include "retranslated.hpp"

#include <QWidget>

class QLabel;
class QPushButton;
class QTabWidget;

namespace sb::gui {

class MemoryModel;
class RankChart;
class TimelineChart;

class MemoryView : public Retranslated<QWidget> {
    Q_OBJECT
public:
    explicit MemoryView(MemoryModel* model, QWidget* parent = nullptr);

    RankChart* rankChart() const { return rankChart_; }
    TimelineChart* timelineChart() const { return timelineChart_; }
    QTabWidget* chartTabs() const { return charts_; }
    QString verdictText() const;
    QString largestBatchText() const;
    // Revision of the document the charts show (see PlanDocument::revision()).
    quint64 shownRevision() const { return shownRevision_; }

Q_SIGNALS:
    void updated();

private:
    void retranslateUi() override;
    void showEstimate();
    void showLargestBatch();
    void useLargestBatch();

    MemoryModel* model_;
    QLabel* verdict_;
    QLabel* details_;
    QLabel* batch_;
    QPushButton* useBatch_;
    QTabWidget* charts_;
    RankChart* rankChart_;
    TimelineChart* timelineChart_;
    quint64 shownRevision_ = 0;
};

} // namespace sb::gui
