// The rendezvous port ranks started by srun agree on without talking: from
// the job and the step, so that two runs in one allocation (two steps of one
// job) never meet on the same port. Header-only and Torch-free: the launcher
// prints the same port the core uses.
#pragma once

namespace sb::engine {

inline int slurmRendezvousPort(long long jobId, long long stepId)
{
    // 1009 is prime to 15000: the steps of one job get distinct ports for
    // 15000 steps; step 0 of job J keeps 15000 + J % 15000.
    const long long mixed = jobId % 15000 + (stepId % 15000) * 1009;
    return static_cast<int>(15000 + mixed % 15000);
}

} // namespace sb::engine
