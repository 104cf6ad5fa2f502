// The interpreter's limit of instructions between two decisions, for loops that go round
// without one: which loops those are (by the control flow), and whether their iterations,
// nested and over the rounds, are shown to stay within the limit.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "termination.hpp"

namespace rulebook::verifier {

bool Termination::decides(std::int32_t pc) const {
  const ir::Instr& in = ctx_.ir.code[static_cast<std::size_t>(pc)];
  return in.code == ir::OpCode::kChoose && in.e < 0;
}

bool Termination::few_rounds(const Loop& loop, const Measure& measure) const {
  Step scratch;
  const auto& x = ctx_.invariants.state();
  const z3::expr v = measure(x, fmt::format("fr{}", loop.head), scratch);
  std::vector<z3::expr> facts{ctx_.invariants.formula(loop.head, x), v > ctx_.z3.int_val(static_cast<int64_t>(kRoundsWithout))};
  facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
  return ctx_.check(facts) == z3::unsat;
}

bool Termination::round_trip_without_decision(std::int32_t start, const Loop* loop) const {
  std::vector<bool> seen(ctx_.ir.code.size(), false);
  std::vector<std::int32_t> stack{start};
  while (!stack.empty()) {
    const std::int32_t pc = stack.back();
    stack.pop_back();
    for (const std::int32_t next : successors_[static_cast<std::size_t>(pc)]) {
      if (next == start) return true;
      if (next < 0 || static_cast<std::size_t>(next) >= seen.size() || (loop != nullptr && !inside(*loop, next))) continue;
      if (decides(next) || seen[static_cast<std::size_t>(next)]) continue;
      seen[static_cast<std::size_t>(next)] = true;
      stack.push_back(next);
    }
  }
  return false;
}

std::string Termination::step_limit(const Loop& loop, const Measure& measure, bool alone) {
  const std::int64_t bound = alone ? limit_alone(loop) : limit();
  const ir::Instr& head = ctx_.ir.code[static_cast<std::size_t>(loop.head)];
  const std::int64_t cards = static_cast<std::int64_t>(ctx_.setting.cards.size());
  if (head.code == ir::OpCode::kForNext) {
    if (std::max<std::int64_t>(ctx_.setting.seats, cards) <= bound) return {};
    return fmt::format("it may visit more than {} elements without a decision", bound);
  }
  std::vector<Invariants::Reach> ways;
  std::function<z3::expr(const std::vector<z3::expr>&, const std::string&, Step&)> value;
  if (head.code == ir::OpCode::kRepeatNext) {
    for (std::int32_t pc = 0; pc < static_cast<std::int32_t>(ctx_.ir.code.size()); ++pc) {
      const ir::Instr& in = ctx_.ir.code[static_cast<std::size_t>(pc)];
      if (in.code != ir::OpCode::kRepeatInit || in.a != head.a) continue;
      for (Invariants::Reach& r : ctx_.invariants.reach(pc)) ways.push_back(std::move(r));
      value = [this, id = in.b](const std::vector<z3::expr>& s, const std::string& p, Step& st) {
        return ctx_.encoder.value(id, s, p, st);
      };
    }
  } else {
    Invariants::Reach r;
    r.facts.push_back(ctx_.invariants.formula(loop.head, ctx_.invariants.state()));
    r.state = ctx_.invariants.state();
    ways.push_back(std::move(r));
    value = measure;
  }
  std::size_t way = 0;
  for (Invariants::Reach& r : ways) {
    Step scratch;
    const z3::expr v = value(r.state, fmt::format("sl{}_{}", loop.head, way++), scratch);
    r.facts.push_back(v > ctx_.z3.int_val(static_cast<int64_t>(bound)));
    r.facts.insert(r.facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
    if (ctx_.check(r.facts) != z3::unsat) {
      return fmt::format("it runs without a decision and is not shown to stop within {} iterations (the interpreter "
                         "stops a game after {} instructions without a decision)",
                         bound, ri::Machine::kMaxStepsBetweenDecisions);
    }
  }
  return {};
}

std::int64_t Termination::limit_alone(const Loop& loop) const {
  auto contains = [](const Loop& outer, const Loop& inner) { return outer.head <= inner.head && inner.back <= outer.back; };
  auto nest = [&](const Loop& m) {
    std::int64_t d = 0;
    for (const Loop& outer : loops_) d += (!outer.game && decision_free(outer) && contains(outer, m)) ? 1 : 0;
    return d;
  };
  const Loop* outermost = &loop;
  std::int64_t depth = 1;
  for (const Loop& m : loops_) {
    if (m.game || !decision_free(m)) continue;
    if (contains(m, *outermost)) outermost = &m;
    if (contains(loop, m) || contains(m, loop)) depth = std::max(depth, nest(m));
  }
  const double total = static_cast<double>(ri::Machine::kMaxStepsBetweenDecisions) /
                       static_cast<double>(outermost->back - outermost->head + 1);
  return static_cast<std::int64_t>(std::floor(std::pow(total, 1.0 / static_cast<double>(depth))));
}

std::int64_t Termination::limit() const {
  std::int64_t loops = 0, depth = 0;
  for (const Loop& l : loops_) {
    if (l.game || !decision_free(l)) continue;
    ++loops;
    std::int64_t d = 0;
    for (const Loop& outer : loops_) {
      if (!outer.game && decision_free(outer) && outer.head <= l.head && l.back <= outer.back) ++d;
    }
    depth = std::max(depth, d);
  }
  // Where rounds can go by without a decision, their instructions add up over as many as
  // kRoundsWithout rounds (game termination proves no more).
  const std::int64_t rounds = round_without_decision() ? kRoundsWithout + 1 : 1;
  const double total = static_cast<double>(ri::Machine::kMaxStepsBetweenDecisions) /
                       static_cast<double>(std::max<std::int64_t>(1, loops) * rounds *
                                           static_cast<std::int64_t>(ctx_.ir.code.size()));
  return static_cast<std::int64_t>(std::floor(std::pow(total, 1.0 / static_cast<double>(std::max<std::int64_t>(1, depth)))));
}

}  // namespace rulebook::verifier
