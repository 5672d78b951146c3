// Running under torchrun (torch.distributed.elastic): what its agent tells a
// worker through the environment, and what it expects back.
// - TORCHELASTIC_USE_AGENT_STORE=True: the agent already hosts the TCPStore at
//   MASTER_ADDR:MASTER_PORT, so every rank connects as a client, under the
//   prefix "/worker/attempt_<TORCHELASTIC_RESTART_COUNT>" as PyTorch's own
//   env:// rendezvous does (an earlier attempt's keys stay in that store).
// - TORCHELASTIC_RESTART_COUNT > 0: the group was restarted; without --resume
//   the core resumes from the run's newest checkpoint (--resume auto).
// - TORCHELASTIC_RUN_ID names the run when --run-id does not.
// - TORCHELASTIC_ERROR_FILE: where a failed worker writes its error, in the
//   JSON torchrun's ProcessFailure reads, for the agent's failure summary.
#pragma once

#include "util/status.hpp"

#include <string>

namespace sb::engine {

struct ElasticEnv {
    bool agentStore = false;
    int restartCount = 0;
    std::string runId;     // "" when unset or torchrun's default "none"
    std::string errorFile; // "" when unset
};

// Reads the variables above; an error names a malformed one.
Status readElasticEnv(ElasticEnv& env);

// Writes `message` into `path` as torchrun's error file (atomically: a temporary
// file renamed over it).
Status writeElasticErrorFile(const std::string& path, const std::string& message);

} // namespace sb::engine
