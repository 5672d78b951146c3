// The module tree with each module's parameters and, for shard units, their
// FSDP2 policy. Rows are modules (parameters as leaf rows below them); a
// policy cell is editable on unit rows only. Edits go one way: setData ->
// editPolicy -> undo command -> document -> unitsChanged -> dataChanged here.
#pragma once

#include "document/plan_edits.hpp"

#include <QAbstractItemModel>
#include <QIcon>

#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace sb::gui {

class PlanDocument;

class PlanTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        TypeColumn,
        ParamsColumn,
        ShapeColumn,
        UnitColumn,
        ReshardColumn,
        ParamDtypeColumn,
        ReduceDtypeColumn,
        OutputDtypeColumn,
        OffloadColumn,
        CheckpointColumn,
        ForwardPrefetchColumn,
        BackwardPrefetchColumn,
        ColumnCount
    };

    explicit PlanTreeModel(PlanDocument* document, QObject* parent = nullptr);

    PlanDocument* document() const { return document_; }
    static std::optional<PolicyField> policyField(int column);
    static int columnOf(PolicyField field);

    int moduleOf(const QModelIndex& index) const; // -1 for parameter rows
    int paramOf(const QModelIndex& index) const;  // -1 for module rows
    QModelIndex indexOfModule(int module, int column = NameColumn) const;
    bool isUnit(int module) const;
    int problemSeverity(int module) const; // 0 none, 1 warning, 2 error

    // Sets one policy cell on several rows as one undo step; all indexes share
    // a column. Rows that are parameters (or not units, for policy fields) are skipped.
    bool setCells(const QModelIndexList& indexes, const QVariant& value);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    void retranslate();

private:
    struct RowState {
        int policy = -1; // index into plan.units, -1 when not a unit
        UnitPolicy unit;
        int owner = 0;   // module of the enclosing unit
        DType paramDtype = DType::F32;
        DType reduceDtype = DType::F32;
        int severity = 0;
        std::vector<int> problems; // indices into the document's problems
        std::map<int, int> kept;   // column -> index into the document's kept values, shown as written
        bool operator==(const RowState& o) const;
    };

    void resetFromDocument();
    void refreshRows();
    std::vector<RowState> computeRows() const;
    static int keptColumn(const JsonPath& path); // units[i].<key>: its column, or -1
    int rowOfModule(int module) const;
    QVariant moduleData(int module, int column, int role) const;
    QVariant paramData(int param, int column, int role) const;
    QVariant policyData(const RowState& row, int module, int column, int role) const;

    PlanDocument* document_;
    std::shared_ptr<const ModuleTree> tree_;
    std::vector<int> childRow_;
    std::vector<int> paramRow_;
    std::vector<std::int64_t> subtreeParams_;
    std::vector<RowState> rows_;
    QIcon errorIcon_;
    QIcon warningIcon_;
};

} // namespace sb::gui
