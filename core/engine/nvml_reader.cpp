#include "nvml_reader.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <sstream>
#include <vector>

namespace sb::engine {

namespace {
// The few NVML declarations used (nvml.h, stable since NVML 5): every call
// returns nvmlReturn_t, 0 for success; enums are passed as int.
using NvmlReturn = int;
using NvmlDevice = struct NvmlDeviceOpaque*;
struct NvmlUtilization {
    unsigned int gpu;
    unsigned int memory;
};
constexpr int kNvmlTemperatureGpu = 0;
constexpr int kNvmlClockSm = 1;

template <class F>
bool bind(void* lib, const char* name, F*& f)
{
    f = reinterpret_cast<F*>(dlsym(lib, name));
    return f != nullptr;
}
} // namespace

struct NvmlReader::Api {
    void* lib = nullptr;
    NvmlDevice device = nullptr;
    NvmlReturn (*init)() = nullptr;
    NvmlReturn (*shutdown)() = nullptr;
    NvmlReturn (*byIndex)(unsigned int, NvmlDevice*) = nullptr;
    NvmlReturn (*byUuid)(const char*, NvmlDevice*) = nullptr;
    NvmlReturn (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
    NvmlReturn (*power)(NvmlDevice, unsigned int*) = nullptr;
    NvmlReturn (*temperature)(NvmlDevice, int, unsigned int*) = nullptr;
    NvmlReturn (*clock)(NvmlDevice, int, unsigned int*) = nullptr;
    const char* (*errorString)(NvmlReturn) = nullptr;
    bool initialised = false;

    ~Api()
    {
        if (initialised) shutdown();
        if (lib) dlclose(lib);
    }
    bool bindAll()
    {
        return bind(lib, "nvmlInit_v2", init) && bind(lib, "nvmlShutdown", shutdown) &&
               bind(lib, "nvmlDeviceGetHandleByIndex_v2", byIndex) && bind(lib, "nvmlDeviceGetHandleByUUID", byUuid) &&
               bind(lib, "nvmlDeviceGetUtilizationRates", utilization) && bind(lib, "nvmlDeviceGetPowerUsage", power) &&
               bind(lib, "nvmlDeviceGetTemperature", temperature) && bind(lib, "nvmlDeviceGetClockInfo", clock) &&
               bind(lib, "nvmlErrorString", errorString);
    }
    std::string why(const char* call, NvmlReturn rc) const { return std::string(call) + ": " + errorString(rc); }
};

std::string nvmlDeviceName(int localRank, const char* visible)
{
    if (localRank < 0) return {};
    if (!visible) return std::to_string(localRank);
    std::vector<std::string> entries;
    std::stringstream list(visible);
    for (std::string entry; std::getline(list, entry, ',');) entries.push_back(entry);
    return static_cast<std::size_t>(localRank) < entries.size() ? entries[static_cast<std::size_t>(localRank)] : std::string();
}

Result<std::unique_ptr<NvmlReader>> NvmlReader::open(int localRank)
{
    auto api = std::make_unique<Api>();
    api->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) return Status::error(std::string("cannot load libnvidia-ml.so.1: ") + dlerror());
    if (!api->bindAll()) return Status::error("libnvidia-ml.so.1 lacks the NVML calls needed (a driver older than NVML 5?)");
    if (const NvmlReturn rc = api->init(); rc != 0) return Status::error(api->why("nvmlInit_v2", rc));
    api->initialised = true;
    const std::string name = nvmlDeviceName(localRank, std::getenv("CUDA_VISIBLE_DEVICES"));
    if (name.empty()) return Status::error("CUDA_VISIBLE_DEVICES names no device " + std::to_string(localRank));
    const bool isIndex = name.find_first_not_of("0123456789") == std::string::npos;
    const NvmlReturn rc = isIndex ? api->byIndex(static_cast<unsigned int>(std::strtoul(name.c_str(), nullptr, 10)), &api->device)
                                  : api->byUuid(name.c_str(), &api->device);
    if (rc != 0) return Status::error(api->why(isIndex ? "nvmlDeviceGetHandleByIndex_v2" : "nvmlDeviceGetHandleByUUID", rc) + " (device " + name + ")");
    return std::unique_ptr<NvmlReader>(new NvmlReader(std::move(api)));
}

NvmlReader::NvmlReader(std::unique_ptr<Api> api) : api_(std::move(api)) {}
NvmlReader::~NvmlReader() = default;

void NvmlReader::read(protocol::System& s) const
{
    NvmlUtilization u{};
    if (api_->utilization(api_->device, &u) == 0) s.gpuUtil = u.gpu;
    unsigned int v = 0;
    if (api_->power(api_->device, &v) == 0) s.gpuPowerW = v / 1000.0;
    if (api_->temperature(api_->device, kNvmlTemperatureGpu, &v) == 0) s.gpuTempC = v;
    if (api_->clock(api_->device, kNvmlClockSm, &v) == 0) s.gpuSmClockMhz = v;
}

} // namespace sb::engine
