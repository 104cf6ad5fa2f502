// Termination: every loop of the setup and of a round ends (a ranking function: non-negative
// at the loop head, never increased inside the loop, decreased on every iteration), the game
// ends (a declared measure for the round loop), and the `terminates` claims. A loop with no
// ranking function is searched for a lasso: a state that the game can return to exactly.
#include <chrono>
#include <cmath>
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "context.hpp"
#include "lassos.hpp"
#include "liveness.hpp"

namespace rulebook::verifier {

namespace {

using Measure = std::function<z3::expr(const std::vector<z3::expr>&, const std::string&, Step&)>;

class Termination {
 public:
  Termination(const Context& ctx) : ctx_(ctx), loops_(find_loops(ctx.ir)), successors_(static_successors(ctx.ir)) {}

  const std::vector<Loop>& loops() const { return loops_; }

  std::string describe(const Loop& loop) const {
    const std::string where = ctx_.where(ctx_.ir.code[static_cast<std::size_t>(loop.head)].span);
    if (loop.game) return "the round loop (the game)";
    if (loop.label >= 0) return fmt::format("loop '{}' ({})", ctx_.ir.labels[static_cast<std::size_t>(loop.label)], where);
    return fmt::format("loop at {}", where);
  }

  // Checks a ranking function over the blocks of the loop; on failure `why` says which
  // condition failed. (a) It is non-negative at the head whenever the body is entered;
  // (b) no block inside the loop increases it; (c) every way round the loop, from the head
  // back to it, passes a block that decreases it.
  bool ranks(const Loop& loop, const Measure& m, std::string& why) {
    Invariants& inv = ctx_.invariants;
    const auto& x = inv.state();
    if (loop.game) {
      Step scratch;
      const z3::expr v = m(x, fmt::format("m{}a", loop.head), scratch);
      std::vector<z3::expr> facts{inv.formula(loop.head, x), v < 0};
      facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
      if (ctx_.check(facts) != z3::unsat) {
        why = "it can be negative when a round starts";
        return false;
      }
    }
    // Blocks that keep the measure (edges of the loop's graph of cut points without a decrease).
    std::vector<std::vector<std::int32_t>> level(ctx_.ir.code.size());
    std::string decreased_at;
    for (std::int32_t pc = loop.head; pc <= loop.back; ++pc) {
      if (!inv.is_cut(pc) || !inv.at(pc).reached()) continue;
      const Block& block = inv.block(pc);
      std::size_t way = 0;
      for (const BlockExit& exit : block.exits) {
        // Paths that leave the loop (its head's exit, the end of the game) are not iterations.
        if (exit.pc < 0) continue;
        const std::int32_t first = exit.path.size() >= 2 ? exit.path[1] : exit.pc;
        if (!inside(loop, first) || !inside(loop, exit.pc)) continue;
        Step scratch;
        const std::string tag = fmt::format("m{}_{}_{}", loop.head, pc, way++);
        const z3::expr before = m(x, tag + "b", scratch);
        const z3::expr after = m(exit.next, tag + "c", scratch);
        std::vector<z3::expr> base{inv.formula(pc, x), exit.guard};
        base.insert(base.end(), block.assumptions.begin(), block.assumptions.end());
        base.insert(base.end(), scratch.assumptions.begin(), scratch.assumptions.end());
        if (pc == loop.head && !loop.game) {
          std::vector<z3::expr> negative = base;
          negative.push_back(before < 0);
          if (ctx_.check(negative) != z3::unsat) {
            why = "it can be negative at the loop head";
            return false;
          }
        }
        std::vector<z3::expr> up = base;
        up.push_back(after > before);
        if (ctx_.check(up) != z3::unsat) {
          why = fmt::format("it can increase on a path from {}", ctx_.where(ctx_.ir.code[static_cast<std::size_t>(pc)].span));
          return false;
        }
        std::vector<z3::expr> same = base;
        same.push_back(after >= before);
        if (ctx_.check(same) != z3::unsat) {
          level[static_cast<std::size_t>(pc)].push_back(exit.pc);
        } else if (decreased_at.empty()) {
          decreased_at = ctx_.where(ctx_.ir.code[static_cast<std::size_t>(pc)].span);
        }
      }
    }
    // (c): the head must not reach itself through blocks that keep the measure.
    std::vector<bool> seen(ctx_.ir.code.size(), false);
    std::vector<std::int32_t> stack(level[static_cast<std::size_t>(loop.head)]);
    while (!stack.empty()) {
      const std::int32_t pc = stack.back();
      stack.pop_back();
      if (pc == loop.head) {
        why = "some way round the loop does not decrease it";
        return false;
      }
      if (seen[static_cast<std::size_t>(pc)]) continue;
      seen[static_cast<std::size_t>(pc)] = true;
      for (const std::int32_t next : level[static_cast<std::size_t>(pc)]) stack.push_back(next);
    }
    why = decreased_at.empty() ? "no way round the loop is feasible" : "decreases on the paths from " + decreased_at;
    return true;
  }

