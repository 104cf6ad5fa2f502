// `rulebook simulate FILE --games N ...`: many games between random agents, with win rates,
// game lengths and rule coverage. Standard output depends only on the ruleset, the options
// and the seed (never on --jobs or the machine); timing and progress go to stderr.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "game_setup.hpp"
#include "output.hpp"
#include "rulebook/interpreter/log.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::cli {

namespace {

namespace ri = rulebook::interpreter;

struct SimulateOptions {
  GameOptions game;
  std::int64_t games = 0;
  int jobs = 1;
  std::int64_t max_moves = 100000;
  std::string logs;
  std::string format = "text";
};

// Wilson score interval at 95%.
std::pair<double, double> wilson(std::int64_t wins, std::int64_t n) {
  if (n == 0) return {0, 0};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(wins) / static_cast<double>(n);
  const double nn = static_cast<double>(n);
  const double denom = 1 + z * z / nn;
  const double center = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

struct Distribution {
  double mean = 0;
  std::int64_t min = 0, median = 0, p90 = 0, max = 0;
};

Distribution distribution(std::vector<std::int64_t> values) {
  Distribution d;
  if (values.empty()) return d;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (const std::int64_t v : values) sum += static_cast<double>(v);
  d.mean = sum / static_cast<double>(values.size());
  d.min = values.front();
  d.max = values.back();
  d.median = values[(values.size() - 1) / 2];
  d.p90 = values[std::min(values.size() - 1, values.size() * 9 / 10)];
  return d;
}

nlohmann::json distribution_json(const Distribution& d) {
  return {{"mean", std::round(d.mean * 100) / 100}, {"min", d.min}, {"median", d.median}, {"p90", d.p90}, {"max", d.max}};
}

// Replays game `index` with a log writer: the same game, since every game is seeded.
std::string game_log(const ri::Machine& machine, const ri::GameConfig& base, std::int64_t index, std::int64_t max_moves) {
  ri::GameConfig config = base;
  config.seed = ri::game_seed(base.seed, static_cast<std::uint64_t>(index));
  ri::LogWriter log(machine, config);
  (void)ri::play_random_game(machine, config, max_moves, &log);
  return log.text();
}

// Games per batch of a run: enough to keep every thread busy, few enough to keep in memory.
constexpr std::int64_t kBatch = 20000;

// The statistics of the games so far, folded in game order.
struct Tally {
  explicit Tally(std::size_t labels) : fired(labels, 0) {}
  void add(const ri::GameResult& r, std::int64_t index) {
    if (automated.empty()) {
      automated = r.automated;
      wins.assign(automated.size(), 0);
    }
    if (r.capped) {
      ++capped;
      capped_games.push_back(index);  // for --logs or a rerun with a larger cap
    } else {
      if (r.winners.empty()) ++no_winner;
      for (const ri::PlayerId p : r.winners) ++wins[static_cast<std::size_t>(p)];
      rounds.push_back(r.rounds);
      moves.push_back(r.moves);
    }
    for (std::size_t l = 0; l < fired.size(); ++l) fired[l] += r.fired[l];
  }
  std::vector<bool> automated;
  std::vector<std::int64_t> wins;
  std::int64_t no_winner = 0, capped = 0;
  std::vector<std::int64_t> rounds, moves, capped_games;
  std::vector<std::uint64_t> fired;
};

void progress_bar(std::int64_t done, std::int64_t total) {
  const int width = 40;
  const auto filled = static_cast<int>(total == 0 ? width : done * width / total);
  fmt::print(stderr, "\r[{:<{}}] {}/{} games", std::string(static_cast<std::size_t>(filled), '#'), width, done, total);
}

int run_simulate(const SimulateOptions& options) {
  if (options.games < 1) {
    fmt::print(stderr, "error: --games must be at least 1\n");
    return kExitBadInput;
  }
  int exit_code = kExitOk;
  const std::optional<ri::Machine> machine = load_machine(options.game.file, exit_code);
  if (!machine) return exit_code;
  const std::optional<ri::GameConfig> config = game_config(options.game, 1);
  if (!config) return kExitBadInput;
  try {
    (void)machine->start(*config);  // validates players and options before any thread starts
  } catch (const ri::ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitBadInput;
  }
  if (!options.logs.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.logs, ec);
    if (ec) {
      fmt::print(stderr, "error: cannot create the log folder '{}': {}\n", options.logs, ec.message());
      return kExitBadInput;
    }
  }

  const bool show_progress = isatty(STDERR_FILENO) != 0 && options.games >= 200;
  const auto started = std::chrono::steady_clock::now();
  // Ctrl-C stops starting games; the statistics of the games played so far are printed.
  catch_interrupts();
  // Games run in batches, each folded into the tally: memory stays small for any --games.
  Tally tally(machine->ir().labels.size());
  std::optional<ri::GameResult> fault_game;
  std::int64_t played = 0;
  while (played < options.games && !fault_game && !interrupted().load()) {
    const std::int64_t batch = std::min(kBatch, options.games - played);
    std::function<void(std::int64_t)> progress;
    if (show_progress) progress = [&](std::int64_t done) { progress_bar(played + done, options.games); };
    std::vector<ri::GameResult> results = ri::simulate(*machine, *config, batch, options.max_moves, options.jobs,
                                                       progress, &interrupted(), played);
    for (ri::GameResult& r : results) {
      if (r.fault) {
        fault_game = std::move(r);
        break;
      }
      tally.add(r, played);
      ++played;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (show_progress) fmt::print(stderr, "\n");
  const std::int64_t ran = played + (fault_game ? 1 : 0);
  fmt::print(stderr, "{} games in {:.2f} s ({:.0f} games/s, {} job{})\n", ran, seconds,
             static_cast<double>(ran) / std::max(seconds, 1e-9), options.jobs, options.jobs == 1 ? "" : "s");
  const bool stopped = !fault_game && played < options.games;
  if (stopped) {
    fmt::print(stderr, "interrupted: {} of {} games played; the statistics are of those games{}\n", played,
               options.games, options.logs.empty() ? "" : ", and no log was written");
    if (played == 0) return kExitInterrupted;
  }

  const ri::Ir& ir = machine->ir();
  // A fault stops the run: report it and save the failing game's log.
  if (fault_game) {
    const std::int64_t index = played;
    const ri::Fault& f = *fault_game->fault;
    const std::string folder = options.logs.empty() ? "." : options.logs;
    const std::string path = (std::filesystem::path(folder) / fmt::format("fault-game-{}.jsonl", index)).string();
    const std::string log = game_log(*machine, *config, index, options.max_moves);
    const std::string write_error = write_file_atomically(path, log);
    fmt::print(stderr, "rule fault in game {} (seed {}): {}\n  rule: {}\n  at: {}\n", index, fault_game->seed,
               f.message, f.rule >= 0 ? ir.labels[static_cast<std::size_t>(f.rule)] : "(no labelled rule)",
               machine->where(f.span));
    fmt::print(stderr, "{}\n", fault_game->fault_state);
    if (write_error.empty()) {
      fmt::print(stderr, "  the game's log is in {}\n", path);
    } else {
      fmt::print(stderr, "  the game's log could not be saved: {}\n", write_error);
    }
    return kExitFinding;
  }
  if (!options.logs.empty() && !stopped) {
    for (std::int64_t g = 0; g < options.games; ++g) {
      if (interrupted().load()) {
        fmt::print(stderr, "interrupted: {} of {} logs written, each one whole\n", g, options.games);
        return kExitInterrupted;
      }
      const std::string path = (std::filesystem::path(options.logs) / fmt::format("game-{:06}.jsonl", g)).string();
      const std::string write_error = write_file_atomically(path, game_log(*machine, *config, g, options.max_moves));
      if (!write_error.empty()) {
        fmt::print(stderr, "error: {}\n", write_error);
        return kExitBadInput;
      }
    }
  }

  const auto seats = tally.automated.size();
  const std::vector<std::int64_t>& wins = tally.wins;
  const std::int64_t no_winner = tally.no_winner, capped = tally.capped;
  const std::vector<std::uint64_t>& fired = tally.fired;
  const std::vector<std::int64_t>& capped_games = tally.capped_games;
  const std::vector<bool>& automated = tally.automated;
  const std::int64_t finished = played - capped;
  const Distribution round_stats = distribution(tally.rounds), move_stats = distribution(tally.moves);

  if (options.format == "json") {
    nlohmann::json out;
    out["ruleset"] = ir.title;
    out["file"] = options.game.file;
    out["players"] = seats - static_cast<std::size_t>(std::count(automated.begin(), automated.end(), true));
    out["seed"] = config->seed;
    out["games"] = played;
    out["interrupted"] = stopped;
    out["finished"] = finished;
    out["stopped_at_move_cap"] = capped;
    out["capped_games"] = capped_games;
    out["max_moves"] = options.max_moves;
    nlohmann::json players = nlohmann::json::array();
    for (std::size_t p = 0; p < seats; ++p) {
      const auto [lo, hi] = wilson(wins[p], finished);
      players.push_back({{"player", p}, {"automated", static_cast<bool>(automated[p])}, {"wins", wins[p]},
                         {"win_rate", finished == 0 ? 0.0 : static_cast<double>(wins[p]) / static_cast<double>(finished)},
                         {"ci95", {lo, hi}}});
    }
    out["players_results"] = players;
    out["no_winner"] = no_winner;
    out["rounds"] = distribution_json(round_stats);
    out["moves"] = distribution_json(move_stats);
    nlohmann::json coverage = nlohmann::json::object();
    for (std::size_t l = 0; l < fired.size(); ++l) coverage[ir.labels[l]] = fired[l];
    out["rule_coverage"] = coverage;
    fmt::print("{}\n", out.dump(2));
    return stopped ? kExitInterrupted : kExitOk;
  }

  fmt::print("{}: {} games, {} players, seed {}\n", ir.title, played,
             seats - static_cast<std::size_t>(std::count(automated.begin(), automated.end(), true)), config->seed);
  fmt::print("wins by player (share of finished games, 95% confidence interval):\n");
  for (std::size_t p = 0; p < seats; ++p) {
    const auto [lo, hi] = wilson(wins[p], finished);
    const double rate = finished == 0 ? 0.0 : static_cast<double>(wins[p]) / static_cast<double>(finished);
    fmt::print("  player {}{}: {:5.1f}%  [{:.1f}%, {:.1f}%]\n", p, automated[p] ? " (automated)" : "", rate * 100,
               lo * 100, hi * 100);
  }
  fmt::print("  no winner: {}\n", no_winner);
  fmt::print("rounds per game: mean {:.2f}, min {}, median {}, 90th percentile {}, max {}\n", round_stats.mean,
             round_stats.min, round_stats.median, round_stats.p90, round_stats.max);
  fmt::print("moves per game:  mean {:.2f}, min {}, median {}, 90th percentile {}, max {}\n", move_stats.mean,
             move_stats.min, move_stats.median, move_stats.p90, move_stats.max);
  fmt::print("stopped at the move cap ({} moves): {}{}\n", options.max_moves, capped,
             capped_games.empty() ? "" : fmt::format(" (games {})", fmt::join(capped_games, ", ")));
  const auto never = static_cast<std::size_t>(std::count(fired.begin(), fired.end(), 0U));
  fmt::print("rule coverage: {} of {} labelled rules fired\n", fired.size() - never, fired.size());
  for (std::size_t l = 0; l < fired.size(); ++l) {
    if (fired[l] == 0) fmt::print("  never fired: {} ({})\n", ir.labels[l], machine->where(ir.label_spans[l]));
  }
  return stopped ? kExitInterrupted : kExitOk;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Play many games between random agents and report statistics");
  add_game_options(*cmd, options->game);
  cmd->add_option("--games", options->games, "Number of games")->required()->check(CLI::Range(1, 100000000));
  cmd->add_option("--jobs", options->jobs, "Threads to use (results do not depend on it)")
      ->check(CLI::Range(1, 256))
      ->default_str("1");
  cmd->add_option("--max-moves", options->max_moves, "Stop a game after this many decisions (counted apart)")
      ->check(CLI::Range(1, 1000000000))
      ->default_str("100000");
  cmd->add_option("--logs", options->logs, "Write every game's log to this folder (and a faulty game's log)");
  cmd->add_option("--format", options->format, "Output format")->check(CLI::IsMember({"text", "json"}))->default_str("text");
  cmd->callback([options, &exit_code] { exit_code = run_simulate(*options); });
}

}  // namespace rulebook::cli
