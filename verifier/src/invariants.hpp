// Invariants per control position, guessed from the states of simulated games and proved
// inductive by Z3 ("guess from runs, prove with Z3"): the affine hull of the sampled states
// (its equalities) and the range of every variable. A candidate that an instruction does not
// preserve is weakened by the state Z3 finds (the hull takes the state in, a bound it breaks
// is dropped) until every instruction preserves the invariants of its successors. What is
// left is proved: an over-approximation of every reachable state at that position.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <z3++.h>

#include "affine_hull.hpp"
#include "blocks.hpp"
#include "symbolic.hpp"

namespace rulebook::verifier {

// The ranges of the variables in the states with one value of a position's key.
struct InvariantPart {
  std::vector<std::int64_t> low, high;       // per variable
  std::vector<bool> has_low, has_high;       // bounds still kept
  std::vector<std::int32_t> widened_low, widened_high;  // per variable: how often a bound was widened
};

// The candidate invariant at one control position: the affine hull of its states, and the
// ranges of the variables split by the value of the key (the players a walk over the table
// has still to visit, a choice just made): the ranges before and after a player's turn
// differ, and "the players already visited hold no notes" is a range of one part.
struct PositionInvariant {
  std::size_t dimension = 0;
  AffineHull hull;
  std::vector<LinearFact> equalities;        // from the hull, refreshed when it grows
  std::vector<std::int32_t> key_dims;
  std::map<std::vector<std::int64_t>, InvariantPart> parts;
  std::size_t samples = 0;
  std::size_t weakenings = 0;
  const std::vector<bool>* dead = nullptr;   // dimensions left out (stale locals)
  // Dimensions one range covers in every part: a walk over the table does not change them,
  // so every stage of the walk sees the same values (see shared_dimensions()).
  std::vector<bool> shared;
  const std::vector<std::int32_t>* family = nullptr;  // Layout::family
  const std::vector<std::int32_t>* owner = nullptr;   // Layout::owner
  [[nodiscard]] bool reached() const { return !parts.empty(); }
  void add(const std::vector<std::int64_t>& point);    // a sampled state
  // A state Z3 found: the hull grows to take it in; a broken bound widens to the range the
  // variable has anywhere in the sampled games when the state is within it, else it goes.
  // A state with a new key starts a new part. After many states at one position the hull
  // no longer grows one direction at a time: the equalities the state breaks are dropped
  // (Houdini), which ends the search sooner and stays sound.
  bool weaken(const std::vector<std::int64_t>& point, const std::vector<std::int64_t>* global_low = nullptr,
              const std::vector<std::int64_t>* global_high = nullptr);
  // Gives the shared dimensions one range over all parts (the union of the sampled ones).
  void join_shared();
  // The range of variable i over all parts, if every part keeps it.
  [[nodiscard]] std::optional<std::int64_t> lowest(std::size_t i) const;
  [[nodiscard]] std::optional<std::int64_t> highest(std::size_t i) const;

