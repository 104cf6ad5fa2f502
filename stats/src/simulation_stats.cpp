// Simulation statistics: folding games in, and which games a shard holds.
#include "rulebook/stats/simulation_stats.hpp"

#include <algorithm>

namespace rulebook::stats {

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

}  // namespace rulebook::stats
