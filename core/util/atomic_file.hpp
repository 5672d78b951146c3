// Replacing a file's contents atomically and durably (POSIX): a reader sees
// the old bytes or the new ones, never a mix or an empty file, even after a
// crash or power loss, and two writers of one path (two runs sharing a
// folder, two windows saving one plan) never share a temporary file.
#pragma once

#include "util/status.hpp"

#include <string>
#include <string_view>

namespace sb {

// Writes `data` to a temporary file of its own next to `path` (created
// exclusively, mode 0644 less the umask), fsyncs it, renames it over `path`
// and fsyncs the folder. On failure the temporary file is removed, `path` is
// as it was, and the message names the step and the path.
Status writeFileAtomic(const std::string& path, std::string_view data);

// A failed system call on `path` as an error, from errno: "cannot open
// PATH: No such file or directory".
Status sysError(const std::string& what, const std::string& path);

// write(2) until every byte is written, retrying interrupted and short
// writes; false on an error (errno says which).
bool writeAll(int fd, std::string_view data);

} // namespace sb
