#include "shard_layout.hpp"

#include <algorithm>

namespace sb {

std::int64_t shardChunkRows(std::int64_t rows, std::int64_t ways)
{
    return ways < 1 ? rows : (rows + ways - 1) / ways;
}

ShardRows shardRows(std::int64_t rows, std::int64_t ways, std::int64_t rank)
{
    const std::int64_t chunk = shardChunkRows(rows, ways);
    ShardRows r;
    r.begin = std::min(rank * chunk, rows);
    r.end = std::min(r.begin + chunk, rows);
    return r;
}

std::int64_t paddedRows(std::int64_t rows, std::int64_t ways)
{
    return std::max<std::int64_t>(ways, 1) * shardChunkRows(rows, ways);
}

std::int64_t fullShardRanks(std::int64_t rows, std::int64_t ways)
{
    const std::int64_t chunk = shardChunkRows(rows, ways);
    return chunk == 0 ? ways : std::min(rows / chunk, ways);
}

} // namespace sb
