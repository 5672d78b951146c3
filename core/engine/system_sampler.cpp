#include "system_sampler.hpp"

#include "events.hpp"
#include "nvml_reader.hpp"
#include "tracking_allocator.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace sb::engine {

namespace {

// utime + stime of /proc/self/stat in seconds, and the process' age: fields
// 14, 15 and 22 (starttime) after the command name's closing parenthesis.
bool readStat(double* cpuSeconds, double* ageSeconds)
{
    std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
    std::string line;
    double up = 0;
    if (!std::getline(stat, line) || !(uptime >> up)) return false;
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) return false;
    std::istringstream fields(line.substr(close + 2)); // field 3 onwards
    std::string skip;
    unsigned long long utime = 0, stime = 0, start = 0;
    for (int field = 3; field < 14; ++field) fields >> skip;
    fields >> utime >> stime;
    for (int field = 16; field < 22; ++field) fields >> skip;
    fields >> start;
    const long ticks = sysconf(_SC_CLK_TCK);
    if (!fields || ticks <= 0) return false;
    *cpuSeconds = static_cast<double>(utime + stime) / ticks;
    *ageSeconds = up - static_cast<double>(start) / ticks;
    return true;
}

double monotonicSeconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

ProcessCpu::ProcessCpu() = default;

void ProcessCpu::sample(protocol::System& s)
{
    double cpu = 0, age = 0;
    const double now = monotonicSeconds();
    if (readStat(&cpu, &age)) {
        const double wall = wallSeconds_ ? now - *wallSeconds_ : age;
        const double used = cpuSeconds_ ? cpu - *cpuSeconds_ : cpu;
        if (wall > 0 && used >= 0) s.cpuUtil = 100.0 * used / wall;
        cpuSeconds_ = cpu;
        wallSeconds_ = now;
    }
    if (const std::uint64_t rss = residentBytes(); rss > 0) s.hostRss = static_cast<long long>(rss); // 0: unreadable
}

SystemSampler::SystemSampler(int periodS, int gpuLocalRank)
{
    if (periodS <= 0) return;
    if (gpuLocalRank >= 0) {
        Result<std::unique_ptr<NvmlReader>> nvml = NvmlReader::open(gpuLocalRank);
        if (nvml) nvml_ = std::move(nvml).value();
        else events().log("system samples without GPU fields: " + nvml.error());
    }
    thread_ = std::thread([this, periodS] { loop(periodS); });
}

SystemSampler::~SystemSampler()
{
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void SystemSampler::loop(int periodS)
{
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        protocol::System s;
        cpu_.sample(s);
        if (nvml_) nvml_->read(s);
        events().emit(s);
        wake_.wait_for(lock, std::chrono::seconds(periodS), [this] { return stop_; });
    }
}

} // namespace sb::engine
