// Merging the shards of one run: checking that they belong together, then adding them up.
#include "rulebook/stats/merge.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "counts.hpp"

namespace rulebook::stats {

using detail::add_count;

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
    // Versions 3 and 4 seed games alike (4 only adds payoffs), so they are parts of one run.
    const auto seeding = [](int version) { return version >= 3 ? 3 : version; };
    if (seeding(s.version) != seeding(head.version)) return "the version of the statistics format (games are seeded differently)";
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
    if (s.payoff_names != head.payoff_names) return "the payoffs";
    return nullptr;
  };
  for (const SimulationStats& s : shards) {
    if (const char* what = differs(s)) {
      throw StatsError(fmt::format("shard {} and shard {} differ in {}: they are not parts of one run", head.shard,
                                   s.shard, what));
    }
  }
  // A file read is sized by its labels and seats (stats_from_json checks it), and so are
  // statistics filled by `add`; statistics made some other way could be added past an end.
  for (const SimulationStats& s : shards) {
    if (s.wins.size() != s.automated.size() || s.reached.size() != s.labels.size() ||
        s.fired.size() != head.fired.size() || (!s.fired.empty() && s.fired.size() != s.labels.size())) {
      throw StatsError(
          fmt::format("shard {}: \"wins\", \"reached\" or \"fired\" do not fit its seats and labels", s.shard));
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
      // Said as the file says it: "interrupted" false with games missing is a file that
      // contradicts itself, not an interrupted run (the tenth probe).
      throw StatsError(s.interrupted ? fmt::format("shard {} of {} was interrupted after {} of its {} games; run it again", s.shard,
                                                   s.shards, s.played, last - first)
                                     : fmt::format("shard {} of {} holds {} of its {} games (\"played\"), yet does not say it "
                                                   "was interrupted: the file is not one simulate wrote; run the shard again",
                                                   s.shard, s.shards, s.played, last - first));
    }
  }
  // The first shard holds what was run; the others' games are added to it, in shard order,
  // so that the capped games listed are the run's first ones. Every count of a file that was
  // read is checked against its own games, but the sums are checked too: a made-up file can
  // hold rule firings near 2^64.
  SimulationStats out = std::move(shards[order.front()]);
  for (const SimulationStats& s : shards) out.version = std::max(out.version, s.version);
  const auto sized = [&](const SimulationStats& s) {
    return s.payoff_sum.size() == s.payoff_names.size() && s.payoff_sum_sq.size() == s.payoff_names.size() &&
           std::all_of(s.payoff_sum.begin(), s.payoff_sum.end(), [&](const auto& v) { return v.size() == s.automated.size(); }) &&
           std::all_of(s.payoff_sum_sq.begin(), s.payoff_sum_sq.end(), [&](const auto& v) { return v.size() == s.automated.size(); });
  };
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
    if (!s.payoff_names.empty()) {
      if (out.payoff_sum.size() != out.payoff_names.size()) {  // the first shard played no game
        out.payoff_sum.assign(out.payoff_names.size(), std::vector<long double>(out.automated.size(), 0));
        out.payoff_sum_sq = out.payoff_sum;
      }
      if (!sized(s) || !sized(out)) throw StatsError(fmt::format("{}: \"payoffs\" do not fit its seats", in));
      for (std::size_t k = 0; k < s.payoff_sum.size(); ++k) {
        for (std::size_t p = 0; p < s.payoff_sum[k].size(); ++p) {
          out.payoff_sum[k][p] += s.payoff_sum[k][p];
          out.payoff_sum_sq[k][p] += s.payoff_sum_sq[k][p];
        }
      }
    }
  }
  return out;
}

}  // namespace rulebook::stats
