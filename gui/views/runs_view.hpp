// The Runs area: the history of every run in the store as a sortable,
// filterable table with a column per plan field (columns chosen from the
// header's context menu), optionally grouped by one of them; beside it, in a
// tab, the same runs as parallel coordinates. Both show one selection (the
// table's selection model): selecting one run opens its page below
// (RunPage), two or more compare them (CompareView); with none selected
// nothing is below and the table has the whole height. A detached run that
// has not ended can be attached to (followed in the Run area).
#pragma once

#include "retranslated.hpp"

#include <QList>
#include <QModelIndex>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QTableView;
class QTimer;

namespace sb::gui {

class ColumnChooser;
class CompareView;
class ParallelCoordinates;
class RunPage;
class RunsFilterProxy;
class RunsGroupProxy;
class RunsModel;

class RunsView : public Retranslated<QWidget> {
    Q_OBJECT
public:
    RunsView(RunsModel* model, CompareView* compare, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    RunsFilterProxy* proxy() const { return proxy_; }
    RunsGroupProxy* groups() const { return groups_; } // the table's model, over proxy()
    QLineEdit* filterEdit() const { return filter_; }
    QComboBox* statusFilter() const { return status_; }
    QComboBox* groupBox() const { return group_; } // item data: the column grouped by, -1 none
    QPushButton* refreshButton() const { return refresh_; }
    QPushButton* checkpointsButton() const { return checkpoints_; }
    QPushButton* attachButton() const { return attach_; }
    CompareView* compareView() const { return compare_; }
    RunPage* runPage() const { return page_; }
    ParallelCoordinates* parallelView() const { return parallel_; }
    ColumnChooser* columns() const { return columns_; }
    // The table and the parallel coordinates.
    QTabWidget* viewTabs() const { return views_; }
    // Whether the run page or the comparison is shown below the table (one or more runs selected).
    bool showsDetails() const;
    // Which one is below the table: the page of one run, or the comparison.
    bool showsRunPage() const;
    QList<qint64> selectedRuns() const; // in the order shown
    void selectRuns(const QList<qint64>& ids);
    // Groups the table by `column` (-1: no groups), as the group box does.
    void setGroupColumn(int column);
    // Built again when the language changes.
    void setLoadInfo(std::function<QString()> text);

Q_SIGNALS:
    void refreshRequested();
    void runRequested(qint64 run);                     // one run selected: its page
    void compareRequested(const QList<qint64>& runs);  // two or more
    void checkpointsRequested(qint64 run);
    void attachRequested(qint64 run);
    // The context menu: a person's words on one run; removing runs from the store.
    void annotateRequested(qint64 run);
    void deleteRequested(const QList<qint64>& runs);

private:
    void buildTable();
    QWidget* buildBar();
    void retranslateUi() override;
    void selectionChanged();
    void showDetails(bool shown);
    void showContextMenu(const QPoint& at);
    void runsPicked(const QList<qint64>& runs, bool extend);
    void groupsReset();
    void fitColumns();
    QModelIndex tableIndexOfRun(qint64 id) const;

    RunsModel* model_;
    RunsFilterProxy* proxy_;
    RunsGroupProxy* groups_;
    CompareView* compare_;
    RunPage* page_;
    QWidget* lower_; // the run page or the comparison
    QScrollArea* lowerScroll_;
    QTableView* table_;
    ParallelCoordinates* parallel_;
    QTabWidget* views_;
    QLineEdit* filter_;
    QComboBox* status_;
    QLabel* groupLabel_;
    QComboBox* group_;
    QPushButton* refresh_;
    QPushButton* checkpoints_;
    QPushButton* attach_;
    QLabel* info_;
    QLabel* hint_;
    QSplitter* splitter_;
    ColumnChooser* columns_ = nullptr;
    QTimer* fitTimer_;
    std::function<QString()> loadInfo_;
    // Across the grouping model's resets (a sort, a filter): the runs to select again.
    QList<qint64> keep_;
    bool sourceReset_ = false; // the runs were read again: the controller selects them again
    bool restoring_ = false;
    QList<qint64> shown_; // the runs whose page or comparison is below
};

} // namespace sb::gui
