// Bounds on what expanding the definitions builds. The interpreter inlines definitions at
// their calls and evaluates a call by evaluating the body; the verifier encodes every call
// as its body. A definition that calls another twice, forty layers deep, is a few lines of
// text but 2^40 nodes once expanded: checking it is instant, running or verifying it never
// ends (issue 21). This pass measures, without expanding anything, how many nodes and how
// many levels each expression has once every definition it calls is expanded, and rejects
// the rule text where a limit is passed, so that every command reports it, `check` too.
#pragma once

#include <cstdint>

#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/parse.hpp"
#include "rulebook/grammar/program.hpp"

namespace rulebook::grammar {

// Nodes of one expression with its definitions expanded. The shipped rulesets stay under
// 200 (docs/reliability.md, "Limits"); a million nodes takes milliseconds per evaluation.
inline constexpr std::uint64_t kMaxExpandedNodes = 100'000;
// Levels of one expanded expression: as deep as one may be written (parse.hpp), which bounds
// the recursion of every pass over the inlined IR (evaluation, inlining, the verifier's
// encoder) within an 8 MiB stack under AddressSanitizer too (about 7 KB a level there).
inline constexpr std::uint64_t kMaxExpandedDepth = kMaxExpressionDepth;
// Nodes that expanding every call of the whole ruleset adds, each call once.
inline constexpr std::uint64_t kMaxExpandedTotal = 1'000'000;

// Reports each place where a limit is passed (code E0308); `program` has no other error.
void check_expansion(const Program& program, Diagnostics& diagnostics);

}  // namespace rulebook::grammar
