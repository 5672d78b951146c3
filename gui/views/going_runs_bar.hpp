// The Run area's word, at start, on detached runs that went on while the
// workbench was closed: "Run 7 (sweep), detached on gpu1, was still going
// when last heard from." with Attach (to the newest; attaching catches up
// with what it did since) and Show in Runs. Hidden once the user launches or
// attaches anything, or when there are none.
#pragma once

#include "retranslated.hpp"

#include "store/run_reader.hpp"

#include <QFrame>
#include <QList>

class QLabel;
class QPushButton;

namespace sb::gui {

class GoingRunsBar : public Retranslated<QFrame> {
    Q_OBJECT
public:
    explicit GoingRunsBar(QWidget* parent = nullptr);

    // The detached runs still going (newest first); none hides the bar.
    void setRuns(const QList<store::RunRow>& runs);
    const QList<store::RunRow>& runs() const { return runs_; }
    QLabel* textLabel() const { return text_; }
    QPushButton* attachButton() const { return attach_; }
    QPushButton* showRunsButton() const { return showRuns_; }

Q_SIGNALS:
    void attachRequested(qint64 runId);
    void showRunsRequested();

private:
    void retranslateUi() override;

    QList<store::RunRow> runs_;
    QLabel* text_;
    QPushButton* attach_;
    QPushButton* showRuns_;
};

// The detached runs of the store at `path` that may still be going (their
// supervisor's last word was not an end), newest first; read off the GUI thread.
QList<store::RunRow> goingDetachedRuns(const QString& path);

} // namespace sb::gui
