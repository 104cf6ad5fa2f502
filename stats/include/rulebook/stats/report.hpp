// The report `simulate` and `merge` print on stdout.
#pragma once

#include <string>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats {

// The report as text (wins per seat with 95% intervals, game lengths, capped games, rule
// coverage) or as one JSON document (indent 2), ending with a newline. It depends on the
// statistics only, so a merge of shards prints what one run of all their games prints.
std::string stats_report(const SimulationStats& stats, bool json);

}  // namespace rulebook::stats
