// The pre-flight checks as a table: the check, and what it found (one line
// per problem or host below the summary).
#pragma once

#include "column_table_model.hpp"

namespace sb::app {
class Preflight;
} // namespace sb::app

namespace sb::gui {

class PreflightModel : public ColumnTableModel {
    Q_OBJECT
public:
    enum Column { CheckColumn, ResultColumn, ColumnCount };
    static constexpr int StateRole = Qt::UserRole + 1; // app::Preflight::State
    static constexpr int StatusColorRole = Qt::UserRole + 2; // for StatusDelegate

    explicit PreflightModel(app::Preflight* preflight, QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // Every failed check's lines, for a plain message.
    QStringList failures() const;

private:
    int rows() const override;
    int columns() const override { return ColumnCount; }
    QString columnTitle(int column) const override;

    app::Preflight* preflight_;
};

} // namespace sb::gui
