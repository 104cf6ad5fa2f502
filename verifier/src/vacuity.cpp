// The vacuity guard: a proof from an unsatisfiable premise proves everything, so before
// any Z3 answer is reported, what the proofs assume is checked against real games.
#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

std::string vacuity_failure(Context& ctx) {
  const auto& x = ctx.invariants.state();
  PropertyClock clock = ctx.new_clock();
  for (const auto& [pc, points] : ctx.sampling.points) {
    if (!ctx.invariants.at(pc).reached()) {
      return fmt::format("a game reached {}, where the invariant is false", ctx.where(ctx.ir.instr_spans[static_cast<std::size_t>(pc)]));
    }
    const Block& block = ctx.invariants.block(pc);
    z3::expr_vector ways(ctx.z3);
    for (const BlockExit& exit : block.exits) ways.push_back(exit.guard);
    for (const Obligation& ob : block.obligations) ways.push_back(!ob.holds);
    const z3::expr inv = ctx.invariants.formula(pc, x);
    for (const std::vector<std::int64_t>& point : points) {
      std::vector<z3::expr> facts{inv, ways.empty() ? ctx.z3.bool_val(false) : z3::mk_or(ways)};
      facts.insert(facts.end(), block.assumptions.begin(), block.assumptions.end());
      for (std::int32_t d = 0; d < ctx.layout.base_size; ++d) {
        facts.push_back(x[static_cast<std::size_t>(d)] == ctx.z3.int_val(static_cast<int64_t>(point[static_cast<std::size_t>(d)])));
      }
      if (ctx.check(facts, clock) == z3::unsat) {
        return fmt::format("a state a game had at {} has no transition under the invariant there",
                           ctx.where(ctx.ir.instr_spans[static_cast<std::size_t>(pc)]));
      }
    }
  }
  std::vector<bool> fired(ctx.ir.labels.size(), false);
  for (const ri::GameResult& g : ctx.sampling.games) {
    for (std::size_t l = 0; l < fired.size() && l < g.reached.size(); ++l) fired[l] = fired[l] || g.reached[l] > 0;
  }
  for (std::size_t pc = 0; pc < ctx.ir.code.size(); ++pc) {
    const ir::Instr& in = ctx.ir.code[pc];
    if (in.code != ir::OpCode::kFire || !fired[static_cast<std::size_t>(in.a)]) continue;
    bool reachable = false;
    for (const Invariants::Reach& r : ctx.invariants.reach(static_cast<std::int32_t>(pc))) {
      if (ctx.check(r.facts, clock) != z3::unsat) {
        reachable = true;
        break;
      }
    }
    if (!reachable) {
      return fmt::format("rule {} fired in a game, but the encoding finds it unreachable", ctx.ir.labels[static_cast<std::size_t>(in.a)]);
    }
  }
  return {};
}

}  // namespace rulebook::verifier
