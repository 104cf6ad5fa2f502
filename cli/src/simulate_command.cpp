// `rulebook simulate FILE --games N ...`: many games between random agents, with win rates,
// game lengths and rule coverage. Standard output depends only on the ruleset, the options
// and the seed (never on --jobs or the machine); timing and progress go to stderr.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "game_setup.hpp"
#include "number_options.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "save_stats.hpp"
#include "stop_signals.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/logs/log.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "rulebook/stats/report.hpp"
#include "rulebook/stats/simulation_stats.hpp"
#include "path_options.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct SimulateOptions {
  GameOptions game;
  std::int64_t games = 0;
  int jobs = 1;
  std::int64_t max_moves = 100000;
  std::string logs;
  bool force = false;  // --logs into a folder that holds files
  std::string format = "text";
  std::string shard;  // "I/N"
  std::string stats;  // where to save the mergeable statistics
  std::string plot;   // folder for the SVG charts
};

// "I/N" with 0 <= I < N, or a message on stderr.
std::optional<std::pair<std::int64_t, std::int64_t>> parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  std::int64_t index = -1, count = 0;
  const auto number = [](std::string_view part, std::int64_t& out) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), out);
    return error == std::errc() && end == part.data() + part.size() && !part.empty();
  };
  if (slash != std::string::npos && number(std::string_view(text).substr(0, slash), index) &&
      number(std::string_view(text).substr(slash + 1), count) && count >= 1 && count <= stats::kMaxShards &&
      index >= 0 && index < count) {
    return std::pair{index, count};
  }
  fmt::print(stderr, "error: --shard takes I/N, the shard's number I from 0 to N-1 of N shards, N from 1 to {} (as 2/4), not '{}'\n",
             stats::kMaxShards, grammar::printable(text));
  return std::nullopt;
}

// Replays game `index` with a log writer: the same game, since every game is seeded.
std::string game_log(const ri::Machine& machine, const ri::GameConfig& base, std::int64_t index, std::int64_t max_moves) {
  ri::GameConfig config = base;
  config.seed = ri::game_seed(base.seed, static_cast<std::uint64_t>(index));
  ri::LogWriter log(machine, config);
  (void)ri::play_random_game(machine, config, max_moves, &log);
  return log.text();
}

// Creates the --logs folder, or checks that it is empty unless `force`: the logs of an
// earlier run would be replaced one by one, or mixed with this run's (a run of fewer games
// leaves the old logs past its last game). Prints the error.
bool prepare_log_folder(const std::string& folder, bool force) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    fmt::print(stderr, "error: cannot create the log folder '{}': {}\n", grammar::printable(folder), ec.message());
    return false;
  }
  if (force) return true;
  const std::filesystem::directory_iterator entries(folder, ec);
  if (ec) {
    fmt::print(stderr, "error: cannot read the log folder '{}': {}\n", grammar::printable(folder), ec.message());
    return false;
  }
  if (entries != std::filesystem::directory_iterator()) {
    fmt::print(stderr,
               "error: the log folder '{}' is not empty: this run's logs would replace its files or be mixed with "
               "them; give a new or empty folder, or add --force to write into it anyway\n",
               grammar::printable(folder));
    return false;
  }
  return true;
}

// Games per batch of a run: enough to keep every thread busy, few enough to keep in memory.
constexpr std::int64_t kBatch = 20000;

void print_progress(std::int64_t done, std::int64_t total) {
  fmt::print(stderr, "\r{} {}/{} games", progress_bar(done, total), done, total);
}

