// The `invariant` declarations: each holds at every decision and at the end of the game when
// the inferred inductive invariant implies it there; a sampled or searched game where it is
// false refutes it.
#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

void check_invariants(Context& ctx, std::vector<Finding>& out) {
  for (std::size_t i = 0; i < ctx.ir.invariants.size(); ++i) {
    const auto started = std::chrono::steady_clock::now();
    const ir::InvariantInfo& claim = ctx.ir.invariants[i];
    Finding f = ctx.finding("invariant", claim.name, claim.span);
    ctx.start_clock();
    const SearchHit* found = nullptr;
    for (const SearchHit& hit : ctx.search.hits) {
      if (hit.what == SearchHit::What::kInvariant && hit.index == static_cast<std::int32_t>(i)) found = &hit;
    }
    if (!ctx.sampling.broken[i] && found != nullptr) {
      f.status = Status::kRefuted;
      f.method = "a game found by the exhaustive search over decisions (the shortest)";
      const ri::State end = ctx.search_state(*found);
      const std::string when = end.finished ? "at the end of the game" : fmt::format("after {} moves", end.moves);
      f.message = fmt::format("invariant {} is false {}", claim.name, when);
      f.counterexample = ctx.search_trace(*found, fmt::format("{} ({}) is false {}", claim.name, f.where, when));
    } else if (const auto& broken = ctx.sampling.broken[i]) {
      f.status = Status::kRefuted;
      f.method = "a simulated game";
      const std::string when = broken->at_end ? "at the end of the game" : fmt::format("after {} moves", broken->moves);
      f.message = fmt::format("invariant {} is false {}", claim.name, when);
      const ri::GameResult* game = nullptr;
      for (const ri::GameResult& g : ctx.sampling.games) {
        if (g.seed == broken->seed) game = &g;
      }
      f.counterexample = ctx.game_trace(*game, broken->at_end ? -1 : broken->moves,
                                        fmt::format("{} ({}) is false {}", claim.name, f.where, when));
    } else {
      std::vector<std::string> open;
      for (std::size_t p = 0; p < ctx.ir.code.size(); ++p) {
        const auto pc = static_cast<std::int32_t>(p);
        const ir::OpCode code = ctx.ir.code[p].code;
        if (code != ir::OpCode::kChoose && code != ir::OpCode::kChooseMixed && code != ir::OpCode::kEndGame) continue;
        if (code == ir::OpCode::kChoose && ctx.ir.code[p].c < 0) continue;  // a random choice is no decision
        std::size_t way = 0;
        for (Invariants::Reach& r : ctx.invariants.reach(pc)) {
          Step scratch;
          const z3::expr v = ctx.encoder.value(claim.condition, r.state, fmt::format("inv{}_{}_{}", i, pc, way++), scratch);
          // An invariant whose evaluation faults (the top of an empty pile, an overflow) is
          // false there, as the sampler counts it: the query asks for a state where it is
          // false or where one of its own checks fails.
          z3::expr_vector fails(ctx.z3);
          fails.push_back(v.is_bool() ? !v : v == 0);
          for (const Obligation& ob : scratch.obligations) fails.push_back(!ob.holds);
          for (const z3::expr& c : scratch.continues) fails.push_back(!c);
          r.facts.push_back(z3::mk_or(fails));
          r.facts.insert(r.facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
          if (ctx.check(r.facts) != z3::unsat) {
            open.push_back(ctx.where(ctx.ir.instr_spans[p]));
            break;
          }
        }
      }
      f.method = kInductive;
      if (open.empty()) {
        f.status = Status::kProved;
        f.message = fmt::format("invariant {} holds at every decision and at the end", claim.name);
      } else {
        f.status = Status::kUnknown;
        f.message = fmt::format("invariant {} is not implied by the inferred invariant at {} point(s); no simulated "
                                "game broke it", claim.name, open.size());
        f.details = std::move(open);
        ctx.note_time(f, ctx.clock);
      }
    }
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.push_back(std::move(f));
  }
}

}  // namespace rulebook::verifier
