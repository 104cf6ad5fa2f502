// Made-up games for the statistics library's tests: every one different, some capped, some
// without a winner, some with two winners, so that every count of the statistics moves.
#pragma once

#include <cstdint>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats::test {

// Game `i` of a run of three seats (seat 2 automated) and two rule labels.
inline interpreter::GameResult game(std::int64_t i) {
  interpreter::GameResult r;
  r.automated = {false, false, true};
  r.capped = i % 7 == 3;
  if (i % 11 == 1) {
    r.winners = {0, 1};
  } else if (i % 5 != 0) {
    r.winners = {static_cast<interpreter::PlayerId>(i % 3)};
  }
  r.rounds = 5 + i % 13;
  r.moves = 20 + i * 37 % 200;
  r.reached = {static_cast<std::uint32_t>(i % 4 + 1), 2};
  r.fired = {static_cast<std::uint32_t>(i % 2), 1};
  return r;
}

// Shard `shard` of `shards` of a run of `games` games, as simulate fills it; only its first
// `limit` games when `limit` is not negative (an interrupted shard).
inline SimulationStats run(std::int64_t games, std::int64_t shard, std::int64_t shards, std::int64_t limit = -1) {
  SimulationStats s;
  s.ruleset = "Test & <Game>";
  s.file = "rules/test.rules";
  s.source_hash = "0123abcd";
  s.seed = 7;
  s.max_moves = 1000;
  s.games = games;
  s.shard = shard;
  s.shards = shards;
  s.labels = {"deal", "play"};
  s.label_places = {"rules/test.rules:4", "rules/test.rules:9"};
  s.reached.assign(2, 0);
  s.fired.assign(2, 0);
  const auto [first, last] = shard_range(games, shard, shards);
  for (std::int64_t g = first; g < last && (limit < 0 || g - first < limit); ++g) s.add(game(g), g);
  return s;
}

}  // namespace rulebook::stats::test
