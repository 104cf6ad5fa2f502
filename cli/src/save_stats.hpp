// What `simulate` and `merge` save besides the report: the statistics file and the SVG charts
// (made by rulebook_stats), each written through a temporary file.
#pragma once

#include <string>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::cli {

// Writes win-rates.svg, rounds.svg and moves.svg into `dir` (created if needed). Returns an
// error message, empty on success.
std::string write_plots(const stats::SimulationStats& stats, const std::string& dir);

// Writes the statistics file (when `stats_path` is not empty) and the charts (when `plot_dir`
// is not empty). Returns an error message, empty on success.
std::string write_stats_and_plots(const stats::SimulationStats& stats, const std::string& stats_path,
                                  const std::string& plot_dir);

}  // namespace rulebook::cli
