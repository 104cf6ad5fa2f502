// Saving the statistics file and the charts of `simulate` and `merge`.
#include "save_stats.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "output.hpp"
#include "rulebook/stats/plots.hpp"
#include "rulebook/stats/stats_file.hpp"

namespace rulebook::cli {

std::string write_plots(const stats::SimulationStats& stats, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create the plot folder '{}': {}", dir, ec.message());
  for (const stats::Chart& chart : stats::charts(stats)) {
    const std::string path = (std::filesystem::path(dir) / chart.file_name).string();
    const std::string error = write_file_atomically(path, chart.svg);
    if (!error.empty()) return error;
  }
  return {};
}

std::string write_stats_and_plots(const stats::SimulationStats& stats, const std::string& stats_path,
                                  const std::string& plot_dir) {
  if (!stats_path.empty()) {
    if (std::string error = write_file_atomically(stats_path, stats::stats_file_text(stats)); !error.empty()) {
      return error;
    }
  }
  return plot_dir.empty() ? std::string() : write_plots(stats, plot_dir);
}

}  // namespace rulebook::cli
