// Simulated games as the source of candidate invariants: every state the interpreter passes
// through, projected to the abstract state and added at its control position. The same runs
// record what can be shown by example: rule faults, rules that fired, seats that won, and
// declared invariants broken at a decision.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "invariants.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

struct BrokenInvariant {
  std::uint64_t seed = 0;
  std::int64_t moves = 0;   // the decision at which it is false (moves made before it)
  bool at_end = false;
};

struct Sampling {
  std::vector<ri::GameResult> games;
  std::vector<std::optional<BrokenInvariant>> broken;  // by declared invariant: the first
  std::int64_t states = 0;
  std::int64_t capped_moves = 0;   // games stopped at the move cap
  std::int64_t capped_rounds = 0;  // games stopped at the round cap
  // A game that ran kStepsWithoutDecision instructions without a decision: sampling stopped
  // it there (the interpreter faults only after Machine::kMaxStepsBetweenDecisions), and it
  // was played once more to that fault, which is in `games`.
  bool looped = false;
  // Games stopped the same way whose loop was not shown endless: the first was played again
  // without the watch and reached a decision (later ones are not played again). Kept as
  // capped games, replayed to their last decision before the loop; sampling goes on.
  std::int64_t long_loops = 0;
  std::int64_t first_long_loop = -1;
  bool cut_by_budget = false;  // stopped before `games` games: the budget was spent
  // Games stopped under way, at their last decision (capped; their states so far kept):
  // `long_games` ran kStepsPerGame instructions, `budget_stopped` (at most one, the last)
  // was under way when the budget was spent. `first_long` is the first long game's index.
  std::int64_t long_games = 0;
  std::int64_t first_long = -1;
  bool budget_stopped = false;
  // Up to kPointsPerCut distinct abstract states seen at each cut point (the vacuity guard).
  std::map<std::int32_t, std::vector<std::vector<std::int64_t>>> points;

  // By rule label: whether it fired (started and then acted) in some sampled game. Reached is
  // not enough: a labelled `if` whose test stays false is reached and never fires.
  [[nodiscard]] std::vector<bool> fired(std::size_t labels) const {
    std::vector<bool> out(labels, false);
    for (const ri::GameResult& g : games) {
      for (std::size_t l = 0; l < labels && l < g.fired.size(); ++l) out[l] = out[l] || g.fired[l] > 0;
    }
    return out;
  }
};

// How many instructions a sampled game may run without a decision before sampling treats
// it as a loop that never reaches one (and stops sampling after it).
inline constexpr std::int64_t kStepsWithoutDecision = 2'000'000;
inline constexpr std::size_t kPointsPerCut = 8;
// How many instructions one sampled game may run in all (the shipped rulesets run about
// 25,000): a game with decisions that still runs this long is stopped at its last decision,
// so that one game cannot hold the sampling for minutes.
inline constexpr std::int64_t kStepsPerGame = 20'000'000;

// One random game, as ri::play_random_game plays it (so counterexample.hpp replays it from
// its seed), stopped at `max_moves` decisions or after `max_rounds` rounds (`by_rounds`
// says which cap stopped a capped game).
ri::GameResult play_sample_game(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t max_moves,
                                std::int64_t max_rounds, ri::EventSink* sink, bool* by_rounds = nullptr,
                                const std::function<void(const ri::State&)>& waiting = {});

// Games after the first start only before `stop_at` (the end of `--budget`); a game under way
// then (or past kStepsPerGame instructions) is stopped at its last decision and kept as a
// capped game, replayed to that decision, so that every game sampled is the one its seed
// replays. Fewer games
// give fewer candidate facts and fewer examples, never a wrong proof: Z3 still proves every
// invariant kept.
Sampling sample(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games, std::int64_t max_moves,
                std::int64_t max_rounds, const Layout& layout, const CardClasses& classes, Invariants& invariants,
                std::chrono::steady_clock::time_point stop_at = std::chrono::steady_clock::time_point::max(),
                const std::function<void(std::int64_t)>& played = {});

}  // namespace rulebook::verifier