int run_simulate(const SimulateOptions& options) {
  if (options.games < 1) {
    fmt::print(stderr, "error: --games must be at least 1\n");
    return kExitBadInput;
  }
  std::pair<std::int64_t, std::int64_t> shard{0, 1};
  if (!options.shard.empty()) {
    const auto parsed = parse_shard(options.shard);
    if (!parsed) return kExitBadInput;
    shard = *parsed;
  }
  const auto [first, last] = stats::shard_range(options.games, shard.first, shard.second);
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.game.file, exit_code, output_format(options.format));
  if (!machine) return exit_code;
  const std::optional<ri::GameConfig> config = game_config(options.game, 1);
  if (!config) return kExitBadInput;
  std::vector<bool> automated;  // by seat, for the statistics of a run that plays no game (an empty shard)
  try {
    const ri::State state = machine->start(*config);  // validates players and options before any thread starts
    for (std::int64_t p = 0; p < state.num_seats; ++p) automated.push_back(p >= state.num_players);
  } catch (const ri::ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitBadInput;
  }
  // Where the results go is checked before the games: a path that cannot be written was found
  // only after every game had been played.
  for (const auto& [folder, name] : {std::pair(options.logs, "--logs"), std::pair(options.plot, "--plot")}) {
    if (const std::string error = inside_output_folder_error(options.stats, "--stats", folder, name); !error.empty()) {
      fmt::print(stderr, "error: {}\n", error);
      return kExitBadInput;
    }
  }
  if (!options.stats.empty()) {
    if (const std::string error = output_file_error(options.stats); !error.empty()) {
      fmt::print(stderr, "error: --stats {}: {}\n", grammar::printable(options.stats), error);
      return kExitBadInput;
    }
    if (const std::string error = input_overwrite_error(options.stats); !error.empty()) {
      fmt::print(stderr, "error: --stats {}\n", error);
      return kExitBadInput;
    }
  }
  if (!options.plot.empty()) {
    if (const std::string error = output_folder_error(options.plot); !error.empty()) {
      fmt::print(stderr, "error: --plot {}: {}\n", grammar::printable(options.plot), error);
      return kExitBadInput;
    }
  }
  // Made after every check: a refused command left an empty --logs folder behind.
  if (!options.logs.empty() && !prepare_log_folder(options.logs, options.force)) return kExitBadInput;

  const std::int64_t games = last - first;
  const bool show_progress = isatty(STDERR_FILENO) != 0 && games >= 200;
  const auto started = std::chrono::steady_clock::now();
  const ri::Ir& ir = machine->ir();
  stats::SimulationStats stats;
  stats.ruleset = ir.title;
  stats.file = grammar::printable(options.game.file);  // a path is any bytes; the file holds text
  stats.source_hash = ir.source_hash;
  stats.players_requested = config->players;
  stats.options = config->options;
  stats.seed = config->seed;
  stats.max_moves = options.max_moves;
  stats.games = options.games;
  stats.shard = shard.first;
  stats.shards = shard.second;
  stats.labels = ir.labels;
  for (const auto& payoff : ir.payoffs) stats.payoff_names.push_back(payoff.name);
  for (const grammar::SourceSpan& span : ir.label_spans) stats.label_places.push_back(machine->where(span));
  stats.set_seats(automated);
  stats.reached.assign(ir.labels.size(), 0);
  stats.fired.assign(ir.labels.size(), 0);
  // Ctrl-C or SIGTERM stops starting games; the statistics of the games played so far are
  // printed and saved.
  catch_stop_signals();
  // Games run in batches, each folded into the statistics: memory stays small for any --games.
  std::optional<ri::GameResult> fault_game;
  const std::int64_t& played = stats.played;  // counted by stats.add
  while (played < games && !fault_game && !stop_requested().load()) {
    const std::int64_t batch = std::min(kBatch, games - played);
    std::function<void(std::int64_t)> progress;
    if (show_progress) progress = [&](std::int64_t done) { print_progress(played + done, games); };
    std::vector<ri::GameResult> results = ri::simulate(*machine, *config, batch, options.max_moves, options.jobs,
                                                       progress, &stop_requested(), first + played);
    for (ri::GameResult& r : results) {
      if (r.fault) {
        fault_game = std::move(r);
        break;
      }
      stats.add(r, first + played);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (show_progress) fmt::print(stderr, "\n");
  const std::int64_t ran = played + (fault_game ? 1 : 0);
  fmt::print(stderr, "{} game{} in {:.2f} s ({:.0f} games/s, {} job{})\n", ran, ran == 1 ? "" : "s", seconds,
             static_cast<double>(ran) / std::max(seconds, 1e-9), options.jobs, options.jobs == 1 ? "" : "s");
  const bool stopped = !fault_game && played < games;
  stats.interrupted = stopped;
  if (stopped) {
    fmt::print(stderr, "{}: {} of {} games played; the statistics are of those games{}\n", stop_reason(), played,
               games, options.logs.empty() ? "" : ", and no log was written");
    if (played == 0) return stop_exit_code();
  }

  // A fault stops the run: report it, and save the failing game's log where logs were asked for.
  if (fault_game) {
    const std::int64_t index = first + played;
    const ri::Fault& f = *fault_game->fault;
    fmt::print(stderr, "rule fault in game {} (seed {}): {}\n  rule: {}\n  at: {}\n", index, fault_game->seed,
               f.message, f.rule >= 0 ? ir.labels[static_cast<std::size_t>(f.rule)] : "(no labelled rule)",
               machine->where(f.span));
    fmt::print(stderr, "{}\n", fault_game->fault_state);
    nlohmann::json saved = nullptr;
    if (options.logs.empty()) {
      // Every game is seeded, so a rerun faults in the same game; no file appears unasked.
      fmt::print(stderr, "  no log was saved: run again with --logs DIR to save this game's log as DIR/fault-game-{}.jsonl\n",
                 index);
    } else {
      const std::string path = (std::filesystem::path(options.logs) / fmt::format("fault-game-{}.jsonl", index)).string();
      const std::string write_error = write_file_atomically(path, game_log(*machine, *config, index, options.max_moves), OutputName::kInFolder);
      if (write_error.empty()) {
        fmt::print(stderr, "  the game's log is in {}\n", path);
        saved = path;
      } else {
        fmt::print(stderr, "  the game's log could not be saved: {}\n", write_error);
      }
    }
    // A JSON reader gets a document that carries the fault, not an empty stdout.
    if (options.format == "json") {
      print_json_error(fmt::format("rule fault in game {}: {}", index, f.message), kExitFinding,
                       {{"ruleset", ir.title},
                        {"file", options.game.file},
                        {"game", index},
                        {"seed", std::to_string(fault_game->seed)},
                        {"fault", fault_json(*machine, f)},
                        {"log", saved}});
    }
    return kExitFinding;
  }
  // Every game was played: a signal while the logs are written stops the logs, not the
  // statistics, which are still printed and saved.
  bool logs_stopped = false;
  bool logs_failed = false;
  if (!options.logs.empty() && !stopped) {
    for (std::int64_t g = first; g < last; ++g) {
      if (stop_requested().load()) {
        fmt::print(stderr, "{}: {} of {} logs written, each one whole; the statistics are of all {} games\n",
                   stop_reason(), g - first, games, games);
        logs_stopped = true;
        break;
      }
      const std::string path = (std::filesystem::path(options.logs) / fmt::format("game-{:06}.jsonl", g)).string();
      const std::string write_error = write_file_atomically(path, game_log(*machine, *config, g, options.max_moves), OutputName::kInFolder);
      if (!write_error.empty()) {
        // As after a signal: the logs stop, the statistics of every game are still given.
        fmt::print(stderr, "error: {}; {} of {} logs written, each one whole; the statistics are of all {} games\n",
                   write_error, g - first, games, games);
        logs_failed = true;
        break;
      }
    }
  }

  // The report is printed even when a file cannot be written: it is not lost with the file.
  const std::string save_error = write_stats_and_plots(stats, options.stats, options.plot);
  if (!save_error.empty()) fmt::print(stderr, "error: {}\n", save_error);
  fmt::print("{}", stats::stats_report(stats, options.format == "json"));
  if (logs_failed || !save_error.empty()) return kExitBadInput;
  return stopped || logs_stopped ? stop_exit_code() : kExitOk;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Play many games between random agents and report statistics");
  add_game_options(*cmd, options->game);
  cmd->add_option("--games", options->games, "Number of games")->required()->transform(whole_number(1, stats::kMaxGames));
  cmd->add_option("--jobs", options->jobs, "Threads to use (results do not depend on it)")
      ->transform(whole_number(1, 256))
      ->default_str("1");
  cmd->add_option("--max-moves", options->max_moves, "Stop a game after this many decisions (counted apart)")
      ->transform(whole_number(1, 1000000000))
      ->default_str("100000");
  CLI::Option* logs = cmd->add_option("--logs", options->logs,
                  "Write every game's log into this folder, which must be new or empty; after a rule fault, only "
                  "the faulty game's log (fault-game-N.jsonl). Without --logs no log is written")
      ->check(output_path())
      ->type_name("DIR");
  cmd->add_flag("--force", options->force,
                "With --logs: write into a folder that already holds files, replacing logs of the same names")
      ->needs(logs);
  cmd->add_option("--shard", options->shard,
                  "Run only shard I of N (I from 0): the I-th of N equal, disjoint ranges of the --games games")
      ->type_name("I/N");
  cmd->add_option("--stats", options->stats,
                  "Save the statistics to this file, for 'rulebook merge' (written through a temporary file)")
      ->check(output_path())
      ->type_name("FILE");
  cmd->add_option("--plot", options->plot, "Write SVG charts (win rates, game lengths) into this folder")->check(output_path())->type_name("DIR");
  cmd->add_option("--format", options->format, "Output format")->check(CLI::IsMember({"text", "json"}))->default_str("text");
  cmd->callback([options, &exit_code] { exit_code = run_simulate(*options); });
}

}  // namespace rulebook::cli
