// Simulation statistics: folding games in, and which games a shard holds.
#include "rulebook/stats/simulation_stats.hpp"

#include <algorithm>
#include <cmath>

namespace rulebook::stats {

namespace ri = rulebook::interpreter;

void SimulationStats::set_seats(const std::vector<bool>& automated_seats) {
  automated = automated_seats;
  wins.assign(automated.size(), 0);
  payoff_sum.assign(payoff_names.size(), std::vector<long double>(automated.size(), 0));
  payoff_sum_sq = payoff_sum;
}

void SimulationStats::add(const ri::GameResult& result, std::int64_t index) {
  if (automated.empty()) set_seats(result.automated);
  ++played;
  if (result.capped) {
    ++capped;
    if (capped_games.size() < kCappedListed) capped_games.push_back(index);
  } else {
    if (result.winners.empty()) ++no_winner;
    for (const ri::PlayerId p : result.winners) ++wins[static_cast<std::size_t>(p)];
    ++rounds[result.rounds];
    ++moves[result.moves];
    for (std::size_t i = 0; i < result.payoffs.size() && i < payoff_sum.size(); ++i) {
      for (std::size_t p = 0; p < result.payoffs[i].size() && p < payoff_sum[i].size(); ++p) {
        const long double v = ri::to_long_double(result.payoffs[i][p]);
        payoff_sum[i][p] += v;
        payoff_sum_sq[i][p] += v * v;
      }
    }
  }
  for (std::size_t l = 0; l < reached.size(); ++l) reached[l] += result.reached[l];
  for (std::size_t l = 0; l < fired.size(); ++l) fired[l] += result.fired[l];
}

double SimulationStats::win_rate(std::size_t seat) const {
  return finished() == 0 ? 0.0 : static_cast<double>(wins[seat]) / static_cast<double>(finished());
}

SimulationStats::Mean SimulationStats::payoff_mean(std::size_t payoff, std::size_t seat) const {
  Mean m;
  const std::int64_t n = finished();
  if (n == 0 || payoff >= payoff_sum.size() || seat >= payoff_sum[payoff].size()) return m;
  const auto count = static_cast<long double>(n);
  m.mean = payoff_sum[payoff][seat] / count;
  if (n < 2) return m;
  // The sample variance; rounding can take it a hair below 0 when every value is the same.
  const long double variance =
      std::max(0.0L, (payoff_sum_sq[payoff][seat] - count * m.mean * m.mean) / (count - 1));
  m.half_width = 1.959963984540054L * std::sqrt(variance / count);
  return m;
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
