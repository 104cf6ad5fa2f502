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
  Termination(const Context& ctx);

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
  // stay below that when its iterations are bounded by `limit_alone()` or `limit()` (below):
  // the iterations of `for each` are at most the elements its domain can have (by its type,
  // or a literal set); of `repeat`, the count (Z3, under the invariant where it starts);
  // otherwise the ranking function's value at the head. Empty when shown, else why not.
  // `alone`: the stretch between two decisions that runs the loop (round termination); else
  // every such loop of the program over the rounds that may go by without a decision (game
  // termination).
  std::string step_limit(const Loop& loop, const Measure& measure, bool alone);

  // The other loops without a decision that can run between the same two decisions as
  // `loop` (itself one): its step limit holds only if they stay within theirs.
  std::vector<const Loop*> same_stretch(const Loop& loop) const;

 private:
  // The iterations `loop` may take so that every stretch of instructions between two
  // decisions that runs it stays within the interpreter's limit, when every loop without a
  // decision in the stretch takes as many: the straight instructions before and after it
  // since the last decision and up to the next one, the other loops of the stretch, and
  // the loops around it (step_limit.cpp). -1 when no bound does. Whole rounds that go by
  // without a decision are left to `limit()` (game termination).
  std::int64_t limit_alone(const Loop& loop) const;

  // The instructions that can run between the same two decisions as `loop`'s head (by the
  // control flow, over the end of a round).
  std::vector<bool> stretch(const Loop& loop) const;

  // The largest iteration bound b with which the instructions of `pcs` (each run at most
  // (b + 2)^k times at a nesting depth of k loops without a decision), `times` over, stay
  // within the interpreter's limit; -1 when none does.
  std::int64_t solve(const std::vector<bool>& pcs, std::int64_t times) const;

  // How many elements the domain of the `for each` at `head` can have, when known.
  std::optional<std::int64_t> walk_size(const ir::Instr& head) const;

  // The iterations each loop without a decision may take where a round can go by without a
  // decision: every instruction of the program, over kRoundsWithout + 1 rounds, with nested
  // loops multiplied, stays within the interpreter's limit. Otherwise no bound beyond
  // limit_alone's (every stretch lies within a round and the next).
  std::int64_t limit() const;

  const Context& ctx_;
  std::vector<Loop> loops_;
  std::vector<std::vector<std::int32_t>> successors_;
  std::vector<std::vector<std::int32_t>> predecessors_;
  std::vector<std::int32_t> free_depth_;  // by pc: the loops without a decision around it
};

}  // namespace rulebook::verifier
