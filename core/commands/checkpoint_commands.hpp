// shardbench-cli checkpoint inspect|verify|export: sharded checkpoints read
// without LibTorch (core/checkpoint). Exit 0 on success, 2 on a bad or
// damaged checkpoint with the message on stderr.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace sb::cli {

int cmdCheckpoint(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Its usage, as its errors and --help print it.
extern const char* const kCheckpointUsage;

} // namespace sb::cli
