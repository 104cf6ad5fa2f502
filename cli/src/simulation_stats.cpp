// Simulation statistics: folding games in, saving, reading back, merging, reporting.
#include "simulation_stats.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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
    capped_games.push_back(index);  // for --logs or a rerun with a larger cap
  } else {
    if (result.winners.empty()) ++no_winner;
    for (const ri::PlayerId p : result.winners) ++wins[static_cast<std::size_t>(p)];
    ++rounds[result.rounds];
    ++moves[result.moves];
  }
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

// ---- saving and reading back ----------------------------------------------------------

namespace {

nlohmann::json histogram_json(const std::map<std::int64_t, std::int64_t>& h) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [value, count] : h) out.push_back({value, count});
  return out;
}

}  // namespace

nlohmann::json stats_to_json(const SimulationStats& s) {
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, value] : s.options) options[name] = value;
  return {{"rulebook-stats", 1},
          {"ruleset", s.ruleset},
          {"file", s.file},
          {"hash", s.source_hash},
          {"players_requested", s.players_requested},
          {"options", options},
          {"seed", std::to_string(s.seed)},  // a string: JSON readers may hold numbers as doubles
          {"max_moves", s.max_moves},
          {"games", s.games},
          {"shard", s.shard},
          {"shards", s.shards},
          {"labels", s.labels},
          {"label_places", s.label_places},
          {"first", s.first_game()},  // for readers; derived from games and shard
          {"played", s.played},
          {"interrupted", s.interrupted},
          {"automated", s.automated},
          {"wins", s.wins},
          {"no_winner", s.no_winner},
          {"capped", s.capped},
          {"capped_games", s.capped_games},
          {"rounds", histogram_json(s.rounds)},
          {"moves", histogram_json(s.moves)},
          {"fired", s.fired}};
}

namespace {

template <typename T>
T field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw StatsError(fmt::format("\"{}\" is missing", key));
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw StatsError(fmt::format("\"{}\" has the wrong type", key));
  }
}

std::int64_t count_field(const nlohmann::json& j, const char* key) {
  const auto n = field<std::int64_t>(j, key);
  if (n < 0) throw StatsError(fmt::format("\"{}\" is negative", key));
  return n;
}

std::map<std::int64_t, std::int64_t> histogram_field(const nlohmann::json& j, const char* key) {
  const auto pairs = field<std::vector<std::pair<std::int64_t, std::int64_t>>>(j, key);
  std::map<std::int64_t, std::int64_t> h;
  for (const auto& [value, count] : pairs) {
    if (count <= 0 || !h.emplace(value, count).second) {
      throw StatsError(fmt::format("\"{}\" has a repeated value or a count below 1", key));
    }
  }
  return h;
}

}  // namespace

