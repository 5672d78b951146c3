#pragma once
// The exit status of shardbench-core and of the wrappers that start it
// (docs/protocol.md, "Exit codes"). The engine returns these; the supervisor
// and the launcher's failure analysis read them.

namespace sb::protocol {

enum class CoreExit : int {
    Ok = 0,                // the run finished (a "done" event with status "ok")
    Failed = 1,            // training failed after it started (an "error" event says why)
    BadInput = 2,          // arguments, environment, plan, checkpoint or data rejected (a token id beyond the vocabulary even mid-run)
    RendezvousFailed = 3,  // the ranks could not find each other (MASTER_ADDR/PORT, network)
    CannotRun = 126,       // a wrapper could not run the core (working folder, setsid missing)
    NotFound = 127,        // the core binary could not be started (exec failed)
};

constexpr int code(CoreExit e) { return static_cast<int>(e); }

// Exits that say the run's input or setup is wrong, so retrying the same
// attempt cannot help.
constexpr bool isSetupFailure(int status)
{
    return status == code(CoreExit::BadInput) || status == code(CoreExit::RendezvousFailed) ||
           status == code(CoreExit::CannotRun) || status == code(CoreExit::NotFound);
}

} // namespace sb::protocol