  // The measure of a built-in loop: iterations left.
  std::optional<std::pair<Measure, std::string>> builtin_measure(const Loop& loop) const {
    const ir::Instr& head = ctx_.ir.code[static_cast<std::size_t>(loop.head)];
    const Layout& layout = ctx_.layout;
    if (head.code == ir::OpCode::kRepeatNext) {
      const std::int32_t index = layout.local_index[static_cast<std::size_t>(head.a)];
      if (index < 0) return std::nullopt;
      return std::make_pair(Measure([index](const std::vector<z3::expr>& s, const std::string&, Step&) {
                              return s[static_cast<std::size_t>(index)];
                            }),
                            std::string("the repetitions left"));
    }
    if (head.code == ir::OpCode::kForNext) {
      const auto slot = static_cast<std::size_t>(head.a);
      const std::int32_t index = layout.local_index[slot];
      if (index < 0) return std::nullopt;
      const std::int32_t width = layout.local_shape[slot] == SlotShape::kPlayerList ? layout.seats : 1;
      return std::make_pair(Measure([index, width](const std::vector<z3::expr>& s, const std::string&, Step&) {
                              z3::expr sum = s[static_cast<std::size_t>(index)];
                              for (std::int32_t i = 1; i < width; ++i) sum = sum + s[static_cast<std::size_t>(index + i)];
                              return sum;
                            }),
                            std::string("the elements left to visit"));
    }
    return std::nullopt;
  }

  Measure expression_measure(ir::ExprId id) const {
    Encoder& enc = ctx_.encoder;
    return [&enc, id](const std::vector<z3::expr>& s, const std::string& prefix, Step& step) {
      z3::expr v = enc.value(id, s, prefix, step);
      if (v.is_bool()) v = z3::ite(v, enc.context().int_val(1), enc.context().int_val(0));
      return v;
    };
  }

  // Candidate ranking functions from the variables the loop writes and their bounds.
  std::vector<std::pair<Measure, std::string>> templates(const Loop& loop) {
    std::vector<bool> written(static_cast<std::size_t>(ctx_.layout.size()), false);
    for (std::int32_t pc = loop.head; pc <= loop.back; ++pc) {
      if (!ctx_.invariants.is_cut(pc) || !ctx_.invariants.at(pc).reached()) continue;
      const Block& block = ctx_.invariants.block(pc);
      for (std::size_t i = 0; i < written.size(); ++i) written[i] = written[i] || block.written[i];
    }
    std::vector<std::pair<Measure, std::string>> out;
    const PositionInvariant& head = ctx_.invariants.at(loop.head);
    if (!head.reached()) return out;
    for (std::size_t i = 0; i < written.size(); ++i) {
      // Scalar variables only (counts and loop state have their own measures).
      if (!written[i] || ctx_.layout.names[i].starts_with("local ") || ctx_.layout.names[i].starts_with("count(") ||
          static_cast<std::int32_t>(i) >= ctx_.layout.base_size) {
        continue;
      }
      z3::context& z = ctx_.z3;
      if (const auto lowest = head.lowest(i)) {
        const std::int64_t low = *lowest;
        out.emplace_back([i, low, &z](const std::vector<z3::expr>& s, const std::string&, Step&) {
          return s[i] - z.int_val(static_cast<int64_t>(low));
        }, fmt::format("{} - {}", ctx_.layout.names[i], low));
      }
      if (const auto highest = head.highest(i)) {
        const std::int64_t high = *highest;
        out.emplace_back([i, high, &z](const std::vector<z3::expr>& s, const std::string&, Step&) {
          return z.int_val(static_cast<int64_t>(high)) - s[i];
        }, fmt::format("{} - {}", high, ctx_.layout.names[i]));
      }
    }
    return out;
  }

  // Loops without a decision proved to end but not shown to stay within the interpreter's
  // limit of instructions between decisions, by head: why.
  std::map<std::int32_t, std::string> over_limit;

  // A decision the interpreter waits for: a choice, unless a policy may make it (an
  // automated seat's choice runs on without resetting the interpreter's step count).
  bool decides(std::int32_t pc) const {
    const ir::Instr& in = ctx_.ir.code[static_cast<std::size_t>(pc)];
    return in.code == ir::OpCode::kChoose && in.e < 0;
  }

  // Whether the loop can go round, from its head back to it, without a decision (by the
  // program's control flow, inside the loop): a choice under a test that may be false every
  // time, or in a walk over a set that may be empty, does not make every iteration decide.
  bool decision_free(const Loop& loop) const { return round_trip_without_decision(loop.head, &loop); }

