// The pre-flight's results in the command line's English.
#pragma once

#include "run/preflight.hpp"

namespace sb::cli {

class PreflightWords : public app::PreflightWords {
public:
    QString checkName(app::Preflight::Check check) const override;
    QString checkingHosts(bool local) const override;
    QString startingCore() const override;
    QString planValid(int warnings) const override;
    QString planErrors(int errors) const override;
    QString problemLine(const Problem& problem) const override;
    QString memoryNotEstimated() const override;
    QString layoutNotChecked() const override;
    QString memoryFits(std::uint64_t peak, std::uint64_t capacity) const override;
    QString memoryOverConfirmed(int rank, std::uint64_t peak, std::uint64_t capacity) const override;
    QString memoryOver(int rank, std::uint64_t peak, std::uint64_t capacity) const override;
    QString cannotWritePlan() const override;
    QString cannotLayOut() const override;
    QString cannotRunHere() const override;
    QString layout(const QList<launch::HostSpec>& hosts, int world, bool local, bool slurm) const override;
    QString hostsReachable(bool local, int hosts) const override;
    QString hostsFailed(int hosts) const override;
    QString coreMissing(int hosts) const override;
    QString coreNotChecked() const override;
    QString corePresent(int hosts) const override;
    QString hostLabel(const app::HostProbeResult& result) const override;
    QString probeFailure(const app::HostProbeResult& result) const override;
    QString coreVersion(const app::HostProbeResult& result) const override;
};

} // namespace sb::cli
