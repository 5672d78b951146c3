// The open plan: owns the sb::Plan, the module tree built from its model, the
// problems found in it and the undo history. Views never change the plan
// directly; they push a ChangePlan command through change(), whose redo/undo
// call apply(), which signals what changed.
#pragma once

#include "kept_values.hpp"

#include "plan/plan.hpp"

#include <QFlags>
#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QUndoStack;

namespace sb::gui {

enum class PlanAspect {
    Model = 0x1,    // the model config: the module tree is rebuilt
    Units = 0x2,    // shard units and their policies
    Mesh = 0x4,
    Training = 0x8,
    Name = 0x10,
};
Q_DECLARE_FLAGS(PlanAspects, PlanAspect)

class PlanDocument : public QObject {
    Q_OBJECT
public:
    explicit PlanDocument(QObject* parent = nullptr);
    ~PlanDocument() override;

    const Plan& plan() const { return plan_; }
    const ModuleTree& tree() const { return *tree_; }
    std::shared_ptr<const ModuleTree> sharedTree() const { return tree_; }
    const Problems& problems() const { return problems_; }
    // The opened file's values the plan could not hold (kept_values.hpp).
    const KeptValues& keptValues() const { return kept_; }
    const KeptValue* keptAt(const JsonPath& path) const;
    // Where keptValues()[i] is in the plan now.
    const JsonPath& keptPath(std::size_t i) const { return keptPaths_[i]; }
    // What a save writes: the plan, with the kept values back where they were.
    json::Value savedJson() const;
    bool hasErrors() const;
    QUndoStack* undoStack() const { return undoStack_; }
    // Counts every applied change; views compare it to know they are current.
    quint64 revision() const { return revision_; }

    QString filePath() const { return filePath_; }
    void setFilePath(const QString& path);
    bool isModified() const;
    void markSaved();

    // Replaces everything (new plan, open): the undo history starts afresh.
    // `readProblems` are what the reader reported about `file` (the parsed
    // file): the values behind them are kept, with their problems, until their
    // fields are set; the other read problems are shown until the first edit.
    void reset(const Plan& plan, const QString& filePath = {}, const Problems& readProblems = {},
               const json::Value* file = nullptr);

    // Pushes an undoable change from the current plan to `after`; nothing
    // happens when `after` equals the plan in the given aspects. Consecutive
    // changes with the same non-zero mergeKey collapse into one undo step.
    // `settled` are fields the person set: their kept values go, even when the
    // value set equals the plan's.
    bool change(const QString& text, PlanAspects aspects, const Plan& after, int mergeKey = 0,
                const std::vector<JsonPath>& settled = {});

    // Only for commands: installs `plan` and `kept` and signals the aspects that changed.
    void apply(const Plan& plan, const KeptValues& kept, PlanAspects aspects);

Q_SIGNALS:
    void modelReset();      // new module tree (after reset(), or a model edit)
    void unitsChanged();    // units or policies, same tree
    void meshChanged();
    void trainingChanged();
    void problemsChanged();
    void changed();         // once per applied change, after the specific signals
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    void rebuildTree();
    void revalidate();

    Plan plan_;
    std::shared_ptr<const ModuleTree> tree_;
    KeptValues kept_;
    std::vector<JsonPath> keptPaths_;             // kept_[i]'s path in plan_
    std::map<std::string, std::size_t> keptByPath_; // its str() -> i
    Problems treeProblems_;
    Problems readProblems_;
    Problems problems_;
    QUndoStack* undoStack_;
    QString filePath_;
    quint64 revision_ = 0;
    quint64 readRevision_ = 0;
};

} // namespace sb::gui

Q_DECLARE_OPERATORS_FOR_FLAGS(sb::gui::PlanAspects)
