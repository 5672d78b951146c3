// A GPU's counters from NVML (utilisation, power, temperature, SM clock) for
// the system samples of a CUDA rank. libnvidia-ml.so.1 is opened at run time
// with dlopen: the core has no link-time dependency on it, and a machine
// without the driver's library simply has no GPU fields.
#pragma once

#include "protocol/events.hpp"
#include "util/status.hpp"

#include <memory>
#include <string>

namespace sb::engine {

class NvmlReader {
public:
    // The device this rank uses: `localRank` among CUDA_VISIBLE_DEVICES
    // (an index or a GPU-... UUID there), or the index itself when it is unset.
    static Result<std::unique_ptr<NvmlReader>> open(int localRank);
    ~NvmlReader();
    NvmlReader(const NvmlReader&) = delete;
    NvmlReader& operator=(const NvmlReader&) = delete;

    // Fills the GPU fields of `s` that NVML answers; leaves the others absent.
    void read(protocol::System& s) const;

private:
    struct Api;
    explicit NvmlReader(std::unique_ptr<Api> api);
    std::unique_ptr<Api> api_;
};

// The NVML device that CUDA device `localRank` is, as CUDA_VISIBLE_DEVICES
// (`visible`, nullptr when unset) names it: an index ("3") or a UUID
// ("GPU-..."); "" when the list has no such entry.
std::string nvmlDeviceName(int localRank, const char* visible);

} // namespace sb::engine
