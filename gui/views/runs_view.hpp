// The Runs area: the history of every run in the store as a sortable,
// filterable table; selecting one run shows its page below (RunPage),
// selecting two or more compares them (CompareView). A
// detached run that has not ended can be attached to (followed in the Run area).
#pragma once

#include <QElapsedTimer>
#include <QWidget>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace sb::gui {

class CompareView;
class RunPage;
class RunsFilterProxy;
class RunsModel;

class RunsView : public QWidget {
    Q_OBJECT
public:
    RunsView(RunsModel* model, CompareView* compare, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    RunsFilterProxy* proxy() const { return proxy_; }
    QLineEdit* filterEdit() const { return filter_; }
    QComboBox* statusFilter() const { return status_; }
    QPushButton* refreshButton() const { return refresh_; }
    QPushButton* checkpointsButton() const { return checkpoints_; }
    QPushButton* attachButton() const { return attach_; }
    CompareView* compareView() const { return compare_; }
    RunPage* runPage() const { return page_; }
    // Which one is below the table: the page of one run, or the comparison.
    bool showsRunPage() const;
    QList<qint64> selectedRuns() const; // in the order shown
    void selectRuns(const QList<qint64>& ids);
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

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void selectionChanged();
    void showContextMenu(const QPoint& at);

    RunsModel* model_;
    RunsFilterProxy* proxy_;
    CompareView* compare_;
    RunPage* page_;
    QStackedWidget* lower_;
    QTableView* table_;
    QLineEdit* filter_;
    QComboBox* status_;
    QPushButton* refresh_;
    QPushButton* checkpoints_;
    QPushButton* attach_;
    QLabel* info_;
    QLabel* hint_;
    QSplitter* splitter_;
    std::function<QString()> loadInfo_;
};

} // namespace sb::gui
