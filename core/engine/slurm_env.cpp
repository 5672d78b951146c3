#include "slurm_env.hpp"

#include "slurm_port.hpp"

#include <cctype>
#include <cstdlib>

namespace sb::engine {

namespace {

bool isDigits(const std::string& s)
{
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

} // namespace

Result<std::string> firstHost(const std::string& hostlist)
{
    std::string host;
    std::size_t i = 0;
    while (i < hostlist.size() && hostlist[i] != ',') {
        if (hostlist[i] != '[') {
            host += hostlist[i++];
            continue;
        }
        const std::size_t close = hostlist.find(']', i);
        if (close == std::string::npos) {
            return Status::error("unbalanced '[' in the host list \"" + hostlist + "\"");
        }
        // The first entry of the range list: "07-09,12" -> "07".
        const std::string inside = hostlist.substr(i + 1, close - i - 1);
        const std::string first = inside.substr(0, inside.find_first_of(",-"));
        if (!isDigits(first)) {
            return Status::error("\"[" + inside + "]\" in the host list \"" + hostlist + "\" is not a numeric range");
        }
        host += first;
        i = close + 1;
    }
    if (host.empty()) return Status::error("the host list \"" + hostlist + "\" names no host");
    return host;
}

Result<std::vector<int>> tasksPerNode(const std::string& spec)
{
    std::vector<int> counts;
    std::size_t i = 0;
    while (i < spec.size()) {
        const std::size_t end = spec.find(',', i);
        const std::string item = spec.substr(i, end == std::string::npos ? std::string::npos : end - i);
        i = end == std::string::npos ? spec.size() : end + 1;
        // "N" or "N(xR)": N tasks on each of R nodes.
        const std::size_t paren = item.find("(x");
        const std::string n = item.substr(0, paren);
        std::string repeat = "1";
        const bool closed = paren == std::string::npos || item.back() == ')';
        if (paren != std::string::npos && closed) repeat = item.substr(paren + 2, item.size() - paren - 3);
        if (!closed || !isDigits(n) || !isDigits(repeat) || n.size() > 6 || repeat.size() > 6) {
            return Status::error("\"" + item + "\" in \"" + spec + "\" is not N or N(xR)");
        }
        counts.insert(counts.end(), static_cast<std::size_t>(std::atoi(repeat.c_str())), std::atoi(n.c_str()));
    }
    if (counts.empty()) return Status::error("\"" + spec + "\" lists no tasks");
    return counts;
}

Result<SlurmVars> torchrunFromSlurm(const EnvLookup& env)
{
    SlurmVars vars;
    auto get = [&env](const char* name) -> std::string {
        const char* v = env(name);
        return v ? std::string(v) : std::string();
    };
    if (!get("RANK").empty() || !get("WORLD_SIZE").empty()) return vars;
    if (get("SLURM_STEP_ID").empty() || get("SLURM_PROCID").empty() || get("SLURM_NTASKS").empty()) return vars;

    vars["RANK"] = get("SLURM_PROCID");
    vars["WORLD_SIZE"] = get("SLURM_NTASKS");
    if (const std::string l = get("SLURM_LOCALID"); !l.empty()) vars["LOCAL_RANK"] = l;

    const char* perNodeVar = !get("SLURM_STEP_TASKS_PER_NODE").empty() ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
    if (const std::string spec = get(perNodeVar); !spec.empty()) {
        const Result<std::vector<int>> parsed = tasksPerNode(spec);
        if (!parsed) return parsed.status().prefixed(perNodeVar);
        const std::vector<int>& counts = parsed.value();
        const std::string node = get("SLURM_NODEID");
        const std::size_t index = isDigits(node) ? static_cast<std::size_t>(std::atoi(node.c_str())) : 0;
        if (index >= counts.size())
            return Status::error("SLURM_NODEID " + node + " has no entry in " + perNodeVar + "=\"" + spec + "\"");
        vars["LOCAL_WORLD_SIZE"] = std::to_string(counts[index]);
    }

    if (get("MASTER_ADDR").empty()) {
        const char* listVar = !get("SLURM_STEP_NODELIST").empty() ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
        if (const std::string list = get(listVar); !list.empty()) {
            const Result<std::string> host = firstHost(list);
            if (!host) return host.status().prefixed(listVar);
            vars["MASTER_ADDR"] = host.value();
        }
    }
    if (get("MASTER_PORT").empty()) {
        const std::string job = get("SLURM_JOB_ID"), step = get("SLURM_STEP_ID");
        if (isDigits(job) && job.size() < 19 && isDigits(step) && step.size() < 19)
            vars["MASTER_PORT"] = std::to_string(slurmRendezvousPort(std::atoll(job.c_str()), std::atoll(step.c_str())));
    }
    return vars;
}

} // namespace sb::engine
