// The line above the plan that says an opened file had values the plan could
// not hold ("3 problems in plan.json"), that they are kept as written and
// marked in red, and that a save keeps them until they are fixed. Hidden
// while the document keeps nothing from its file.
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace sb::gui {

class PlanDocument;

class FileBanner : public QFrame {
    Q_OBJECT
public:
    explicit FileBanner(PlanDocument* document, QWidget* parent = nullptr);
    QString text() const;

Q_SIGNALS:
    // The person wants to see the first of them.
    void showFirst();

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    PlanDocument* document_;
    QLabel* label_;
    QPushButton* show_;
};

} // namespace sb::gui
