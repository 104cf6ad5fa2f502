// How large a program the verifier takes on. Its cost grows faster than the program: cut
// points are placed one at a time over the whole control-flow graph, every instruction is
// encoded for Z3, and every cut point keeps an affine hull over the whole abstract state
// (a row of exact rationals per dimension it spans). Past these limits a run would take hours
// or all the memory before its first finding, so the verifier says at once that it decides
// nothing, and why. The shipped rulesets are far below: 171 instructions and 388 numbers at
// most.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "rulebook/ir/ir.hpp"
#include "rulebook/verifier/verify.hpp"

namespace rulebook::verifier {

// Instructions of the lowered program (a labelled rule is two, an `if` three or more).
inline constexpr std::int64_t kMaxInstructions = 20'000;
// Numbers in the abstract state: cards per zone instance and class, variables (per player
// for per-player ones), loop state, values read through a player (layout.hpp).
inline constexpr std::int64_t kMaxStateNumbers = 4'096;

// Why the program is too large for the verifier, or an empty string.
std::string instructions_over_limit(const ir::Ir& ir);
// `at_least`: `numbers` is a lower bound (the card counts alone), found before the rest of
// the state is laid out.
std::string state_over_limit(std::int64_t numbers, bool at_least);

// Every finding `wanted` asks for (one per declared invariant and `terminates` claim),
// `unknown` because of `reason`.
std::vector<Finding> undecided_findings(const interpreter::Machine& machine, const std::set<std::string>& wanted,
                                        const std::string& reason);

}  // namespace rulebook::verifier
