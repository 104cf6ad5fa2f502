// The interpreter's limit of instructions between two decisions, for loops that go round
// without one: which loops those are (by the control flow), and whether their iterations,
// nested and over the rounds, are shown to stay within the limit.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "termination.hpp"

namespace rulebook::verifier {

namespace {

// How many distinct values of a type there are, when finitely many (a set of sets of
// players: 2^seats); an int has no bound.
std::optional<std::int64_t> values_of(const ir::Ir& ir, const Setting& setting, ir::TypeId type) {
  const ir::TypeInfo& t = ir.types[type];
  switch (t.kind) {
    case ir::TypeKind::kPlayer: return setting.seats;
    case ir::TypeKind::kCard: return static_cast<std::int64_t>(setting.cards.size());
    case ir::TypeKind::kBool: return 2;
    case ir::TypeKind::kEnum:  // and none
      return static_cast<std::int64_t>(ir.enums[static_cast<std::size_t>(t.enum_id)].values.size()) + 1;
    case ir::TypeKind::kSet: {
      const auto inner = values_of(ir, setting, t.element);
      if (!inner || *inner > 62) return std::nullopt;
      return std::int64_t{1} << *inner;
    }
    default: return std::nullopt;
  }
}

// How many elements the set `id` can hold: every value of its element type, or, for a set
// of ints, the elements of a literal (a definition, a comprehension or a test of literals).
std::optional<std::int64_t> elements_of(const ir::Ir& ir, const Setting& setting, ir::ExprId id, int depth) {
  if (id < 0 || depth > 32) return std::nullopt;
  const ir::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  const ir::TypeInfo& t = ir.types[n.type];
  if (t.kind == ir::TypeKind::kZone) return static_cast<std::int64_t>(setting.cards.size());
  if (t.kind == ir::TypeKind::kSet) {
    if (auto all = values_of(ir, setting, t.element)) return all;
  }
  switch (n.op) {
    case ir::ExprOp::kConst: return static_cast<std::int64_t>(n.constant.items.size());
    case ir::ExprOp::kSetLit: return static_cast<std::int64_t>(n.kids.size());
    case ir::ExprOp::kDef: return elements_of(ir, setting, ir.defs[static_cast<std::size_t>(n.index)].body, depth + 1);
    case ir::ExprOp::kComprehension: return elements_of(ir, setting, n.kids[0], depth + 1);
    case ir::ExprOp::kCond: {
      const auto a = elements_of(ir, setting, n.kids[1], depth + 1), b = elements_of(ir, setting, n.kids[2], depth + 1);
      if (!a || !b) return std::nullopt;
      return std::max(*a, *b);
    }
    default: return std::nullopt;
  }
}

}  // namespace

Termination::Termination(const Context& ctx)
    : ctx_(ctx), loops_(find_loops(ctx.ir)), successors_(static_successors(ctx.ir)),
      predecessors_(ctx.ir.code.size()), free_depth_(ctx.ir.code.size(), 0) {
  for (std::size_t pc = 0; pc < successors_.size(); ++pc) {
    for (const std::int32_t next : successors_[pc]) {
      if (next >= 0 && static_cast<std::size_t>(next) < predecessors_.size()) {
        predecessors_[static_cast<std::size_t>(next)].push_back(static_cast<std::int32_t>(pc));
      }
    }
  }
  for (const Loop& loop : loops_) {
    if (loop.game || !decision_free(loop)) continue;
    for (std::int32_t pc = loop.head; pc <= loop.back; ++pc) ++free_depth_[static_cast<std::size_t>(pc)];
  }
}

bool Termination::decides(std::int32_t pc) const {
  const ir::Instr& in = ctx_.ir.code[static_cast<std::size_t>(pc)];
  // A random choice (no chooser) is no decision: the interpreter's count of instructions
  // without one goes on through it.
  return (in.code == ir::OpCode::kChoose && in.e < 0 && in.c >= 0) || in.code == ir::OpCode::kChooseMixed;
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
  if (bound < 0) {
    return fmt::format("the instructions that can run between the same two decisions as it (before and after it, "
                       "and its loops) add up past the interpreter's limit of {}",
                       ri::Machine::kMaxStepsBetweenDecisions);
  }
  if (head.code == ir::OpCode::kForNext) {
    const auto size = walk_size(head);
    if (!size) return "it walks a set whose number of elements is not known (a set of ints that is not a literal)";
    if (*size <= bound) return {};
    return fmt::format("it may visit {} elements without a decision, more than the {} that keep the instructions "
                       "between two decisions within the interpreter's limit of {}",
                       *size, bound, ri::Machine::kMaxStepsBetweenDecisions);
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

std::optional<std::int64_t> Termination::walk_size(const ir::Instr& head) const {
  std::optional<std::int64_t> most;
  for (const ir::Instr& in : ctx_.ir.code) {
    if (in.code != ir::OpCode::kForInit || in.a != head.a) continue;
    const auto size = elements_of(ctx_.ir, ctx_.setting, in.b, 0);
    if (!size) return std::nullopt;
    most = std::max(most.value_or(0), *size);
  }
  return most;
}

std::vector<bool> Termination::stretch(const Loop& loop) const {
  // Forward to the next decision and back to the last one (or the start of the game), over
  // the end of a round: a decision ends the walk, and is itself one instruction of the
  // stretch (counted in solve). Each instruction runs at most once in it outside the loops
  // without a decision, unless a whole round can go by without one: that is limit()'s.
  std::vector<bool> in(ctx_.ir.code.size(), false);
  in[static_cast<std::size_t>(loop.head)] = true;
  for (const auto* edges : {&successors_, &predecessors_}) {
    std::vector<std::int32_t> stack{loop.head};
    std::vector<bool> seen(ctx_.ir.code.size(), false);
    while (!stack.empty()) {
      const std::int32_t pc = stack.back();
      stack.pop_back();
      for (const std::int32_t next : (*edges)[static_cast<std::size_t>(pc)]) {
        if (next < 0 || static_cast<std::size_t>(next) >= in.size() || seen[static_cast<std::size_t>(next)]) continue;
        seen[static_cast<std::size_t>(next)] = true;
        if (decides(next)) continue;
        in[static_cast<std::size_t>(next)] = true;
        stack.push_back(next);
      }
    }
  }
  return in;
}

std::vector<const Loop*> Termination::same_stretch(const Loop& loop) const {
  std::vector<const Loop*> out;
  if (loop.game || !decision_free(loop)) return out;
  const std::vector<bool> pcs = stretch(loop);
  for (const Loop& m : loops_) {
    if (!m.game && m.head != loop.head && pcs[static_cast<std::size_t>(m.head)] && decision_free(m)) out.push_back(&m);
  }
  return out;
}

std::int64_t Termination::solve(const std::vector<bool>& pcs, std::int64_t times) const {
  // Instructions of the stretch by the number of loops without a decision around them. A loop
  // of at most b iterations runs its head at most b + 1 times, and a ranking function of value
  // b at the head allows b + 1 iterations: (b + 2)^k bounds an instruction at depth k. The two
  // decisions at the ends of the stretch count too.
  std::vector<double> at_depth{2.0};
  for (std::size_t pc = 0; pc < pcs.size(); ++pc) {
    if (!pcs[pc]) continue;
    const auto k = static_cast<std::size_t>(free_depth_[pc]);
    if (at_depth.size() <= k) at_depth.resize(k + 1, 0.0);
    at_depth[k] += 1.0;
  }
  const double limit = static_cast<double>(ri::Machine::kMaxStepsBetweenDecisions);
  auto fits = [&](std::int64_t b) {
    double total = 0.0, power = 1.0;
    for (const double n : at_depth) {
      total += n * power * static_cast<double>(times);
      power *= static_cast<double>(b + 2);
    }
    return total <= limit;
  };
  if (!fits(0)) return -1;
  std::int64_t lo = 0, hi = ri::Machine::kMaxStepsBetweenDecisions;
  while (lo < hi) {  // the largest b that fits: fits(lo) holds throughout
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid; else hi = mid - 1;
  }
  return lo;
}

std::int64_t Termination::limit_alone(const Loop& loop) const {
  // Every loop without a decision in the stretch of another is assumed to stay within that
  // one's bound: the loop gets the least bound of the stretches it belongs to, so that each
  // of them holds when every loop in it is shown within its own.
  std::int64_t bound = std::numeric_limits<std::int64_t>::max();
  for (const Loop& m : loops_) {
    if (m.game || !decision_free(m)) continue;
    const std::vector<bool> pcs = stretch(m);
    if (m.head != loop.head && !pcs[static_cast<std::size_t>(loop.head)]) continue;
    bound = std::min(bound, solve(pcs, 1));
  }
  // Not a loop without a decision itself: its own stretch.
  return bound == std::numeric_limits<std::int64_t>::max() ? solve(stretch(loop), 1) : bound;
}

std::int64_t Termination::limit() const {
  // Rounds that go by without a decision: the instructions of the whole program add up over
  // as many as kRoundsWithout of them (game termination proves no more). Otherwise every
  // stretch between two decisions lies within a round and the next, and limit_alone bounds it.
  if (!round_without_decision()) return std::numeric_limits<std::int64_t>::max();
  return solve(std::vector<bool>(ctx_.ir.code.size(), true), kRoundsWithout + 1);
}

}  // namespace rulebook::verifier
