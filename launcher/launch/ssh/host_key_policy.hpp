// What to do with a host whose key is not in known_hosts. A changed or
// revoked key, or a host known only through a @cert-authority line, is never
// asked about: it is always refused (known_hosts.hpp). The CLI answers from a flag
// (--accept-new-host-key); the workbench will ask the user.
#pragma once

#include <QString>

namespace sb::launch {

struct HostKeyInfo {
    QString host;            // as the user wrote it
    QString address;         // host name after ~/.ssh/config
    int port = 22;
    QString keyType;         // "ssh-ed25519"
    QString fingerprint;     // "SHA256:..."
    QString knownHostsFile;  // where an accepted key is written
};

enum class HostKeyDecision {
    Reject,
    AcceptOnce,         // connect this time, do not remember
    AcceptAndRemember   // append the key to known_hosts
};

class HostKeyPolicy {
public:
    virtual ~HostKeyPolicy() = default;
    // Called from connection threads, possibly several at once; may block
    // while a person decides. Implementations must be thread-safe, and must
    // answer (Reject will do) before the backend is destroyed: destroying it
    // waits for its connection threads.
    virtual HostKeyDecision decideUnknownHost(const HostKeyInfo& info) = 0;
};

// The same answer for every unknown host.
class FixedHostKeyPolicy final : public HostKeyPolicy {
public:
    explicit FixedHostKeyPolicy(HostKeyDecision decision) : decision_(decision) {}
    HostKeyDecision decideUnknownHost(const HostKeyInfo&) override { return decision_; }

private:
    const HostKeyDecision decision_;
};

} // namespace sb::launch
