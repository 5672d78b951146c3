// Every `periodS` seconds a `system` event (protocol::System) for this rank:
// its process' CPU use and resident set from /proc/self, and on CUDA the GPU's
// counters (nvml_reader.hpp). A thread of its own writes through events(),
// whose lines never interleave. The first sample is taken at once; the
// destructor stops and joins the thread, so a run never waits at its exit for
// more than the sample being taken.
#pragma once

#include "protocol/events.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace sb::engine {

class NvmlReader;

// CPU time and resident set of this process from /proc/self.
class ProcessCpu {
public:
    ProcessCpu();
    // cpu_util since the previous call (since the process started, the first
    // time) and host_rss; each absent when /proc cannot say.
    void sample(protocol::System& s);

private:
    std::optional<double> cpuSeconds_, wallSeconds_; // at the previous sample
};

class SystemSampler {
public:
    // periodS 0: no samples. gpuLocalRank >= 0: a CUDA rank's device, read through NVML.
    SystemSampler(int periodS, int gpuLocalRank);
    ~SystemSampler();
    SystemSampler(const SystemSampler&) = delete;
    SystemSampler& operator=(const SystemSampler&) = delete;

private:
    void loop(int periodS);

    std::unique_ptr<NvmlReader> nvml_;
    ProcessCpu cpu_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;
};

} // namespace sb::engine
