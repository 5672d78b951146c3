#include "backend_factory.hpp"

#include "local_backend.hpp"
#include "slurm/slurm_backend.hpp"
#include "ssh/ssh_backend.hpp"

namespace sb::launch {

std::unique_ptr<Backend> makeBackend(BackendKind kind, HostKeyPolicy* policy)
{
    switch (kind) {
    case BackendKind::Ssh: return std::make_unique<SshBackend>(policy);
    case BackendKind::Slurm: return std::make_unique<SlurmBackend>();
    case BackendKind::Local: break;
    }
    return std::make_unique<LocalBackend>();
}

} // namespace sb::launch
