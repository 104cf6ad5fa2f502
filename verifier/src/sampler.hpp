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

  // Long games played after the sampled ones (play_long_witnesses), those that showed a rule
  // firing or a seat winning that no game before them showed; by game index (the index of
  // `rulebook simulate --seed S`'s game). Not candidates for invariants.
  std::vector<std::pair<std::int64_t, ri::GameResult>> witnesses;
  std::int64_t witness_games = 0;  // long games played
  double witness_seconds = 0;

  // By rule label: whether it fired (started and then acted) in some sampled game. Reached is
  // not enough: a labelled `if` whose test stays false is reached and never fires.
  [[nodiscard]] std::vector<bool> fired(std::size_t labels) const {
    std::vector<bool> out(labels, false);
    for (const ri::GameResult& g : games) {
      for (std::size_t l = 0; l < labels && l < g.fired.size(); ++l) out[l] = out[l] || g.fired[l] > 0;
    }
    return out;
  }
  // By seat: whether it is among the winners of some sampled game.
  [[nodiscard]] std::vector<bool> won(std::int32_t seats) const {
    std::vector<bool> out(static_cast<std::size_t>(seats), false);
    for (const ri::GameResult& g : games) {
      for (const ri::PlayerId p : g.winners) {
        if (p >= 0 && p < seats) out[static_cast<std::size_t>(p)] = true;
      }
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

// Long witness games: the sampled games stop at `--bound` moves and `--rounds` rounds, which
// keeps the candidate invariants cheap, but a rule may fire (or a seat win) only in longer
// games. These play on from game index `first` as `rulebook simulate --seed S` plays its
// games (ri::play_random_game, capped at kWitnessMoves moves, no round cap), so each witness
// is game N of that command, and stop once every open rule and seat is shown, after
// `max_games` games or past `seconds`. Games that show something are kept in
// `out.witnesses`; `open_labels` and `open_seats` lose what they show.
inline constexpr std::int64_t kWitnessMoves = 100'000;  // `rulebook simulate --max-moves`' default
void play_long_witnesses(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t first,
                         std::int64_t max_games, double seconds, std::vector<bool>& open_labels,
                         std::vector<bool>& open_seats, Sampling& out,
                         const std::function<void(std::int64_t)>& played = {});

}  // namespace rulebook::verifier
