// Termination: every loop of the setup and of a round ends (a ranking function: non-negative
// at the loop head, never increased inside the loop, decreased on every iteration), the game
// ends (a declared measure for the round loop), and the `terminates` claims. A loop with no
// ranking function is searched for a lasso: a state that the game can return to exactly.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "termination.hpp"

namespace rulebook::verifier {

std::string Termination::describe(const Loop& loop) const {
  const std::string where = ctx_.where(ctx_.ir.instr_spans[static_cast<std::size_t>(loop.head)]);
  if (loop.game) return "the round loop (the game)";
  if (loop.label >= 0) return fmt::format("loop '{}' ({})", ctx_.ir.labels[static_cast<std::size_t>(loop.label)], where);
  return fmt::format("loop at {}", where);
}

namespace {

// Rounds with at most this many instructions get candidate ranking functions from their
// variables; longer ones only the declared measure.
constexpr std::int32_t kShortRound = 60;

// The loops a `terminates` claim is about: the round loop (`game`), every other loop
// (`round`), or the outermost loop carrying its label.
std::vector<const Loop*> claimed_loops(const Context& ctx, const Termination& t, const ir::TerminationClaim& claim) {
  std::vector<const Loop*> covered;
  for (const Loop& loop : t.loops()) {
    bool match = false;
    switch (claim.target) {
      case ir::TerminationClaim::Target::kGame: match = loop.game; break;
      case ir::TerminationClaim::Target::kRound: match = !loop.game; break;
      case ir::TerminationClaim::Target::kLoop: match = !loop.game && loop.label == claim.label; break;
    }
    if (match && ctx.invariants.at(loop.head).reached()) covered.push_back(&loop);
  }
  if (claim.target == ir::TerminationClaim::Target::kLoop && covered.size() > 1) {
    const Loop* outer = covered.front();
    for (const Loop* l : covered) {
      if (l->head < outer->head) outer = l;
    }
    covered = {outer};
  }
  return covered;
}

// `declared`: the measure to check alone (a `terminates LABEL by M` claim's own finding).
// Otherwise the candidates are the built-in measure, the measure of a claim about this loop
// (so that a loop proved by its claim is not unknown in round-termination), and templates.
Finding loop_finding(const Context& ctx, Termination& t, const Loop& loop, const std::string& property,
                     std::optional<ir::ExprId> declared) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  Finding f;
  f.property = property;
  f.subject = t.describe(loop);
  f.span = ctx.ir.instr_spans[static_cast<std::size_t>(loop.head)];
  f.key = loop.game ? "game"
          : loop.label >= 0 ? ctx.ir.labels[static_cast<std::size_t>(loop.label)]
                            : fmt::format("line-{}", f.span.line);
  f.where = ctx.where(f.span);
  std::vector<std::pair<Measure, std::string>> candidates;
  if (declared) {
    const grammar::SourceSpan& span = ctx.ir.expr_spans[static_cast<std::size_t>(*declared)];
    candidates.emplace_back(t.expression_measure(*declared), "the declared measure (" + ctx.where(span) + ")");
  } else {
    if (auto b = t.builtin_measure(loop)) candidates.push_back(*b);
    const bool builtin = !candidates.empty();
    for (const ir::TerminationClaim& claim : ctx.ir.terminations) {
      if (claim.target != ir::TerminationClaim::Target::kLoop || claim.measure < 0) continue;
      const std::vector<const Loop*> claimed = claimed_loops(ctx, t, claim);
      if (std::find(claimed.begin(), claimed.end(), &loop) == claimed.end()) continue;
      const grammar::SourceSpan& span = ctx.ir.expr_spans[static_cast<std::size_t>(claim.measure)];
      candidates.emplace_back(t.expression_measure(claim.measure),
                              fmt::format("the measure of `terminates {}` ({})", claim.name, ctx.where(span)));
    }
    // The round loop: the measure of a `terminates game by` claim, else the variables it
    // writes (when the round is short enough for the checks to stay cheap).
    if (loop.game) {
      for (const ir::TerminationClaim& claim : ctx.ir.terminations) {
        if (claim.target == ir::TerminationClaim::Target::kGame && claim.measure >= 0) {
          candidates.emplace_back(t.expression_measure(claim.measure),
                                  "the measure of `terminates game` (" + ctx.where(claim.span) + ")");
        }
      }
    }
    // Templates where nothing better is known: no built-in measure, no game measure (a
    // claim's measure on a loop may fail where a template holds).
    const bool game_measure = loop.game && !candidates.empty();
    if (!builtin && !game_measure && (!loop.game || loop.back - loop.head <= kShortRound)) {
      auto more = t.templates(loop);
      candidates.insert(candidates.end(), more.begin(), more.end());
    }
  }
  auto refuted = [&](const char* method, const std::string& why, Counterexample cex) {
    f.status = Status::kRefuted;
    f.method = method;
    f.message = fmt::format("{} need not end: {}", f.subject, why);
    f.counterexample = std::move(cex);
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return f;
  };
  if (loop.game) {
    if (auto looped = looped_game(ctx)) {
      return refuted("a game that the interpreter stopped for running without a decision", looped->first,
                     std::move(looped->second));
    }
  }
  // A concrete lasso decides it, whatever a ranking function would say.
  if (auto cex = search_lasso(ctx, loop)) {
    const std::string why = cex->violation;
    return refuted("lasso: a reachable state the game returns to exactly (found by the exhaustive search, replayable)",
                   why, std::move(*cex));
  }
  std::vector<std::string> tried;
  for (const auto& [measure, name] : candidates) {
    std::string why;
    if (t.ranks(loop, measure, why)) {
      if (loop.game && t.round_without_decision() && !t.few_rounds(loop, measure)) {
        tried.push_back(fmt::format("{}: bounds the rounds ({}), but a round can go by without a decision, and the "
                                    "interpreter stops a game after {} instructions without one, over any number of "
                                    "rounds; the measure is not shown to stay below {} where a round starts",
                                    name, why, ri::Machine::kMaxStepsBetweenDecisions, Termination::kRoundsWithout));
        break;
      }
      // The loop ends, but a loop that can go round without a decision must also stay, on its
      // own, within the interpreter's limit of instructions without one, or the interpreter
      // stops it first (docs/verification.md). Game termination adds these up over the loops
      // and the rounds.
      if (!loop.game && t.decision_free(loop)) {
        if (const std::string over = t.step_limit(loop, measure, false); !over.empty()) {
          t.over_limit[loop.head] = fmt::format("{}: {}", t.describe(loop), over);
        }
        if (const std::string over = t.step_limit(loop, measure, true); !over.empty()) {
          f.status = Status::kUnknown;
          f.method = "ranking function checked by Z3; the interpreter's step limit not shown";
          f.message = fmt::format("{} ends by ranking function {} ({}), but {}", f.subject, name, why, over);
          ctx.note_time(f, ctx.clock);
          f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
          return f;
        }
      }
      f.status = Status::kProved;
      f.method = "ranking function checked by Z3 under the inductive invariants";
      f.message = fmt::format("{} ends: ranking function {} ({})", f.subject, name, why);
      f.details.push_back("ranking function: " + name);
      f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return f;
    }
    tried.push_back(fmt::format("{}: {}", name, why));
  }
  if (!declared && !loop.game) {
    if (auto cex = sampled_lasso(ctx, loop)) {
      const std::string why = cex->violation;
      return refuted("lasso: a reachable state the game returns to exactly (found by search, replayable)", why,
                     std::move(*cex));
    }
  }
  if (!declared) {
    if (auto cex = chance_lasso(ctx, loop)) {
      const std::string why = cex->violation;
      return refuted("lasso through chance: a game that returns to a state it was in, shuffles and random draws "
                     "fixed as its log records them (replayable)",
                     why, std::move(*cex));
    }
  }
  f.status = Status::kUnknown;
  f.method = "ranking functions checked by Z3; lasso search";
  f.message = candidates.empty() ? fmt::format("{}: no ranking function to check", f.subject)
                                 : fmt::format("{}: no candidate ranking function was proved", f.subject);
  if (!declared && !loop.game) {
    f.message += fmt::format(", and no lasso within {} moves ({} states searched)",
                             lasso_depth(ctx), kLassoNodes);
  }
  if (loop.game && candidates.empty()) f.message += " (declare `terminates game by MEASURE` to have one checked)";
  if (tried.size() > 6) {
    const std::size_t more = tried.size() - 6;
    tried.resize(6);
    tried.push_back(fmt::format("... and {} more candidates", more));
  }
  f.details = tried;
  ctx.note_time(f, ctx.clock);
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return f;
}

// The game when no round is ever reached (the invariant at the round's start is false): it
// ends exactly when its setup does, by an `end game` there, so every loop of the setup must
// end and stay within the interpreter's limit; a game the interpreter stopped refutes it.
Finding setup_only(const Context& ctx, const Termination& t, const std::vector<Finding>& loops) {
  Finding f;
  f.property = "game-termination";
  f.subject = "the game (no round is ever reached)";
  f.key = "game";
  f.span = ctx.ir.instr_spans[static_cast<std::size_t>(std::max(ctx.ir.round_start, 0))];
  f.where = ctx.where(f.span);
  if (auto looped = looped_game(ctx)) {
    f.status = Status::kRefuted;
    f.method = "a game that the interpreter stopped for running without a decision";
    f.message = fmt::format("the game need not end: {}", looped->first);
    f.counterexample = std::move(looped->second);
    return f;
  }
  f.method = "ranking functions of the setup's loops checked by Z3; no round is reached (Z3)";
  for (const Finding& loop : loops) {
    if (loop.status == Status::kRefuted) {
      f.status = Status::kRefuted;
      f.method = loop.method;
      f.message = fmt::format("the game need not end: {}", loop.message);
      f.counterexample = loop.counterexample;
      return f;
    }
  }
  for (const Finding& loop : loops) {
    if (loop.status != Status::kUnknown) continue;
    f.status = Status::kUnknown;
    f.message = fmt::format("no round is ever reached, so the game ends when its setup does, but {} is not proved to end",
                            loop.subject);
    return f;
  }
  if (!t.over_limit.empty()) {
    f.status = Status::kUnknown;
    f.message = fmt::format("no round is ever reached, and every loop of the setup ends, but {}", t.over_limit.begin()->second);
    return f;
  }
  f.status = Status::kProved;
  f.message = "no round is ever reached, and every loop of the setup ends: the game ends in its setup";
  return f;
}

}  // namespace

