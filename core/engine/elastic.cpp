#include "elastic.hpp"

#include "json/json.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace sb::engine {

Status readElasticEnv(ElasticEnv& env)
{
    if (const char* v = std::getenv("TORCHELASTIC_USE_AGENT_STORE")) env.agentStore = std::strcmp(v, "True") == 0;
    if (const char* v = std::getenv("TORCHELASTIC_RESTART_COUNT"); v && *v) {
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        if (*end != '\0' || n < 0 || n > 1000000)
            return Status::error(std::string("environment variable TORCHELASTIC_RESTART_COUNT=\"") + v + "\" is not a count");
        env.restartCount = static_cast<int>(n);
    }
    if (const char* v = std::getenv("TORCHELASTIC_RUN_ID"); v && *v && std::strcmp(v, "none") != 0) env.runId = v;
    if (const char* v = std::getenv("TORCHELASTIC_ERROR_FILE"); v && *v) env.errorFile = v;
    return {};
}

Status writeElasticErrorFile(const std::string& path, const std::string& message)
{
    json::Value extra = json::Value::object();
    extra.set("py_callstack", "shardbench-core (C++): " + message);
    extra.set("timestamp", std::to_string(static_cast<long long>(std::time(nullptr))));
    json::Value inner = json::Value::object();
    inner.set("message", "RuntimeError: " + message);
    inner.set("extraInfo", std::move(extra));
    json::Value root = json::Value::object();
    root.set("message", std::move(inner));
    const std::string text = root.dump() + "\n";
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !written) return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
    if (std::rename(tmp.c_str(), path.c_str()) != 0) return Status::error("cannot rename " + tmp + ": " + std::strerror(errno));
    return {};
}

} // namespace sb::engine
