// The statistics of a simulation: what `simulate` reports, what `simulate --stats` saves,
// and what `rulebook merge` adds up. They keep whole histograms (not means), so that shards
// of a run merge into exactly the statistics of one run of all its games.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::stats {

struct SimulationStats {
  // What was run. Shards merge only when all of this agrees.
  std::string ruleset;      // the title
  std::string file;         // as given on the command line
  std::string source_hash;  // of the rule texts
  std::int64_t players_requested = 0;  // --players, 0 for the default
  std::map<std::string, std::string> options;
  std::uint64_t seed = 0;
  std::int64_t max_moves = 0;
  std::int64_t games = 0;   // of the whole run, all shards
  std::int64_t shard = 0;   // 0-based, below `shards`
  std::int64_t shards = 1;
  std::vector<std::string> labels;        // rule labels, in the ruleset's order
  std::vector<std::string> label_places;  // file:line of each label

  // What happened, in game order.
  std::int64_t played = 0;
  bool interrupted = false;
  std::vector<bool> automated;  // per seat
  std::vector<std::int64_t> wins;
  std::int64_t no_winner = 0;
  std::int64_t capped = 0;
  // The first kCappedListed capped games by number, for --logs or a rerun with a larger cap;
  // `capped` counts them all. A list of every one grew with --games (gigabytes for 10^8).
  std::vector<std::int64_t> capped_games;
  std::map<std::int64_t, std::int64_t> rounds;  // value -> games, finished games only
  std::map<std::int64_t, std::int64_t> moves;
  // Per label, sized by whoever fills `labels`: how often a rule started, and how often it
  // started and then acted (moved, dealt, shuffled, flipped or turned cards, set a variable,
  // asked for a decision, swapped seats or ended the game). A labelled `if` is reached at
  // every test but fires only when it acts. Files before version 3 counted starts as "fired":
  // they read into `reached`, and `fired` stays empty (not recorded).
  std::vector<std::uint64_t> reached;
  std::vector<std::uint64_t> fired;
  // Payoffs (version 4): by declared payoff, then by seat, the sum and the sum of squares
  // of its values over the finished games, for means with intervals. Long doubles: exact
  // sums of rationals outgrow 64 bits; a file keeps them in hexadecimal, so they read back
  // as saved. Shards add up to the sums of one run to within rounding.
  std::vector<std::string> payoff_names;
  std::vector<std::vector<long double>> payoff_sum;
  std::vector<std::vector<long double>> payoff_sum_sq;
  // The version of the file read (kStatsVersion when made here). Version 3 seeds games apart
  // from earlier ones, so shards of different versions are not parts of one run.
  int version = 4;

  // Sizes the counts by seat (automated[p]: seat p is played by the rules), before the first
  // game, so that a run of no games (an empty shard) still says whom it is for.
  void set_seats(const std::vector<bool>& automated_seats);
  // Folds in game `index`, which has no rule fault.
  void add(const interpreter::GameResult& result, std::int64_t index);
  [[nodiscard]] std::int64_t finished() const { return played - capped; }
  [[nodiscard]] std::int64_t first_game() const;
  [[nodiscard]] std::size_t human_players() const;
  // The seat's share of the finished games (0 when none finished).
  [[nodiscard]] double win_rate(std::size_t seat) const;
  // The seat's mean of payoff `i` over the finished games, and the half-width of its 95%
  // interval (normal approximation, 1.96 standard errors of the sample); nothing below 2 games.
  struct Mean {
    long double mean = 0;
    std::optional<long double> half_width;
  };
  [[nodiscard]] Mean payoff_mean(std::size_t payoff, std::size_t seat) const;
  // Field by field: a merge of shards equals the run of all their games, a file read back
  // equals what was saved.
  bool operator==(const SimulationStats&) const = default;
};

inline constexpr std::int64_t kMaxShards = 1000000;
// The most games of one run (simulate --games), which a statistics file may count.
inline constexpr std::int64_t kMaxGames = 100000000;
inline constexpr std::size_t kCappedListed = 100;

// The games of shard `shard` of `shards`: [first, last).
std::pair<std::int64_t, std::int64_t> shard_range(std::int64_t games, std::int64_t shard, std::int64_t shards);

// A statistics file that cannot be read back, or shards that do not add up: the message says
// which field and why, in the words the command line prints after "error: ".
class StatsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rulebook::stats
