// Durable file-system steps of atomic checkpoint writes (POSIX).
#pragma once

#include "util/status.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sb::ckpt {

// Writes, fsyncs and closes a file. Errors name the step and the path.
Status writeFileDurably(const std::string& path, const std::string& contents);
Status fsyncPath(const std::string& path); // a file or a directory
// The same for `bytes` held in a page-aligned buffer allocated in whole pages:
// written around the page cache (O_DIRECT: no copy into the cache, no writeback
// threads competing with training), the last page padded and the file cut back
// to `bytes`. Goes through the cache where the file system refuses O_DIRECT.
Status writeAlignedFileDurably(const std::string& path, const void* data, std::size_t bytes);
inline constexpr std::size_t kPageBytes = 4096; // alignment O_DIRECT needs on every Linux file system
// The folder and its missing parents; a folder that exists already is ok.
Status makeDirs(const std::string& path);
// A file or folder with everything below it; a path that does not exist is ok.
Status removeTree(const std::string& path);
// rename(from, to), then fsync the parent folder so the rename itself is durable.
Status renameDurably(const std::string& from, const std::string& to);
std::vector<std::string> listDir(const std::string& path); // names, no "." or ".."
bool isDir(const std::string& path);
// Reads exactly `bytes` at `offset` of an open file (retrying short reads);
// `path` names it in the error sentence ("...: truncated (unexpected end of file)").
Status preadFully(int fd, const std::string& path, std::uint64_t offset, void* out, std::size_t bytes);
// The same on a file opened and closed for this one read.
Status readFileRange(const std::string& path, std::uint64_t offset, void* out, std::size_t bytes);
// Opens `path` for reading only if it is a regular file (after following
// symlinks): a FIFO would block the open or the read forever, /dev/zero never
// ends. Opened non-blocking, checked with fstat, then switched to blocking.
// Returns the descriptor, or an error naming the path.
Result<int> openRegularFile(const std::string& path);
// The contents of a whole regular file of at most `maxBytes`.
Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes);
bool exists(const std::string& path);

} // namespace sb::ckpt
