// What the termination check knows of the loops of the program: the loops, their ranking
// functions (ranking.cpp) and whether a loop that goes round without a decision stays within
// the interpreter's limit of instructions between decisions (step_limit.cpp). The findings
// built from them are in termination.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <z3++.h>

#include "context.hpp"
#include "lassos.hpp"
#include "liveness.hpp"

namespace rulebook::verifier {

// A candidate ranking function: its value in a state (fresh names under the prefix, side
// conditions into the step).
using Measure = std::function<z3::expr(const std::vector<z3::expr>&, const std::string&, Step&)>;

class Termination {
 public:
  Termination(const Context& ctx) : ctx_(ctx), loops_(find_loops(ctx.ir)), successors_(static_successors(ctx.ir)) {}

  const std::vector<Loop>& loops() const { return loops_; }

  // The loop as a finding names it.
  std::string describe(const Loop& loop) const;

  // Checks a ranking function over the blocks of the loop; on failure `why` says which
  // condition failed. (a) It is non-negative at the head whenever the body is entered;
  // (b) no block inside the loop increases it; (c) every way round the loop, from the head
  // back to it, passes a block that decreases it.
  bool ranks(const Loop& loop, const Measure& m, std::string& why);

  // The measure of a built-in loop: iterations left.
  std::optional<std::pair<Measure, std::string>> builtin_measure(const Loop& loop) const;

  Measure expression_measure(ir::ExprId id) const;

  // Candidate ranking functions from the variables the loop writes and their bounds.
  std::vector<std::pair<Measure, std::string>> templates(const Loop& loop);

  // Loops without a decision proved to end but not shown to stay within the interpreter's
  // limit of instructions between decisions, by head: why.
  std::map<std::int32_t, std::string> over_limit;

  // A decision the interpreter waits for: a choice, unless a policy may make it (an
  // automated seat's choice runs on without resetting the interpreter's step count).
  bool decides(std::int32_t pc) const;

  // Whether the loop can go round, from its head back to it, without a decision (by the
  // program's control flow, inside the loop): a choice under a test that may be false every
  // time, or in a walk over a set that may be empty, does not make every iteration decide.
  bool decision_free(const Loop& loop) const { return round_trip_without_decision(loop.head, &loop); }

  // Rounds that may go by without a decision, one after the other, that the step limit
  // below allows for: more need a proof that the measure of the rounds stays below this.
  static constexpr std::int64_t kRoundsWithout = 1000;

  // The round loop's ranking function (non-negative at a round's start, one less at least
  // every round) is at most kRoundsWithout where a round starts: at most that many rounds.
  bool few_rounds(const Loop& loop, const Measure& measure) const;

  // Whether a round can go round, from its start back to it, without a decision (by the
  // program's control flow): then the instructions between two decisions can add up over
  // rounds, past the interpreter's limit, in a game that would end.
  bool round_without_decision() const { return round_trip_without_decision(ctx_.ir.round_start, nullptr); }

  // A path of the control flow from `start` back to it that passes no decision; inside
  // `loop` when one is given.
  bool round_trip_without_decision(std::int32_t start, const Loop* loop) const;

  // The interpreter faults after Machine::kMaxStepsBetweenDecisions instructions without a
  // decision, even in a loop that would end later. A loop without a decision is shown to
  // stay below that when its iterations are bounded by `limit()` (below): the iterations of
  // `for each` are at most the players or the cards; of `repeat`, the count (Z3, under the
  // invariant where it starts); otherwise the ranking function's value at the head. Empty
  // when shown, else why not.
  // `alone`: the loop with the loops nested in it or around it that go round without a
  // decision, within one round (round termination); else every such loop of the program
  // over the rounds that may go by without a decision (game termination).
  std::string step_limit(const Loop& loop, const Measure& measure, bool alone);

 private:
  // The iterations `loop` may take so that the nest of loops without a decision it belongs
  // to stays within the interpreter's limit: every instruction of the outermost of them runs
  // at most bound^depth times.
  std::int64_t limit_alone(const Loop& loop) const;

  // The iterations each loop without a decision may take: nested ones multiply, and all of
  // them with every instruction stay within the interpreter's limit.
  std::int64_t limit() const;

  const Context& ctx_;
  std::vector<Loop> loops_;
  std::vector<std::vector<std::int32_t>> successors_;
};

}  // namespace rulebook::verifier
