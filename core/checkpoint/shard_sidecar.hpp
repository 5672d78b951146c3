// How the shard ranks of a checkpoint hand their part to rank 0. Each writes
// its file into step-N.tmp with a sidecar beside it (rank-NNNNN.json: the
// file's size and SHA-256, and the rows and CRC-32C of every shard in it), then
// says in the rendezvous store whether it succeeded. Rank 0 waits for every
// word, reads every sidecar (checked: a damaged one fails the checkpoint, it
// does not crash rank 0) and merges them into index.json.
#pragma once

#include "checkpoint_io.hpp"

#include "json/json.hpp"
#include "util/status.hpp"

#include <string>

namespace sb::ckpt {

json::Value sidecarToJson(const WrittenFile& written);
// Errors name `path` and what is missing or malformed.
Result<WrittenFile> readSidecar(const std::string& path);

// The store's word on one shard rank's write: "ok", or "error: " + the message.
std::string shardWriteRecord(const Status& written);
// Reads that word back; anything else is an error too, quoting it.
Status shardWriteStatus(const std::string& record);

} // namespace sb::ckpt
