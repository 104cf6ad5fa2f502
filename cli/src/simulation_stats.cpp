// Simulation statistics: folding games in, merging, reporting (stats_file.cpp saves and reads
// them back).
#include "simulation_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "output.hpp"

namespace rulebook::cli {

namespace ri = rulebook::interpreter;

void SimulationStats::add(const ri::GameResult& result, std::int64_t index) {
  if (automated.empty()) {
    automated = result.automated;
    wins.assign(automated.size(), 0);
  }
  ++played;
  if (result.capped) {
    ++capped;
    if (capped_games.size() < kCappedListed) capped_games.push_back(index);
  } else {
    if (result.winners.empty()) ++no_winner;
    for (const ri::PlayerId p : result.winners) ++wins[static_cast<std::size_t>(p)];
    ++rounds[result.rounds];
    ++moves[result.moves];
  }
  for (std::size_t l = 0; l < reached.size(); ++l) reached[l] += result.reached[l];
  for (std::size_t l = 0; l < fired.size(); ++l) fired[l] += result.fired[l];
}

double SimulationStats::win_rate(std::size_t seat) const {
  return finished() == 0 ? 0.0 : static_cast<double>(wins[seat]) / static_cast<double>(finished());
}

std::size_t SimulationStats::human_players() const {
  return automated.size() - static_cast<std::size_t>(std::count(automated.begin(), automated.end(), true));
}

std::int64_t SimulationStats::first_game() const { return shard_range(games, shard, shards).first; }

std::pair<std::int64_t, std::int64_t> shard_range(std::int64_t games, std::int64_t shard, std::int64_t shards) {
  // games * i / shards, without the product: it could pass 2^63 (shards is at most kMaxShards).
  const auto at = [&](std::int64_t i) { return games / shards * i + games % shards * i / shards; };
  return {at(shard), at(shard + 1)};
}

// ---- merging ------------------------------------------------------------------------

namespace {

// Adds `more` to `total`, or says whose sum passed the largest value of its type.
template <typename Count>
void add_count(Count& total, Count more, const std::string& what) {
  if (__builtin_add_overflow(total, more, &total)) {
    throw StatsError(fmt::format("{}: the sum passes {}", what, std::numeric_limits<Count>::max()));
  }
}

}  // namespace

SimulationStats merge_stats(std::vector<SimulationStats> shards, const std::vector<std::string>& names) {
  if (shards.empty()) throw StatsError("no statistics to merge");
  // Sorted by shard, with each shard's name alongside.
  std::vector<std::size_t> order(shards.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return shards[a].shard < shards[b].shard; });
  const auto name = [&](std::size_t i) {
    return i < names.size() ? names[i] : fmt::format("shard {}", shards[i].shard);
  };
  const SimulationStats& head = shards[order.front()];
  const auto differs = [&](const SimulationStats& s) -> const char* {
    if (s.version != head.version) return "the version of the statistics format (games are seeded differently)";
    if (s.source_hash != head.source_hash || s.ruleset != head.ruleset) return "the rules";
    if (s.file != head.file) return "the rule file's path";
    if (s.players_requested != head.players_requested) return "--players";
    if (s.options != head.options) return "--option";
    if (s.seed != head.seed) return "--seed";
    if (s.max_moves != head.max_moves) return "--max-moves";
    if (s.games != head.games) return "--games";
    if (s.shards != head.shards) return "the number of shards";
    if (s.labels != head.labels || s.label_places != head.label_places) return "the rule labels";
    if (!s.automated.empty() && !head.automated.empty() && s.automated != head.automated) return "the seats";
    return nullptr;
  };
  for (const SimulationStats& s : shards) {
    if (const char* what = differs(s)) {
      throw StatsError(fmt::format("shard {} and shard {} differ in {}: they are not parts of one run", head.shard,
                                   s.shard, what));
    }
  }
  for (std::int64_t i = 0; i < head.shards; ++i) {
    const auto count = std::count_if(shards.begin(), shards.end(), [&](const auto& s) { return s.shard == i; });
    if (count == 0) throw StatsError(fmt::format("shard {} of {} is missing", i, head.shards));
    if (count > 1) throw StatsError(fmt::format("shard {} of {} is given {} times", i, head.shards, count));
  }
  for (const SimulationStats& s : shards) {
    const auto [first, last] = shard_range(s.games, s.shard, s.shards);
    if (s.interrupted || s.played != last - first) {
      throw StatsError(fmt::format("shard {} of {} was interrupted after {} of its {} games; run it again", s.shard,
                                   s.shards, s.played, last - first));
    }
  }
  // The first shard holds what was run; the others' games are added to it, in shard order,
  // so that the capped games listed are the run's first ones. Every count of a file that was
  // read is checked against its own games, but the sums are checked too: a made-up file can
  // hold rule firings near 2^64.
  SimulationStats out = std::move(shards[order.front()]);
  out.shard = 0;
  out.shards = 1;
  for (auto i = order.begin() + 1; i != order.end(); ++i) {
    const SimulationStats& s = shards[*i];
    const std::string in = name(*i);
    if (out.automated.empty()) {
      out.automated = s.automated;
      out.wins.assign(out.automated.size(), 0);
    }
    add_count(out.played, s.played, in + ": \"played\"");
    add_count(out.no_winner, s.no_winner, in + ": \"no_winner\"");
    add_count(out.capped, s.capped, in + ": \"capped\"");
    for (const std::int64_t g : s.capped_games) {
      if (out.capped_games.size() < kCappedListed) out.capped_games.push_back(g);
    }
    for (std::size_t p = 0; p < s.wins.size(); ++p) {
      add_count(out.wins[p], s.wins[p], fmt::format("{}: \"wins\" of player {}", in, p));
    }
    for (const auto& [value, count] : s.rounds) add_count(out.rounds[value], count, in + ": \"rounds\"");
    for (const auto& [value, count] : s.moves) add_count(out.moves[value], count, in + ": \"moves\"");
    for (std::size_t l = 0; l < s.reached.size(); ++l) {
      add_count(out.reached[l], s.reached[l], fmt::format("{}: \"reached\" of label {}", in, l));
    }
    for (std::size_t l = 0; l < s.fired.size(); ++l) {
      add_count(out.fired[l], s.fired[l], fmt::format("{}: \"fired\" of label {}", in, l));
    }
  }
  return out;
}

