// What an empty table says: a centred line over the view's viewport while its
// model has no rows ("No runs yet: launch one from the Run area…"), gone as
// soon as a row arrives.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAbstractItemView;
class QLabel;

namespace sb::gui {

class EmptyState : public QObject {
    Q_OBJECT
public:
    // `text` is asked again on every change and on a language change.
    EmptyState(QAbstractItemView* view, std::function<QString()> text);
    QLabel* label() const { return label_; }
    void refresh();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QAbstractItemView* view_;
    QLabel* label_;
    std::function<QString()> text_;
};

} // namespace sb::gui
