// A flat table whose columns are a model's Column enum, each with a title.
// The overrides every such model wrote alike live here; a model says how many
// rows and columns it has, what each column is called, and its data().
#pragma once

#include <QAbstractTableModel>

namespace sb::gui {

class ColumnTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const final;
    int columnCount(const QModelIndex& parent = {}) const final;
    // A column's title across the top, and as its tooltip (a narrow column
    // cuts it); nothing down the side.
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final;
    // After a language change: every header and cell is read again.
    virtual void retranslate();

protected:
    virtual int rows() const = 0;
    virtual int columns() const = 0;
    // Written in the model's own class, so that its tr() keeps the model's
    // translation context.
    virtual QString columnTitle(int column) const = 0;
};

} // namespace sb::gui
