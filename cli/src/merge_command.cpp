// `rulebook merge STATS...`: adds up the statistics files of the shards of one simulation
// (`simulate --shard I/N --stats FILE`) and prints the report one run of all games prints.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "output.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/stats/merge.hpp"
#include "rulebook/stats/report.hpp"
#include "rulebook/stats/stats_file.hpp"
#include "save_stats.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

using stats::SimulationStats;
using stats::StatsError;

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string format = "text";
  std::string stats;
  std::string plot;
};

int run_merge(const MergeOptions& options) {
  std::vector<SimulationStats> shards;
  for (const std::string& path : options.files) {
    std::string error;
    const std::optional<std::string> text = grammar::read_file(path, error, stats::kMaxStatsFileBytes);
    if (!text) {
      fmt::print(stderr, "error: cannot read '{}': {}\n", grammar::printable(path), error);
      return kExitBadInput;
    }
    try {
      shards.push_back(stats::stats_from_text(*text));
    } catch (const StatsError& e) {
      fmt::print(stderr, "error: {}: {}\n", grammar::printable(path), grammar::printable(e.what()));
      return kExitBadInput;
    }
  }
  SimulationStats merged;
  try {
    merged = stats::merge_stats(std::move(shards), options.files);
  } catch (const StatsError& e) {
    fmt::print(stderr, "error: {}\n", grammar::printable(e.what()));
    return kExitBadInput;
  }
  if (!options.plot.empty()) {
    if (const std::string error = output_folder_error(options.plot); !error.empty()) {
      fmt::print(stderr, "error: --plot {}: {}\n", grammar::printable(options.plot), error);
      return kExitBadInput;
    }
  }
  if (const std::string error = inside_output_folder_error(options.stats, "--stats", options.plot, "--plot"); !error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    return kExitBadInput;
  }
  if (const std::string error = write_stats_and_plots(merged, options.stats, options.plot); !error.empty()) {
    fmt::print(stderr, "error: {}\n", error);
    return kExitBadInput;
  }
  fmt::print("{}", stats::stats_report(merged, options.format == "json"));
  return kExitOk;
}

}  // namespace

void add_merge_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "merge", "Add up the statistics of the shards of one simulation (simulate --shard I/N --stats FILE)");
  cmd->add_option("stats", options->files, "Statistics files, one per shard, in any order")->required();
  cmd->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->default_str("text");
  cmd->add_option("--stats", options->stats, "Also save the merged statistics to this file")->check(output_path())
      ->type_name("FILE");
  cmd->add_option("--plot", options->plot, "Write SVG charts (win rates, game lengths) into this folder")->check(output_path())->type_name("DIR");
  cmd->callback([options, &exit_code] { exit_code = run_merge(*options); });
}

}  // namespace rulebook::cli
