// Keeps every section of a table's header at least as wide as its title, in
// whatever language: a German "Aktivierungs-Checkpointing" is not cut to
// "Aktivier…" by a width chosen for English. Sections only ever grow here;
// the person can still make one narrower by hand afterwards.
#pragma once

#include <QObject>

class QHeaderView;

namespace sb::gui {

class HeaderFit : public QObject {
    Q_OBJECT
public:
    // Fits now and again after each change of the titles or the language.
    explicit HeaderFit(QHeaderView* header);
    void fit();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QHeaderView* header_;
};

// The sections of `header` narrower than their title (for tests): logical indices.
QList<int> clippedSections(const QHeaderView* header);

} // namespace sb::gui