// Wilson score interval at 95%.
std::pair<double, double> wilson_interval(std::int64_t wins, std::int64_t n) {
  if (n == 0) return {0, 0};
  const double z = 1.959963984540054;
  const double p = static_cast<double>(wins) / static_cast<double>(n);
  const double nn = static_cast<double>(n);
  const double denom = 1 + z * z / nn;
  const double center = (p + z * z / (2 * nn)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

// ---- the report ---------------------------------------------------------------------

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
  out += fmt::format("{}: {} games, {} players, seed {}\n", s.ruleset, s.played, s.human_players(), s.seed);
  if (s.shards > 1) {
    out += fmt::format("shard {} of {}: games {} to {}\n", s.shard, s.shards, s.first_game(), s.first_game() + s.played - 1);
  }
  out += "wins by player (share of finished games, 95% confidence interval):\n";
  for (std::size_t p = 0; p < seats; ++p) {
    const auto [lo, hi] = wilson_interval(s.wins[p], finished);
    out += fmt::format("  player {}{}: {:5.1f}%  [{:.1f}%, {:.1f}%]\n", p, s.automated[p] ? " (automated)" : "",
                       s.win_rate(p) * 100, lo * 100, hi * 100);
  }
  out += fmt::format("  no winner: {}\n", s.no_winner);
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
    out += fmt::format("rule coverage: {} of {} labelled rules reached (a file of version {} does not say which fired)\n",
                       labels - unreached, labels, s.version);
  } else {
    const auto never = static_cast<std::size_t>(std::count(s.fired.begin(), s.fired.end(), 0U));
    out += fmt::format("rule coverage: {} of {} labelled rules fired, {} reached\n", labels - never, labels,
                       labels - unreached);
  }
  for (std::size_t l = 0; l < labels; ++l) {
    if (s.reached[l] == 0) {
      out += fmt::format("  never reached: {} ({})\n", s.labels[l], s.label_places[l]);
    } else if (!s.fired.empty() && s.fired[l] == 0) {
      out += fmt::format("  reached, never fired: {} ({})\n", s.labels[l], s.label_places[l]);
    }
  }
  return out;
}

}  // namespace rulebook::cli
