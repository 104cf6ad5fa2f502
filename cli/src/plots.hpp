// `simulate --plot DIR` (and `merge --plot DIR`): SVG charts of a simulation's statistics,
// written by hand (a chart of bars needs no plotting library): win rates per seat with their
// 95% intervals, and the distributions of game length in rounds and in moves.
#pragma once

#include <string>

#include "simulation_stats.hpp"

namespace rulebook::cli {

// The three charts as SVG documents.
std::string win_rate_svg(const SimulationStats& stats);
std::string length_svg(const SimulationStats& stats, bool moves);

// Writes win-rates.svg, rounds.svg and moves.svg into `dir` (created if needed), each
// through a temporary file. Returns an error message, empty on success.
std::string write_plots(const SimulationStats& stats, const std::string& dir);

// What `simulate` and `merge` save besides the report: the statistics file (when
// `stats_path` is not empty) and the charts (when `plot_dir` is not empty). Returns an error
// message, empty on success.
std::string write_stats_and_plots(const SimulationStats& stats, const std::string& stats_path,
                                  const std::string& plot_dir);

}  // namespace rulebook::cli
