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
// exclusively, `mode` less the umask), fsyncs it, renames it over `path`
// and fsyncs the folder. On failure the temporary file is removed, `path` is
// as it was, the message names the step and `path` ("cannot write PATH: No
// space left on device"), and errno is the failed call's (ENOSPC: a full disk).
Status writeFileAtomic(const std::string& path, std::string_view data, unsigned mode = 0644);

// A failed system call on `path` as an error, from errno: "cannot open
// PATH: No such file or directory".
Status sysError(const std::string& what, const std::string& path);

// write(2) until every byte is written, retrying interrupted and short
// writes; false on an error (errno says which).
bool writeAll(int fd, std::string_view data);

// An errno as words for a person, with its name where it is one a full or
// failing disk gives: "no space left on device (ENOSPC)", "disk quota
// exceeded (EDQUOT)", "input/output error (EIO)"; else strerror's words.
std::string errnoWords(int err);

} // namespace sb
