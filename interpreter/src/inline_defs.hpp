// Small defs inlined at their call sites, for running (not for the verifier, which reads the
// IR as lowered). A call whose arguments are locals or constants, or a call of a
// one-parameter def that reads its parameter once on every evaluation, is replaced by the
// def's body with the parameters replaced by the arguments. Expressions have no side
// effects, so the result is the same; what goes is binding the parameters and one node per
// call. Rules lean on small defs (a def that reads one card of a player's pile may be called
// thousands of times a game; docs/performance.md).
#pragma once

#include "rulebook/interpreter/uses_ir.hpp"

namespace rulebook::interpreter {

// A copy of `ir` in which the calls that can be are inlined; expression ids of `ir` keep
// their meaning (new nodes are appended), and the code is unchanged.
Ir inline_defs(const Ir& ir);

}  // namespace rulebook::interpreter
