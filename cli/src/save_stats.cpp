// Saving the statistics file and the charts of `simulate` and `merge`.
#include "save_stats.hpp"

#include <filesystem>
#include <memory>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "output.hpp"
#include "rulebook/stats/plots.hpp"
#include "rulebook/stats/stats_file.hpp"

namespace rulebook::cli {

std::string write_plots(const stats::SimulationStats& stats, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create the plot folder '{}': {}", dir, ec.message());
  // All the charts are written before any is renamed into place: a chart that cannot be
  // written (a full disk) leaves the folder's charts all of the last run, not of two runs.
  const std::vector<stats::Chart> charts = stats::charts(stats);
  std::vector<std::unique_ptr<StagedFile>> staged;
  for (const stats::Chart& chart : charts) {
    const std::string path = (std::filesystem::path(dir) / chart.file_name).string();
    staged.push_back(std::make_unique<StagedFile>());
    if (std::string error = stage_file(path, chart.svg, *staged.back(), OutputName::kInFolder); !error.empty()) return error;
  }
  for (const std::unique_ptr<StagedFile>& file : staged) {
    if (std::string error = file->commit(); !error.empty()) return error;
  }
  return {};
}

std::string write_stats_and_plots(const stats::SimulationStats& stats, const std::string& stats_path,
                                  const std::string& plot_dir) {
  // Each is tried: the charts were skipped without a word when the statistics could not be
  // written (the tenth probe).
  const std::string stats_error = stats_path.empty() ? std::string() : write_file_atomically(stats_path, stats::stats_file_text(stats));
  const std::string plot_error = plot_dir.empty() ? std::string() : write_plots(stats, plot_dir);
  if (stats_error.empty()) return plot_error;
  if (plot_dir.empty()) return stats_error;
  return plot_error.empty() ? fmt::format("{} (the charts are written)", stats_error)
                            : fmt::format("{}\nerror: {}", stats_error, plot_error);
}

}  // namespace rulebook::cli
