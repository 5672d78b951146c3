#include "module_tree.hpp"

#include "../json/json.hpp"

#include <algorithm>
#include <utility>

namespace sb {

std::int64_t Param::numel() const
{
    std::int64_t n = 1;
    for (std::int64_t d : shape) n *= d;
    return n;
}

std::int64_t Param::rowNumel() const
{
    std::int64_t n = 1;
    for (std::size_t i = 1; i < shape.size(); ++i) n *= shape[i];
    return n;
}

ModuleTree::ModuleTree(std::string rootType)
{
    Module root;
    root.type = std::move(rootType);
    modules_.push_back(std::move(root));
}

int ModuleTree::addModule(int parent, std::string name, std::string type)
{
    Module m;
    const Module& p = modules_[static_cast<std::size_t>(parent)];
    m.path = p.path.empty() ? name : p.path + "." + name;
    m.name = std::move(name);
    m.type = std::move(type);
    m.parent = parent;
    m.depth = p.depth + 1;
    int index = static_cast<int>(modules_.size());
    modules_[static_cast<std::size_t>(parent)].children.push_back(index);
    modules_.push_back(std::move(m));
    return index;
}

int ModuleTree::addParam(int module, std::string name, std::vector<std::int64_t> shape, DType dtype)
{
    Param p;
    const Module& m = modules_[static_cast<std::size_t>(module)];
    p.path = m.path.empty() ? name : m.path + "." + name;
    p.module = module;
    p.shape = std::move(shape);
    p.dtype = dtype;
    int index = static_cast<int>(params_.size());
    modules_[static_cast<std::size_t>(module)].params.push_back(index);
    params_.push_back(std::move(p));
    return index;
}

int ModuleTree::addTiedParam(int module, std::string name, int target)
{
    const Param& t = params_[static_cast<std::size_t>(target)];
    int index = addParam(module, std::move(name), t.shape, t.dtype);
    tieParam(index, target);
    return index;
}

void ModuleTree::tieParam(int param, int target)
{
    int root = target;
    while (params_[static_cast<std::size_t>(root)].tiedTo >= 0) root = params_[static_cast<std::size_t>(root)].tiedTo;
    params_[static_cast<std::size_t>(param)].tiedTo = root == param ? -1 : root;
}

void ModuleTree::finish()
{
    // Modules are appended depth-first by every builder, so a subtree is the
    // contiguous range up to the next module at the same or a lower depth.
    const int n = static_cast<int>(modules_.size());
    for (int i = n - 1; i >= 0; --i) {
        Module& m = modules_[static_cast<std::size_t>(i)];
        m.subtreeEnd = i + 1;
        for (int c : m.children)
            m.subtreeEnd = std::max(m.subtreeEnd, modules_[static_cast<std::size_t>(c)].subtreeEnd);
    }
    moduleIndex_.clear();
    paramIndex_.clear();
    for (int i = 0; i < n; ++i) moduleIndex_.emplace(modules_[static_cast<std::size_t>(i)].path, i);
    for (int i = 0; i < static_cast<int>(params_.size()); ++i) paramIndex_.emplace(params_[static_cast<std::size_t>(i)].path, i);
}

int ModuleTree::findModule(std::string_view path) const
{
    auto it = moduleIndex_.find(std::string(path));
    return it == moduleIndex_.end() ? -1 : it->second;
}

int ModuleTree::findParam(std::string_view path) const
{
    auto it = paramIndex_.find(std::string(path));
    return it == paramIndex_.end() ? -1 : it->second;
}

bool ModuleTree::isInSubtree(int module, int ancestor) const
{
    return module >= ancestor && module < modules_[static_cast<std::size_t>(ancestor)].subtreeEnd;
}

std::int64_t ModuleTree::totalParams() const
{
    std::int64_t n = 0;
    for (const Param& p : params_)
        if (p.tiedTo < 0) n += p.numel();
    return n;
}

std::vector<int> ModuleTree::blocks() const
{
    std::vector<int> out;
    for (const Module& m : modules_) {
        if (m.type != "ModuleList" && m.type != "Sequential") continue;
        for (int c : m.children) out.push_back(c);
    }
    return out;
}

json::Value ModuleTree::toJson() const
{
    json::Value mods = json::Value::array();
    for (const Module& m : modules_) {
        json::Value jm = json::Value::object();
        jm.set("name", m.path);
        jm.set("type", m.type);
        json::Value ps = json::Value::array();
        for (int pi : m.params) {
            const Param& p = params_[static_cast<std::size_t>(pi)];
            json::Value jp = json::Value::object();
            jp.set("name", p.path.substr(m.path.empty() ? 0 : m.path.size() + 1));
            json::Value shape = json::Value::array();
            for (std::int64_t d : p.shape) shape.push(d);
            jp.set("shape", shape);
            jp.set("dtype", dtypeTorchName(p.dtype));
            if (p.tiedTo >= 0) jp.set("tied_to", params_[static_cast<std::size_t>(p.tiedTo)].path);
            ps.push(jp);
        }
        jm.set("params", ps);
        mods.push(jm);
    }
    json::Value root = json::Value::object();
    root.set("format", "shardbench-module-tree");
    root.set("version", 1);
    root.set("modules", mods);
    return root;
}

namespace {

void addProblem(Problems& ps, const JsonPath& path, ProblemCode code, std::vector<ProblemArg> args = {})
{
    ps.push_back({Severity::Error, path, code, std::move(args)});
}

} // namespace

bool moduleTreeFromJson(const json::Value& v, const JsonPath& where, ModuleTree& out, Problems& problems)
{
    const std::size_t before = problems.size();
    if (!v.isObject()) {
        addProblem(problems, where, ProblemCode::TreeNotObject);
        return false;
    }
    if (const json::Value* f = v.find("format"); f && (!f->isString() || f->asString() != "shardbench-module-tree"))
        addProblem(problems, where.key("format"), ProblemCode::TreeFormat);
    if (const json::Value* ver = v.find("version"); ver && (!ver->isInteger() || ver->asInt() != 1))
        addProblem(problems, where.key("version"), ProblemCode::TreeVersion);
    const json::Value* mods = v.find("modules");
    if (!mods || !mods->isArray() || mods->size() == 0) {
        addProblem(problems, where.key("modules"), ProblemCode::TreeModules);
        return false;
    }
    if (problems.size() != before) return false;

    ModuleTree tree;
    struct PendingTie { int param; std::string target; JsonPath path; };
    std::vector<PendingTie> ties;
    std::unordered_map<std::string, int> seen{{"", 0}};
    const json::Array& arr = mods->asArray();
    for (std::size_t i = 0; i < arr.size(); ++i) {
        auto at = [&] { return where.key("modules").index(i); }; // built only for a problem
        const json::Value& jm = arr[i];
        const json::Value* name = jm.find("name");
        if (!jm.isObject() || !name || !name->isString()) {
            addProblem(problems, at(), ProblemCode::TreeModule);
            continue;
        }
        const std::string& path = name->asString();
        const json::Value* type = jm.find("type");
        std::string typeName = type && type->isString() ? type->asString() : "Module";
        // Module, type and parameter names become unit names, messages and log lines: one line of printable text.
        checkPrintable(typeName, at().key("type"), "type", problems);
        if (const std::size_t beforeName = problems.size(); i > 0) {
            checkPrintable(path, at().key("name"), "name", problems);
            if (problems.size() != beforeName) continue;
        }
        int index = 0;
        if (i == 0) {
            if (!path.empty()) {
                addProblem(problems, at().key("name"), ProblemCode::TreeRoot);
                return false;
            }
            tree = ModuleTree(typeName);
        } else {
            if (path.empty() || seen.count(path)) {
                addProblem(problems, at().key("name"), ProblemCode::TreeDuplicate, {path});
                continue;
            }
            std::size_t dot = path.rfind('.');
            std::string parentPath = dot == std::string::npos ? "" : path.substr(0, dot);
            auto parent = seen.find(parentPath);
            if (parent == seen.end()) {
                addProblem(problems, at().key("name"), ProblemCode::TreeOrphan, {path, parentPath});
                continue;
            }
            index = tree.addModule(parent->second, dot == std::string::npos ? path : path.substr(dot + 1), typeName);
            seen.emplace(path, index);
        }
        const json::Value* ps = jm.find("params");
        if (!ps) continue;
        if (!ps->isArray()) {
            addProblem(problems, at().key("params"), ProblemCode::TreeParams);
            continue;
        }
        for (std::size_t j = 0; j < ps->size(); ++j) {
            auto pat = [&] { return at().key("params").index(j); };
            const json::Value& jp = ps->asArray()[j];
            const json::Value* pname = jp.find("name");
            const json::Value* shape = jp.find("shape");
            if (!jp.isObject() || !pname || !pname->isString() || pname->asString().empty()) {
                addProblem(problems, pat(), ProblemCode::TreeParam);
                continue;
            }
            const std::size_t beforeParam = problems.size();
            checkPrintable(pname->asString(), pat().key("name"), "name", problems);
            if (problems.size() != beforeParam) continue;
            std::vector<std::int64_t> dims;
            constexpr std::int64_t kMaxNumel = std::int64_t(1) << 40;
            std::int64_t numel = 1;
            bool shapeOk = shape && shape->isArray();
            if (shapeOk)
                for (const json::Value& d : shape->asArray()) {
                    if (!d.isInteger() || d.asInt() < 0 || d.asInt() > kMaxNumel) { shapeOk = false; break; }
                    dims.push_back(d.asInt());
                }
            if (!shapeOk) {
                addProblem(problems, pat().key("shape"), ProblemCode::TreeShape);
                continue;
            }
            for (std::int64_t d : dims) // checked so that later element counts never overflow
                numel = (d == 0 || numel == 0) ? 0 : (numel > kMaxNumel / d ? kMaxNumel + 1 : numel * d);
            if (numel > kMaxNumel) {
                addProblem(problems, pat().key("shape"), ProblemCode::TreeNumel);
                continue;
            }
            DType dt = DType::F32;
            if (const json::Value* jd = jp.find("dtype")) {
                auto parsed = jd->isString() ? parseDType(jd->asString()) : std::nullopt;
                if (!parsed) {
                    addProblem(problems, pat().key("dtype"), ProblemCode::TreeDtype, {jd->dump()});
                    continue;
                }
                dt = *parsed;
            }
            int pi = tree.addParam(index, pname->asString(), dims, dt);
            if (const json::Value* tie = jp.find("tied_to"); tie && tie->isString())
                ties.push_back({pi, tie->asString(), pat().key("tied_to")});
        }
    }
    tree.finish();
    for (const PendingTie& t : ties) {
        int target = tree.findParam(t.target);
        if (target < 0 || target == t.param) {
            addProblem(problems, t.path, ProblemCode::TreeTie, {t.target});
            continue;
        }
        if (tree.param(target).shape != tree.param(t.param).shape) {
            addProblem(problems, t.path, ProblemCode::TreeTieShape, {t.target});
            continue;
        }
        tree.tieParam(t.param, target);
    }
    // A tie may name a parameter that is itself tied further on: point every
    // alias at the owner of the storage.
    for (int p = 0; p < static_cast<int>(tree.params().size()); ++p)
        if (tree.param(p).tiedTo >= 0) tree.tieParam(p, tree.param(p).tiedTo);
    if (problems.size() != before) return false;
    out = std::move(tree);
    return true;
}

} // namespace sb
