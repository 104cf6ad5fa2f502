// Reachability: every labelled rule fires (starts and then acts: State::fired, not only
// State::reached) in some game. A witness game (sampled or found by the exhaustive search)
// shows that it does; the invariant `false` at every effect inside the rule, proved
// inductive, shows that it never can.
#include <chrono>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "context.hpp"

namespace rulebook::verifier {

namespace {

// The effects that make rule `label` fire: those whose innermost rule is it or a rule inside it.
std::vector<std::size_t> effects_of(const ir::Ir& ir, std::int32_t label) {
  std::vector<std::size_t> pcs;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ir::Instr& in = ir.code[pc];
    if (!ir::is_effect(in.code)) continue;
    for (std::int32_t l = in.rule; l >= 0; l = ir.label_parents[static_cast<std::size_t>(l)]) {
      if (l == label) {
        pcs.push_back(pc);
        break;
      }
    }
  }
  return pcs;
}

}  // namespace

void check_reachability(Context& ctx, std::vector<Finding>& out) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  const std::size_t labels = ctx.ir.labels.size();
  std::vector<bool> fired = ctx.sampling.fired(labels);
  std::vector<std::string> searched;
  for (const auto& [index, game] : ctx.sampling.witnesses) {
    for (std::size_t l = 0; l < labels && l < game.fired.size(); ++l) {
      if (fired[l] || game.fired[l] == 0) continue;
      fired[l] = true;
      searched.push_back(fmt::format("{}: fires in a long simulated game, {}", ctx.ir.labels[l], long_game(ctx, index, game)));
    }
  }
  for (const SearchHit& hit : ctx.search.hits) {
    if (hit.what != SearchHit::What::kFired || hit.index < 0 || static_cast<std::size_t>(hit.index) >= labels) continue;
    if (fired[static_cast<std::size_t>(hit.index)]) continue;
    fired[static_cast<std::size_t>(hit.index)] = true;
    searched.push_back(fmt::format("{}: fires after {} moves found by the exhaustive search", ctx.ir.labels[static_cast<std::size_t>(hit.index)],
                                   hit.moves.size()));
  }
  std::vector<std::string> dead, open;
  for (std::size_t l = 0; l < labels; ++l) {
    if (fired[l]) continue;
    // A rule fires when an effect inside it runs (ir::is_effect; a labelled `if` is reached at
    // every test and fires only when its body acts), so it is dead when no effect inside it,
    // in it or in a rule nested in it, can run; with no effect at all, when it is never reached.
    std::vector<std::size_t> acts = effects_of(ctx.ir, static_cast<std::int32_t>(l));
    if (acts.empty()) {
      for (std::size_t pc = 0; pc < ctx.ir.code.size(); ++pc) {
        const ir::Instr& in = ctx.ir.code[pc];
        if (in.code == ir::OpCode::kFire && in.a == static_cast<std::int32_t>(l)) acts.push_back(pc);
      }
    }
    bool reachable = false;
    for (const std::size_t pc : acts) {
      if (reachable) break;
      for (const Invariants::Reach& r : ctx.invariants.reach(static_cast<std::int32_t>(pc))) {
        if (ctx.check(r.facts) != z3::unsat) {
          reachable = true;
          break;
        }
      }
    }
    const std::string text = fmt::format("{} ({})", ctx.ir.labels[l], ctx.where(ctx.ir.label_spans[l]));
    (reachable ? open : dead).push_back(text);
  }
  Finding f;
  f.property = "reachability";
  if (!dead.empty()) {
    f.status = Status::kRefuted;
    f.method = "Z3: the invariant `false` at the rule is inductive, so no game reaches it";
    f.message = fmt::format("{} rule(s) can never fire: {}", dead.size(), fmt::join(dead, ", "));
    f.details = dead;
    for (const std::string& o : open) f.details.push_back("not shown either way: " + o);
  } else if (open.empty()) {
    f.status = Status::kProved;
    f.method = "witness games: every rule fired in a simulated game (replayable with its seed), a long one or one "
               "the exhaustive search found";
    f.message = fmt::format("all {} labelled rules fire", labels);
    f.details = searched;
  } else {
    f.status = Status::kUnknown;
    f.method = "witness games and Z3";
    f.message = fmt::format("{} rule(s) never fired {} and are not proved dead", open.size(), games_played(ctx));
    f.details = open;
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

}  // namespace rulebook::verifier
