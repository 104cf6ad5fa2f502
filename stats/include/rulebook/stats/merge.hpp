// `rulebook merge`: the shards of one simulation (`simulate --shard I/N --stats FILE`) added
// up into exactly the statistics of one run of all their games.
#pragma once

#include <string>
#include <vector>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats {

// Adds up the shards of one run, given in any order; `names[i]` (a file, optional) names
// shards[i] in messages, else "shard N". The result is shard 0 of 1. Throws StatsError when
// they are not all the shards of one run (another version, ruleset, file, options, seed,
// cap, number of games or shards, labels or seats; a shard missing, repeated or
// interrupted), or when a sum passes the largest count (2^63 - 1, or 2^64 - 1 for a rule's
// starts and firings): "FILE: \"reached\" of label 0: the sum passes 18446744073709551615".
SimulationStats merge_stats(std::vector<SimulationStats> shards, const std::vector<std::string>& names = {});

}  // namespace rulebook::stats
