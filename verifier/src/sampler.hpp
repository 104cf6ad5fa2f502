// Simulated games as the source of candidate invariants: every state the interpreter passes
// through, projected to the abstract state and added at its control position. The same runs
// record what can be shown by example: rule faults, rules that fired, seats that won, and
// declared invariants broken at a decision.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "invariants.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace rulebook::verifier {

// The kinds of value each slot holds, from a few games.
SlotKinds observe_slot_kinds(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games,
                             std::int64_t max_moves);

struct BrokenInvariant {
  std::uint64_t seed = 0;
  std::int64_t moves = 0;   // the decision at which it is false (moves made before it)
  bool at_end = false;
};

struct Sampling {
  std::vector<ri::GameResult> games;
  std::vector<std::optional<BrokenInvariant>> broken;  // by declared invariant: the first
  std::int64_t states = 0;
};

Sampling sample(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t games, std::int64_t max_moves,
                const Layout& layout, const CardClasses& classes, Invariants& invariants);

}  // namespace rulebook::verifier