void check_termination(const Context& ctx, std::vector<Finding>& out, bool rounds, bool game, bool claims) {
  Termination t(ctx);
  std::vector<Finding> loop_results;
  std::map<std::int32_t, std::size_t> result_of;  // by loop head: its finding in loop_results
  std::optional<Finding> game_result;
  for (const Loop& loop : t.loops()) {
    if (!ctx.invariants.at(loop.head).reached()) continue;
    if (loop.game) {
      if (game) game_result = loop_finding(ctx, t, loop, "game-termination", std::nullopt);
      continue;
    }
    if (rounds || claims || game) {
      result_of[loop.head] = loop_results.size();
      loop_results.push_back(loop_finding(ctx, t, loop, "round-termination", std::nullopt));
    }
  }
  if (game && !game_result) game_result = setup_only(ctx, t, loop_results);
  if (rounds) {
    for (const Finding& f : loop_results) out.push_back(f);
    if (loop_results.empty()) {
      Finding f;
      f.property = "round-termination";
      f.status = Status::kProved;
      f.method = "the rules have no loop besides the round loop";
      f.message = "a round runs straight through";
      out.push_back(f);
    }
  }
  if (game_result && game_result->status == Status::kProved && !t.over_limit.empty()) {
    game_result->status = Status::kUnknown;
    game_result->message = fmt::format("the number of rounds is bounded, but {}", t.over_limit.begin()->second);
  }
  if (game_result) {
    // A bound on the number of rounds ends the game only if every round ends.
    const Finding* open_round = nullptr;
    for (const Finding& f : loop_results) {
      if (f.status == Status::kRefuted || (f.status == Status::kUnknown && open_round == nullptr)) open_round = &f;
    }
    if (game_result->status == Status::kProved && open_round != nullptr) {
      if (open_round->status == Status::kRefuted) {
        game_result->status = Status::kRefuted;
        game_result->method = open_round->method;
        game_result->message = fmt::format("the game need not end: {}", open_round->message);
        game_result->counterexample = open_round->counterexample;
      } else {
        game_result->status = Status::kUnknown;
        game_result->message = fmt::format("the number of rounds is bounded ({}), but {} is not proved to end",
                                           game_result->details.empty() ? "ranking function" : game_result->details.front(),
                                           open_round->subject);
      }
    }
    if (game_result->status == Status::kUnknown && !game_result->counterexample) {
      for (const Finding& f : loop_results) {
        if (f.status != Status::kRefuted) continue;
        game_result->status = Status::kRefuted;
        game_result->method = f.method;
        game_result->message = fmt::format("the game need not end: {}", f.message);
        game_result->counterexample = f.counterexample;
        break;
      }
    }
    out.push_back(*game_result);
  }
  if (!claims) return;
  for (const ir::TerminationClaim& claim : ctx.ir.terminations) {
    Finding f = ctx.finding("terminates", claim.name, claim.span);
    const std::vector<const Loop*> covered = claimed_loops(ctx, t, claim);
    // A claimed loop ends only if every loop inside it ends too (its ranking function says
    // nothing of an inner loop that runs forever between two of its iterations); the game
    // ends only if every round does.
    std::vector<const Loop*> inner;
    for (const Loop* claimed : covered) {
      // A loop without a decision between the same two decisions as the claimed one can use
      // up the interpreter's limit before or after it (step_limit.cpp).
      const std::vector<const Loop*> mates = t.same_stretch(*claimed);
      for (const Loop& loop : t.loops()) {
        if (loop.game || &loop == claimed || !ctx.invariants.at(loop.head).reached()) continue;
        const bool nested = claimed->game || (loop.head >= claimed->head && loop.back <= claimed->back);
        const bool mate = std::find(mates.begin(), mates.end(), &loop) != mates.end();
        if ((nested || mate) && std::find(covered.begin(), covered.end(), &loop) == covered.end() &&
            std::find(inner.begin(), inner.end(), &loop) == inner.end()) {
          inner.push_back(&loop);
        }
      }
    }
    Status status = Status::kProved;
    std::vector<std::string> details;
    if (claim.target == ir::TerminationClaim::Target::kGame && covered.empty()) {
      // No round is reached: the claim holds only if the setup ends, every loop of it.
      for (const Loop& loop : t.loops()) {
        if (!loop.game && ctx.invariants.at(loop.head).reached()) inner.push_back(&loop);
      }
      if (auto looped = looped_game(ctx)) {
        status = Status::kRefuted;
        details.push_back(fmt::format("refuted: the game need not end: {}", looped->first));
        f.counterexample = std::move(looped->second);
      }
    }
    for (const Loop* loop : inner) {
      const auto it = result_of.find(loop->head);
      if (it == result_of.end()) {
        status = Status::kUnknown;
        details.push_back(fmt::format("unknown: {} (inside) was not checked", t.describe(*loop)));
        continue;
      }
      const Finding& r = loop_results[it->second];
      if (r.status == Status::kRefuted) status = Status::kRefuted;
      if (r.status == Status::kUnknown && status == Status::kProved) status = Status::kUnknown;
      details.push_back(fmt::format("{} (a loop inside, or between the same two decisions): {}", status_name(r.status),
                                    r.message));
      if (r.counterexample && !f.counterexample) f.counterexample = r.counterexample;
    }
    for (const Loop* loop : covered) {
      const bool use_measure = claim.measure >= 0 && claim.target != ir::TerminationClaim::Target::kRound;
      Finding r = loop_finding(ctx, t, *loop, "terminates",
                               use_measure ? std::optional<ir::ExprId>(claim.measure) : std::nullopt);
      if (r.status == Status::kRefuted) status = Status::kRefuted;
      if (r.status == Status::kUnknown && status == Status::kProved) status = Status::kUnknown;
      details.push_back(fmt::format("{}: {}", status_name(r.status), r.message));
      if (r.counterexample && !f.counterexample) f.counterexample = r.counterexample;
      f.seconds += r.seconds;
    }
    if (claim.target == ir::TerminationClaim::Target::kGame && status == Status::kProved && !t.over_limit.empty()) {
      status = Status::kUnknown;
      details.push_back("unknown: " + t.over_limit.begin()->second);
    }
    f.status = status;
    f.method = "ranking functions checked by Z3 under the inductive invariants; lasso search";
    f.message = fmt::format("terminates {}{}: {}", claim.name, claim.measure >= 0 ? " (with its measure)" : "",
                            status == Status::kProved ? "proved" : status == Status::kRefuted ? "a loop need not end"
                                                                                             : "not proved");
    f.details = std::move(details);
    out.push_back(std::move(f));
  }
}

}  // namespace rulebook::verifier