  // Rounds that may go by without a decision, one after the other, that the step limit
  // below allows for: more need a proof that the measure of the rounds stays below this.
  static constexpr std::int64_t kRoundsWithout = 1000;

  // The round loop's ranking function (non-negative at a round's start, one less at least
  // every round) is at most kRoundsWithout where a round starts: at most that many rounds.
  bool few_rounds(const Loop& loop, const Measure& measure) const {
    Step scratch;
    const auto& x = ctx_.invariants.state();
    const z3::expr v = measure(x, fmt::format("fr{}", loop.head), scratch);
    std::vector<z3::expr> facts{ctx_.invariants.formula(loop.head, x), v > ctx_.z3.int_val(static_cast<int64_t>(kRoundsWithout))};
    facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
    return ctx_.check(facts) == z3::unsat;
  }

  // Whether a round can go round, from its start back to it, without a decision (by the
  // program's control flow): then the instructions between two decisions can add up over
  // rounds, past the interpreter's limit, in a game that would end.
  bool round_without_decision() const { return round_trip_without_decision(ctx_.ir.round_start, nullptr); }

  // A path of the control flow from `start` back to it that passes no decision; inside
  // `loop` when one is given.
  bool round_trip_without_decision(std::int32_t start, const Loop* loop) const {
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

  // The interpreter faults after Machine::kMaxStepsBetweenDecisions instructions without a
  // decision, even in a loop that would end later. A loop without a decision is shown to
  // stay below that when its iterations are bounded by `limit()` (below): the iterations of
  // `for each` are at most the players or the cards; of `repeat`, the count (Z3, under the
  // invariant where it starts); otherwise the ranking function's value at the head. Empty
  // when shown, else why not.
  // `alone`: the loop with the loops nested in it or around it that go round without a
  // decision, within one round (round termination); else every such loop of the program
  // over the rounds that may go by without a decision (game termination).
  std::string step_limit(const Loop& loop, const Measure& measure, bool alone) {
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

 private:
  // The iterations `loop` may take so that the nest of loops without a decision it belongs
  // to stays within the interpreter's limit: every instruction of the outermost of them runs
  // at most bound^depth times.
  std::int64_t limit_alone(const Loop& loop) const {
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

  // The iterations each loop without a decision may take: nested ones multiply, and all of
  // them with every instruction stay within the interpreter's limit.
  std::int64_t limit() const {
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

  const Context& ctx_;
  std::vector<Loop> loops_;
  std::vector<std::vector<std::int32_t>> successors_;
};

// Rounds with at most this many instructions get candidate ranking functions from their
// variables; longer ones only the declared measure.
constexpr std::int32_t kShortRound = 60;

Finding loop_finding(const Context& ctx, Termination& t, const Loop& loop, const std::string& property,
                     std::optional<ir::ExprId> declared) {
  const auto started = std::chrono::steady_clock::now();
  ctx.start_clock();
  Finding f;
  f.property = property;
  f.subject = t.describe(loop);
  f.span = ctx.ir.code[static_cast<std::size_t>(loop.head)].span;
  f.key = loop.game ? "game"
          : loop.label >= 0 ? ctx.ir.labels[static_cast<std::size_t>(loop.label)]
                            : fmt::format("line-{}", f.span.line);
  f.where = ctx.where(f.span);
  std::vector<std::pair<Measure, std::string>> candidates;
  if (declared) {
    const grammar::SourceSpan& span = ctx.ir.exprs[static_cast<std::size_t>(*declared)].span;
    candidates.emplace_back(t.expression_measure(*declared), "the declared measure (" + ctx.where(span) + ")");
  } else {
    if (auto b = t.builtin_measure(loop)) candidates.push_back(*b);
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
    if (candidates.empty() && (!loop.game || loop.back - loop.head <= kShortRound)) {
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
      // The labelled loop is the outermost loop carrying the label.
      const Loop* outer = covered.front();
      for (const Loop* l : covered) {
        if (l->head < outer->head) outer = l;
      }
      covered = {outer};
    }
    // A claimed loop ends only if every loop inside it ends too (its ranking function says
    // nothing of an inner loop that runs forever between two of its iterations); the game
    // ends only if every round does.
    std::vector<const Loop*> inner;
    for (const Loop* claimed : covered) {
      for (const Loop& loop : t.loops()) {
        if (loop.game || &loop == claimed || !ctx.invariants.at(loop.head).reached()) continue;
        const bool nested = claimed->game || (loop.head >= claimed->head && loop.back <= claimed->back);
        if (nested && std::find(covered.begin(), covered.end(), &loop) == covered.end() &&
            std::find(inner.begin(), inner.end(), &loop) == inner.end()) {
          inner.push_back(&loop);
        }
      }
    }
    Status status = Status::kProved;
    std::vector<std::string> details;
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
      details.push_back(fmt::format("{} (a loop inside): {}", status_name(r.status), r.message));
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
