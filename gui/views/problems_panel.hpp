// The problems of the plan, updated as you edit. Clicking a problem asks the
// window to show where it is (a tree row, or a field of a settings panel).
#pragma once

#include "text/problem_location.hpp"

#include <QWidget>

class QLabel;
class QTableView;

namespace sb::gui {

class ProblemsModel;

class ProblemsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(ProblemsModel* model, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    ProblemsModel* problemsModel() const { return model_; }
    QString summaryText() const;

Q_SIGNALS:
    void problemActivated(const sb::gui::ProblemLocation& location);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateSummary();
    void activate(const QModelIndex& index);

    ProblemsModel* model_;
    QLabel* summary_;
    QTableView* table_;
};

} // namespace sb::gui
