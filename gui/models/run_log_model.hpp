// The log lines of a run: every rank's stdout/stderr text and the launcher's
// own messages, in arrival order. Lines are added in batches (at most every
// 50 ms) so that a chatty rank cannot flood the views; past kMaxLines the
// oldest go. LogFilterProxy shows one rank's lines matching a filter.
#pragma once

#include <QAbstractListModel>
#include <QSortFilterProxyModel>
#include <QTimer>

#include <deque>

namespace sb::gui {

class RunLogModel : public QAbstractListModel {
    Q_OBJECT
public:
    static constexpr int kLauncher = -1; // the rank of the launcher's own lines
    static constexpr int kMaxLines = 200000;
    enum Stream { Stdout, Stderr, Launcher };
    enum Role { RankRole = Qt::UserRole + 1, StreamRole, AttemptRole };

    explicit RunLogModel(QObject* parent = nullptr);

    void clear();
    void append(int rank, Stream stream, int attempt, const QString& text);
    // Adds what is queued now (tests; normally a timer does it).
    void flush();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QString text(int row) const { return lines_[static_cast<std::size_t>(row)].text; }
    int rank(int row) const { return lines_[static_cast<std::size_t>(row)].rank; }

private:
    struct Line {
        int rank = kLauncher;
        Stream stream = Launcher;
        int attempt = 0;
        QString text;
    };
    std::deque<Line> lines_;
    std::deque<Line> queued_;
    QTimer flushTimer_;
};

class LogFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    static constexpr int kAllRanks = -2;
    explicit LogFilterProxy(int rank, QObject* parent = nullptr);
    int rank() const { return rank_; }
    // Case-insensitive text every shown line contains ("" shows all).
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int rank_;
    QString text_;
};

} // namespace sb::gui
