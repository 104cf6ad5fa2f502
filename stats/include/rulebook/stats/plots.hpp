// `simulate --plot DIR` (and `merge --plot DIR`): SVG charts of a simulation's statistics,
// written by hand (a chart of bars needs no plotting library): win rates per seat with their
// 95% intervals, and the distributions of game length in rounds and in moves.
#pragma once

#include <string>
#include <vector>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats {

// One bar (`<rect class="bar">`) per seat, each with its interval (`<line class="ci">`).
std::string win_rate_svg(const SimulationStats& stats);
// One bar per value from the shortest to the longest finished game in rounds (or moves), or
// per bin of equal width when that is more than 40 values: at most 40 bars.
std::string length_svg(const SimulationStats& stats, bool moves);

struct Chart {
  std::string file_name;  // win-rates.svg, rounds.svg, moves.svg
  std::string svg;
};
// The three charts, in that order, as `--plot DIR` writes them.
std::vector<Chart> charts(const SimulationStats& stats);

}  // namespace rulebook::stats
