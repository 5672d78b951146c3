// The one dim-0 shard layout (DESIGN.md, "Sharding"): a tensor of `rows`
// rows split `ways` ways gives every rank a chunk of ceil(rows / ways) rows,
// padded; rank r holds rows [r * chunk, min((r + 1) * chunk, rows)), so the
// last ranks may hold fewer rows or none. The estimator, the engine
// (fully_shard, sharded_unit, full import/export, checkpointer) and the
// checkpoint tools all take the layout from here.
#pragma once

#include <cstdint>

namespace sb {

struct ShardRows {
    std::int64_t begin = 0, end = 0; // rows [begin, end) of the global tensor
    std::int64_t count() const { return end - begin; }
};

// ceil(rows / ways): the padded rows every rank allocates. 0 when rows is 0.
// `ways` must be at least 1 and rows at least 0.
std::int64_t shardChunkRows(std::int64_t rows, std::int64_t ways);

// The rows rank `rank` (0 <= rank < ways) holds; empty (begin == end ==
// rows) for a trailing rank past the last row.
ShardRows shardRows(std::int64_t rows, std::int64_t ways, std::int64_t rank);

// ways * chunk: the rows of the padded tensor the shards tile.
std::int64_t paddedRows(std::int64_t rows, std::int64_t ways);

// How many leading ranks hold a whole chunk (all `ways` when rows is 0); the
// rank after them holds the remainder rows - full * chunk, if any.
std::int64_t fullShardRanks(std::int64_t rows, std::int64_t ways);

} // namespace sb