SimulationStats stats_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("rulebook-stats")) {
    throw StatsError("not a statistics file of 'rulebook simulate --stats'");
  }
  if (field<int>(j, "rulebook-stats") != 1) throw StatsError("an unknown version of the statistics format");
  SimulationStats s;
  s.ruleset = field<std::string>(j, "ruleset");
  s.file = field<std::string>(j, "file");
  s.source_hash = field<std::string>(j, "hash");
  s.players_requested = count_field(j, "players_requested");
  s.options = field<std::map<std::string, std::string>>(j, "options");
  const auto seed = field<std::string>(j, "seed");
  try {
    std::size_t used = 0;
    s.seed = std::stoull(seed, &used);
    if (used != seed.size() || seed.empty() || seed[0] == '-') throw std::invalid_argument(seed);
  } catch (const std::exception&) {
    throw StatsError("\"seed\" is not a whole number");
  }
  s.max_moves = count_field(j, "max_moves");
  s.games = count_field(j, "games");
  s.shard = count_field(j, "shard");
  s.shards = count_field(j, "shards");
  if (s.shards < 1 || s.shards > kMaxShards || s.shard >= s.shards) {
    throw StatsError(fmt::format("\"shard\" is not below \"shards\", or \"shards\" is not from 1 to {}", kMaxShards));
  }
  s.labels = field<std::vector<std::string>>(j, "labels");
  s.label_places = field<std::vector<std::string>>(j, "label_places");
  s.played = count_field(j, "played");
  s.interrupted = field<bool>(j, "interrupted");
  s.automated = field<std::vector<bool>>(j, "automated");
  s.wins = field<std::vector<std::int64_t>>(j, "wins");
  s.no_winner = count_field(j, "no_winner");
  s.capped = count_field(j, "capped");
  s.capped_games = field<std::vector<std::int64_t>>(j, "capped_games");
  s.rounds = histogram_field(j, "rounds");
  s.moves = histogram_field(j, "moves");
  s.fired = field<std::vector<std::uint64_t>>(j, "fired");
  // The parts must fit together, or the report would read past them.
  const auto [first, last] = shard_range(s.games, s.shard, s.shards);
  if (s.played > last - first) throw StatsError("\"played\" is more than the shard's games");
  if (s.label_places.size() != s.labels.size() || s.fired.size() != s.labels.size()) {
    throw StatsError("\"labels\", \"label_places\" and \"fired\" differ in length");
  }
  if (s.wins.size() != s.automated.size()) throw StatsError("\"wins\" and \"automated\" differ in length");
  if (s.capped > s.played || static_cast<std::int64_t>(s.capped_games.size()) != s.capped) {
    throw StatsError("\"capped\" and \"capped_games\" do not agree");
  }
  std::int64_t finished = 0;
  for (const auto& [value, count] : s.rounds) finished += count;
  if (finished != s.finished()) throw StatsError("\"rounds\" does not count every finished game");
  finished = 0;
  for (const auto& [value, count] : s.moves) finished += count;
  if (finished != s.finished()) throw StatsError("\"moves\" does not count every finished game");
  return s;
}

// ---- merging ------------------------------------------------------------------------

SimulationStats merge_stats(std::vector<SimulationStats> shards) {
  if (shards.empty()) throw StatsError("no statistics to merge");
  std::sort(shards.begin(), shards.end(), [](const auto& a, const auto& b) { return a.shard < b.shard; });
  const SimulationStats& head = shards.front();
  const auto differs = [&](const SimulationStats& s) -> const char* {
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
  // The first shard holds what was run; the others' games are added to it.
  SimulationStats out = std::move(shards.front());
  out.shard = 0;
  out.shards = 1;
  for (auto s = shards.begin() + 1; s != shards.end(); ++s) {
    if (out.automated.empty()) {
      out.automated = s->automated;
      out.wins.assign(out.automated.size(), 0);
    }
    out.played += s->played;
    out.no_winner += s->no_winner;
    out.capped += s->capped;
    out.capped_games.insert(out.capped_games.end(), s->capped_games.begin(), s->capped_games.end());
    for (std::size_t p = 0; p < s->wins.size(); ++p) out.wins[p] += s->wins[p];
    for (const auto& [value, count] : s->rounds) out.rounds[value] += count;
    for (const auto& [value, count] : s->moves) out.moves[value] += count;
    for (std::size_t l = 0; l < s->fired.size(); ++l) out.fired[l] += s->fired[l];
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
    out["capped_games"] = s.capped_games;
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
    nlohmann::json coverage = nlohmann::json::object();
    for (std::size_t l = 0; l < s.fired.size(); ++l) coverage[s.labels[l]] = s.fired[l];
    out["rule_coverage"] = coverage;
    return out.dump(2) + "\n";
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
  out += fmt::format("stopped at the move cap ({} moves): {}{}\n", s.max_moves, s.capped,
                     s.capped_games.empty() ? "" : fmt::format(" (games {})", fmt::join(s.capped_games, ", ")));
  const auto never = static_cast<std::size_t>(std::count(s.fired.begin(), s.fired.end(), 0U));
  out += fmt::format("rule coverage: {} of {} labelled rules fired\n", s.fired.size() - never, s.fired.size());
  for (std::size_t l = 0; l < s.fired.size(); ++l) {
    if (s.fired[l] == 0) out += fmt::format("  never fired: {} ({})\n", s.labels[l], s.label_places[l]);
  }
  return out;
}

}  // namespace rulebook::cli
