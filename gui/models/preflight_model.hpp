// The pre-flight checks as a table: the check, and what it found (one line
// per problem or host below the summary).
#pragma once

#include <QAbstractTableModel>

namespace sb::app {
class Preflight;
} // namespace sb::app

namespace sb::gui {

class PreflightModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CheckColumn, ResultColumn, ColumnCount };
    static constexpr int StateRole = Qt::UserRole + 1; // app::Preflight::State
    static constexpr int StatusColorRole = Qt::UserRole + 2; // for StatusDelegate

    explicit PreflightModel(app::Preflight* preflight, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // Every failed check's lines, for a plain message.
    QStringList failures() const;
    void retranslate();

private:
    app::Preflight* preflight_;
};

} // namespace sb::gui
