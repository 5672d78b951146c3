// The Runs table's sorting and filtering. Sorting by each column's raw value
// (RunsModel::SortRole). The filter text is a substring of the name, tags,
// status, reason, plan or plan fields, plus any number of field terms:
// `KEY:TEXT` (the column's text contains TEXT), `KEY=VALUE`, `KEY<N`,
// `KEY>N`, `KEY<=N`, `KEY>=N` (numbers compared as numbers), where KEY is a
// column's key (RunsModel::columnKey: world, reshard, param, reduce,
// offload, micro, batch, lr, loss, eval, rate, peak...). "world=8 lr<1e-3
// bf16" keeps the runs on 8 ranks with a learning rate below 0.001 that say
// bf16 somewhere.
#pragma once

#include <QSortFilterProxyModel>

namespace sb::gui {

struct RunsFieldTerm {
    int column = -1;
    QString op; // ":", "=", "<", ">", "<=", ">="
    QString text;
};

class RunsFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsFilterProxy(QObject* parent = nullptr);
    void setText(const QString& text);
    // "" shows every status.
    void setStatus(const QString& storedStatus);
    QString status() const { return status_; }
    // The terms read from the text, and what is left of it (the substring).
    const QList<RunsFieldTerm>& fieldTerms() const { return terms_; }
    QString plainText() const { return plain_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool acceptsTerm(int sourceRow, const RunsFieldTerm& term) const;

    QString text_;
    QString plain_;
    QList<RunsFieldTerm> terms_;
    QString status_;
};

} // namespace sb::gui