 private:
  // The positions in the key of the dimensions that belong to variable i's player (its
  // "still to visit" bits); empty for a variable of no player.
  [[nodiscard]] std::vector<std::size_t> stage_keys(std::size_t i) const;
  // The values of those dimensions in `point`, in key order.
  [[nodiscard]] std::vector<std::int64_t> stage(const std::vector<std::int64_t>& point, std::size_t i) const;
  // The range of variable i over the parts a new part with this key starts from (see weaken).
  [[nodiscard]] std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> starting_range(
      std::size_t i, const std::vector<std::int64_t>& key) const;
  [[nodiscard]] std::vector<std::int64_t> key(const std::vector<std::int64_t>& point) const;
  InvariantPart& part(const std::vector<std::int64_t>& point, bool& created);
};

z3::expr fact_term(z3::context& ctx, const LinearFact& fact, const std::vector<z3::expr>& state);

// By instruction: the dimensions that keep one value across the parts of its invariant.
// The parts of a position inside a walk over the players are the stages of the walk; a
// dimension that no block of the walk's loop changes has the same value at every stage of
// one walk, so its range need not (and, for the search to end soon, should not) differ
// between parts. Only the `shareable` dimensions are: who starts a walk and who takes part
// in it decide its stages. `blocks`: by instruction, the block of each cut point (what it
// keeps on the way to each exit). Positions whose parts also split by a choice made outside
// such a loop share nothing.
std::vector<std::vector<bool>> shared_dimensions(const ir::Ir& ir, const Layout& layout, const std::vector<bool>& shareable,
                                                 const std::vector<std::optional<Block>>& blocks);

// Invariants at the cut points of the program (see blocks.hpp); the instructions between
// two cut points are one transition.
class Invariants {
 public:
  Invariants(Encoder& encoder, const Layout& layout, std::vector<bool> cuts);
  [[nodiscard]] bool is_cut(std::int32_t pc) const { return cuts_[static_cast<std::size_t>(pc)]; }
  [[nodiscard]] const std::vector<bool>& cuts() const { return cuts_; }
  PositionInvariant& at(std::int32_t pc) { return positions_[static_cast<std::size_t>(pc)]; }
  [[nodiscard]] const PositionInvariant& at(std::int32_t pc) const { return positions_[static_cast<std::size_t>(pc)]; }

  // Weakens the candidates until they are inductive. Returns false if Z3 gave up on some
  // query (then the invariants of the positions it could not decide are dropped to true,
  // which keeps them sound).
  struct Stats {
    std::int64_t queries = 0;
    std::int64_t weakenings = 0;
    std::int64_t gave_up = 0;
    double seconds = 0;
    bool finished = true;
  };
  // `budget_seconds`: when the search takes longer, it stops and every invariant becomes
  // `true` (sound, and too weak for most proofs); `Stats::finished` says which.
  // `queried` is called before every query with the positions still in the work list (the
  // ones whose candidates are not yet shown inductive) and the queries run so far.
  Stats make_inductive(unsigned timeout_ms, double budget_seconds,
                       const std::function<void(std::int64_t, std::int64_t)>& queried = {});
  // The state every game starts in, at its position.
  void set_initial(std::int32_t pc, std::vector<std::int64_t> point) { initial_.emplace(pc, std::move(point)); }
  // Prints every weakening with the facts it broke (for working on the encoding).
  void debug(const std::vector<std::string>* names) { debug_ = names; }

  // The invariant at cut point pc over `state`; false when the position is unreachable.
  // With `implied`: the state is the one a block reaches from `source`, which leaves the
  // variables marked in `kept` as they were; facts the invariant at `source` already
  // states about them are left out (they hold there, so they hold here).
  struct Implied {
    std::int32_t source;
    const std::vector<bool>& kept;
  };
  [[nodiscard]] z3::expr formula(std::int32_t pc, const std::vector<z3::expr>& state,
                                 const Implied* implied = nullptr) const;
  // The block from cut point pc, run on state().
  [[nodiscard]] const Block& block(std::int32_t pc);

  // The ways an instruction is reached: from a reachable cut point, on one path of its block.
  // `facts` (the cut point's invariant, the block's assumptions, the path condition) hold
  // whenever the instruction runs in `state`; no way: no game reaches it.
  struct Reach {
    std::vector<z3::expr> facts;
    std::vector<z3::expr> state;
  };
  [[nodiscard]] std::vector<Reach> reach(std::int32_t pc);
  [[nodiscard]] const std::vector<z3::expr>& state() const { return state_; }
  // A readable list of the facts at pc.
  [[nodiscard]] std::vector<std::string> describe(std::int32_t pc, const std::vector<std::string>& names) const;

 private:
  Encoder& encoder_;
  std::vector<bool> cuts_;
  std::vector<PositionInvariant> positions_;
  std::vector<std::optional<Block>> blocks_;
  std::vector<bool> top_;  // given up on: true
  std::vector<z3::expr> state_;
  std::optional<std::pair<std::int32_t, std::vector<std::int64_t>>> initial_;
  std::vector<std::int64_t> global_low_, global_high_;
  const std::vector<std::string>* debug_ = nullptr;
};

}  // namespace rulebook::verifier
