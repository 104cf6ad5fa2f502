// The report of a simulation, as text or JSON: wins per seat with their intervals, game
// lengths from the histograms (so exact after a merge), capped games and rule coverage.
#include "rulebook/stats/report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "counts.hpp"
#include "rulebook/grammar/printable.hpp"
#include "rulebook/stats/wilson.hpp"

namespace rulebook::stats {

using detail::json_text;

namespace {

struct Distribution {
  double mean = 0;
  std::int64_t min = 0, median = 0, p90 = 0, max = 0;
};

// The value at 0-based position `k` of the sorted values.
std::int64_t nth(const std::map<std::int64_t, std::int64_t>& h, std::int64_t k) {
  for (const auto& [value, count] : h) {
    if (k < count) return value;
    k -= count;
  }
  return h.empty() ? 0 : h.rbegin()->first;
}

Distribution distribution(const std::map<std::int64_t, std::int64_t>& h) {
  Distribution d;
  std::int64_t n = 0;
  double sum = 0;
  for (const auto& [value, count] : h) {
    n += count;
    sum += static_cast<double>(value) * static_cast<double>(count);
  }
  if (n == 0) return d;
  d.mean = sum / static_cast<double>(n);
  d.min = h.begin()->first;
  d.max = h.rbegin()->first;
  d.median = nth(h, (n - 1) / 2);
  d.p90 = nth(h, std::min(n - 1, n * 9 / 10));
  return d;
}

nlohmann::json distribution_json(const Distribution& d) {
  return {{"mean", std::round(d.mean * 100) / 100}, {"min", d.min}, {"median", d.median}, {"p90", d.p90}, {"max", d.max}};
}


}  // namespace

std::string stats_report(const SimulationStats& s, bool json) {
  const std::size_t seats = s.automated.size();
  const std::int64_t finished = s.finished();
  const Distribution round_stats = distribution(s.rounds), move_stats = distribution(s.moves);
  if (json) {
    nlohmann::json out;
    out["ruleset"] = s.ruleset;
    out["file"] = s.file;
    out["players"] = s.human_players();
    out["seed"] = s.seed;
    out["games"] = s.played;
    if (s.shards > 1) out["shard"] = {{"index", s.shard}, {"count", s.shards}, {"first_game", s.first_game()}};
    out["interrupted"] = s.interrupted;
    out["finished"] = finished;
    out["stopped_at_move_cap"] = s.capped;
    out["capped_games"] = s.capped_games;  // the first kCappedListed
    out["capped_games_not_listed"] = s.capped - static_cast<std::int64_t>(s.capped_games.size());
    out["max_moves"] = s.max_moves;
    nlohmann::json players = nlohmann::json::array();
    for (std::size_t p = 0; p < seats; ++p) {
      const auto [lo, hi] = wilson_interval(s.wins[p], finished);
      players.push_back({{"player", p}, {"automated", static_cast<bool>(s.automated[p])}, {"wins", s.wins[p]},
                         {"win_rate", s.win_rate(p)}, {"ci95", {lo, hi}}});
    }
    out["players_results"] = players;
    out["no_winner"] = s.no_winner;
    if (!s.payoff_names.empty()) {
      nlohmann::json payoffs = nlohmann::json::array();
      for (std::size_t i = 0; i < s.payoff_names.size(); ++i) {
        nlohmann::json seats_json = nlohmann::json::array();
        for (std::size_t p = 0; p < seats; ++p) {
          const auto m = s.payoff_mean(i, p);
          nlohmann::json ci = nullptr;
          if (m.half_width) ci = {static_cast<double>(m.mean - *m.half_width), static_cast<double>(m.mean + *m.half_width)};
          seats_json.push_back({{"player", p}, {"mean", static_cast<double>(m.mean)}, {"ci95", ci}});
        }
        payoffs.push_back({{"name", s.payoff_names[i]}, {"games", finished}, {"players", seats_json}});
      }
      out["payoffs"] = payoffs;
      out["payoff_interval"] = "normal approximation: mean +- 1.96 standard errors of the sample (null below 2 games)";
    }
    out["rounds"] = distribution_json(round_stats);
    out["moves"] = distribution_json(move_stats);
    nlohmann::json reached = nlohmann::json::object();
    for (std::size_t l = 0; l < s.reached.size(); ++l) reached[s.labels[l]] = s.reached[l];
    out["rule_reached"] = reached;
    if (!s.fired.empty() || s.labels.empty()) {
      nlohmann::json coverage = nlohmann::json::object();
      for (std::size_t l = 0; l < s.fired.size(); ++l) coverage[s.labels[l]] = s.fired[l];
      out["rule_coverage"] = coverage;
    }
    return json_text(out, 2) + "\n";
  }
  std::string out;
  // Names come from a statistics file, which merge reads from anywhere: printed as printable().
  out += fmt::format("{}: {} game{}, {} players, seed {}\n", grammar::printable(s.ruleset), s.played, s.played == 1 ? "" : "s",
                     s.human_players(), s.seed);
  if (s.shards > 1 && s.played == 0) {
    out += fmt::format("shard {} of {}: no games (the run's {} fall to other shards)\n", s.shard, s.shards, s.games);
  } else if (s.shards > 1) {
    out += fmt::format("shard {} of {}: games {} to {}\n", s.shard, s.shards, s.first_game(), s.first_game() + s.played - 1);
  }
  out += "wins by player (share of finished games, 95% confidence interval):\n";
  for (std::size_t p = 0; p < seats; ++p) {
    // Without a finished game there is no share to give, and no interval that means anything.
    if (finished == 0) {
      out += fmt::format("  player {}{}: no finished game\n", p, s.automated[p] ? " (automated)" : "");
      continue;
    }
    const auto [lo, hi] = wilson_interval(s.wins[p], finished);
    out += fmt::format("  player {}{}: {:5.1f}%  [{:.1f}%, {:.1f}%]\n", p, s.automated[p] ? " (automated)" : "",
                       s.win_rate(p) * 100, lo * 100, hi * 100);
  }
  out += fmt::format("  no winner: {}\n", s.no_winner);
  if (!s.payoff_names.empty()) {
    out += "payoffs (mean per finished game, 95% confidence interval: mean +- 1.96 standard errors):\n";
    for (std::size_t i = 0; i < s.payoff_names.size(); ++i) {
      out += fmt::format("  {}:\n", grammar::printable(s.payoff_names[i]));
      for (std::size_t p = 0; p < seats; ++p) {
        const auto m = s.payoff_mean(i, p);
        const std::string interval = m.half_width ? fmt::format("[{:.4f}, {:.4f}]", static_cast<double>(m.mean - *m.half_width),
                                                                static_cast<double>(m.mean + *m.half_width))
                                                  : std::string("(no interval below 2 games)");
        out += fmt::format("    player {}{}: {:8.4f}  {}\n", p, s.automated[p] ? " (automated)" : "", static_cast<double>(m.mean),
                           interval);
      }
    }
  }
  out += fmt::format("rounds per game: mean {:.2f}, min {}, median {}, 90th percentile {}, max {}\n", round_stats.mean,
                     round_stats.min, round_stats.median, round_stats.p90, round_stats.max);
  out += fmt::format("moves per game:  mean {:.2f}, min {}, median {}, 90th percentile {}, max {}\n", move_stats.mean,
                     move_stats.min, move_stats.median, move_stats.p90, move_stats.max);
  std::string capped_list;
  if (!s.capped_games.empty()) {
    const auto unlisted = s.capped - static_cast<std::int64_t>(s.capped_games.size());
    capped_list = fmt::format(" (games {}{})", fmt::join(s.capped_games, ", "),
                              unlisted > 0 ? fmt::format(", and {} more, not listed", unlisted) : "");
  }
  out += fmt::format("stopped at the move cap ({} moves): {}{}\n", s.max_moves, s.capped, capped_list);
  const std::size_t labels = s.reached.size();
  const auto unreached = static_cast<std::size_t>(std::count(s.reached.begin(), s.reached.end(), 0U));
  if (s.fired.empty() && labels > 0) {
    out += fmt::format("rule coverage: {} of {} labelled rules reached (statistics from files of version 1 or 2 do not say which fired)\n",
                       labels - unreached, labels);
  } else {
    const auto never = static_cast<std::size_t>(std::count(s.fired.begin(), s.fired.end(), 0U));
    out += fmt::format("rule coverage: {} of {} labelled rules fired, {} reached\n", labels - never, labels,
                       labels - unreached);
  }
  for (std::size_t l = 0; l < labels; ++l) {
    if (s.reached[l] == 0) {
      out += fmt::format("  never reached: {} ({})\n", grammar::printable(s.labels[l]), grammar::printable(s.label_places[l]));
    } else if (!s.fired.empty() && s.fired[l] == 0) {
      out += fmt::format("  reached, never fired: {} ({})\n", grammar::printable(s.labels[l]),
                         grammar::printable(s.label_places[l]));
    }
  }
  return out;
}

}  // namespace rulebook::stats
