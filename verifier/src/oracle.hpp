// The soundness oracle: checks the verifier's abstraction against the interpreter on
// concrete states. For every fused block (blocks.hpp) it takes concrete states at the
// block's cut point (from random games, and the same states with cards moved between zones
// and variables changed at random, which no game need reach), runs the interpreter from
// there to the next cut point, the end of the game or a rule fault, and asks Z3 whether the
// block allows that step: some exit with the abstract state after it, or some obligation of
// the fault's kind that fails in the state before. A concrete step the abstraction does not
// allow is a soundness bug: a proof over the abstraction would not hold of the game.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::verifier {

struct OracleOptions {
  std::int64_t games = 30;       // random games that give the concrete states
  std::int64_t max_moves = 600;  // move cap of those games
  std::int32_t per_cut = 4;      // sampled states kept per cut point
  std::int32_t mutations = 4;    // mutated copies per cut point
  std::int32_t choices = 3;      // at a decision: options tried per state (all when fewer)
  std::uint64_t seed = 1;
  unsigned timeout_ms = 20000;   // per Z3 query
};

struct OracleReport {
  std::int64_t steps = 0;        // concrete steps checked
  std::int64_t faults = 0;       // of which ended in a rule fault
  std::int64_t mutated = 0;      // of which started from a mutated state
  std::vector<std::string> failures;   // steps the abstraction does not allow (soundness bugs)
  std::vector<std::string> undecided;  // Z3 gave up
};

// The fault kinds of the obligations the verifier checks anywhere in the program (for the
// test that every kind the interpreter can raise has one).
std::vector<ir::FaultKind> obligation_kinds(const interpreter::Machine& machine,
                                                     const interpreter::GameConfig& config);

OracleReport check_abstraction(const interpreter::Machine& machine, const interpreter::GameConfig& config,
                               const OracleOptions& options);

}  // namespace rulebook::verifier
