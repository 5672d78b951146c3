// A model as PyTorch names it: a tree of modules, each holding parameters.
// Stored flat (pre-order, which is also forward order for the presets) so
// that estimating a 1000-layer plan touches contiguous arrays only.
#pragma once

#include "dtype.hpp"
#include "problem.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sb {
namespace json { class Value; }

struct Param {
    std::string path;          // fully qualified: "layers.0.attention.wq.weight"
    int module = -1;           // index of the module that declares it
    std::vector<std::int64_t> shape;
    DType dtype = DType::F32;
    int tiedTo = -1;           // index of the parameter whose storage it shares, or -1
    std::int64_t numel() const;
    std::int64_t rows() const { return shape.empty() ? 1 : shape[0]; }
    std::int64_t rowNumel() const; // elements in one dim-0 row
    // The shape as sharded and stored: a 0-dim parameter is one row of one element.
    std::vector<std::int64_t> shardedShape() const { return shape.empty() ? std::vector<std::int64_t>{1} : shape; }
};

struct Module {
    std::string path;          // "" for the root, "layers.3.attention" below it
    std::string name;          // last component: "attention"
    std::string type;          // "Linear", "TransformerBlock", ...
    int parent = -1;
    int depth = 0;
    std::vector<int> children;
    std::vector<int> params;   // parameters declared directly on this module
    int subtreeEnd = 0;        // modules [index, subtreeEnd) form this subtree
};

class ModuleTree {
public:
    // Builds the root (type given) and returns its index 0.
    explicit ModuleTree(std::string rootType = "Module");

    int addModule(int parent, std::string name, std::string type);
    int addParam(int module, std::string name, std::vector<std::int64_t> shape, DType dtype = DType::F32);
    // Declares that module `module` uses parameter `target` under `name` (weight tying).
    int addTiedParam(int module, std::string name, int target);
    // Marks an existing parameter as sharing `target`'s storage.
    void tieParam(int param, int target);
    // Must be called after the last add: fixes subtree ranges and lookups.
    void finish();

    const std::vector<Module>& modules() const { return modules_; }
    const std::vector<Param>& params() const { return params_; }
    const Module& module(int i) const { return modules_[static_cast<std::size_t>(i)]; }
    const Param& param(int i) const { return params_[static_cast<std::size_t>(i)]; }

    int findModule(std::string_view path) const; // -1 when absent
    int findParam(std::string_view path) const;  // -1 when absent
    bool isInSubtree(int module, int ancestor) const;

    // Unique parameters (a tied parameter counts once).
    std::int64_t totalParams() const;
    // Modules whose children are the repeated blocks (a ModuleList named like "layers" or "h").
    std::vector<int> blocks() const;

    json::Value toJson() const;

private:
    std::vector<Module> modules_;
    std::vector<Param> params_;
    std::unordered_map<std::string, int> moduleIndex_;
    std::unordered_map<std::string, int> paramIndex_;
};

// Reads the module-tree JSON written by scripts/export_module_tree.py.
// Returns false and appends problems (paths under `where`) when it is malformed.
bool moduleTreeFromJson(const json::Value& v, const JsonPath& where, ModuleTree& out, Problems& problems);

} // namespace sb
