// Knowable moves: the options of every choice are computed from what the chooser can see.
// A choice may look at any zone's number of cards, at public zones, and at its own owner
// zones; Z3 proves, under the inductive invariants, that an owner zone read is the
// chooser's own. Cards of hidden zones are known only when face up, which the abstraction
// does not keep: such a read leaves the property unknown. The facing of a known card is
// known (a face-up card is seen by everyone). A simultaneous block holds
// variable writes back until it ends; it must not move, deal, flip or shuffle cards either.
// What is not proved is refuted when two games show the leak (knowable_twins.hpp).
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "context.hpp"
#include "knowable_by_rule.hpp"
#include "knowable_twins.hpp"

namespace rulebook::verifier {

namespace {

// Hidden information that reaches a choice through a variable or a local: a value computed
// from the cards of a zone that is not public (beyond their number), or written under a
// test that reads them, may carry what the chooser cannot see. The analysis follows every
// write of the program until nothing changes; it does not know whose cards they were, so a
// choice that reads such a value is left unknown, never proved.
class HiddenFlows {
 public:
  explicit HiddenFlows(const ir::Ir& ir) : ir_(ir), var_(ir.vars.size()), local_(static_cast<std::size_t>(ir.local_slots)) {
    for (bool changed = true; changed;) {
      changed = false;
      // A variable's initial value is written too: at the start, and for a `per round` one
      // at every round start (kRoundStart), so an initializer that reads hidden cards (the
      // top of a hidden deck) makes the variable carry them, as a `set` would.
      for (std::size_t v = 0; v < ir.vars.size(); ++v) {
        if (ir.vars[v].init >= 0) changed = mark(var_[v], reads(ir.vars[v].init)) || changed;
      }
      for (std::size_t pc = 0; pc < ir.code.size(); ++pc) changed = visit(static_cast<std::int32_t>(pc)) || changed;
    }
  }
  // Where seats are swapped in a way that may depend on hidden cards, if anywhere.
  [[nodiscard]] const std::optional<grammar::SourceSpan>& seats() const { return seats_; }
  // The hidden test a choice (or any instruction) runs under, if any: whether it is asked
  // at all, and which of several choices, may tell the chooser what it cannot see.
  [[nodiscard]] std::optional<grammar::SourceSpan> under(std::int32_t pc) const {
    const auto it = under_.find(pc);
    return it == under_.end() ? std::nullopt : it->second;
  }

  // Where the first hidden read that reaches the expression is, if any. With `carried`, only
  // what reaches it through variables and locals (the zones it reads itself are checked
  // with their owners by Z3).
  // `chooser`: an expression (a plain variable or local) whose value is the chooser's own
  // identity, which the chooser knows whatever it was computed from. `element`: the slot of
  // the element a guard is asked about, which ranges over a domain checked on its own.
  [[nodiscard]] std::optional<grammar::SourceSpan> reads(ir::ExprId id, bool carried = false, ir::ExprId chooser = -1,
                                                         ir::Slot element = -1) const {
    std::vector<bool> seen_defs(ir_.defs.size(), false);
    element_ = element;
    chooser_ = chooser >= 0 ? &ir_.exprs[static_cast<std::size_t>(chooser)] : nullptr;
    if (chooser_ != nullptr && chooser_->op != ir::ExprOp::kLocal && (chooser_->op != ir::ExprOp::kVar || !chooser_->kids.empty())) {
      chooser_ = nullptr;
    }
    auto out = reads(id, carried, false, seen_defs);
    chooser_ = nullptr;
    element_ = -1;
    return out;
  }

 private:
  mutable const ir::ExprNode* chooser_ = nullptr;
  mutable bool zones_only_ = false;  // only the zones read, not what variables carry
  mutable ir::Slot element_ = -1;

  std::optional<grammar::SourceSpan> reads(ir::ExprId id, bool carried, bool counted, std::vector<bool>& seen_defs) const {
    if (id < 0) return std::nullopt;
    const ir::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    switch (n.op) {
      case ir::ExprOp::kZone:
        if (!carried && !counted && ir_.zones[static_cast<std::size_t>(n.index)].visibility != ir::Visibility::kPublic) {
          return ir_.span_of(n);
        }
        break;
      case ir::ExprOp::kAllCards:
        if (!carried && !counted) return ir_.span_of(n);
        break;
      case ir::ExprOp::kVar:
        if (zones_only_) break;
        if (chooser_ != nullptr && chooser_->op == ir::ExprOp::kVar && chooser_->index == n.index && n.kids.empty()) break;
        if (var_[static_cast<std::size_t>(n.index)]) return var_[static_cast<std::size_t>(n.index)];
        break;
      case ir::ExprOp::kLocal:
        if (zones_only_) break;
        if (chooser_ != nullptr && chooser_->op == ir::ExprOp::kLocal && chooser_->index == n.index) break;
        if (element_ >= 0 && n.index == element_) break;
        if (n.index >= 0 && static_cast<std::size_t>(n.index) < local_.size() && local_[static_cast<std::size_t>(n.index)]) {
          return local_[static_cast<std::size_t>(n.index)];
        }
        break;
      case ir::ExprOp::kBuiltin: {
        // Where a card lies in its zone: hidden unless its zone is public, and the abstraction
        // does not keep which zone a given card is in. Which way up a card lies is not hidden
        // when the card is known: every face-up card is seen by everyone, wherever it lies
        // (docs/language.md, zones), so a known card is face up exactly when it is seen so.
        // A card that is not known is caught where it comes from (its argument, below).
        const auto b = static_cast<ir::Builtin>(n.sub);
        if (b == ir::Builtin::kIndex) return ir_.span_of(n);
        break;
      }
      case ir::ExprOp::kDef: {
        const auto d = static_cast<std::size_t>(n.index);
        if (!seen_defs[d]) {
          seen_defs[d] = true;
          if (auto r = reads(ir_.defs[d].body, carried, false, seen_defs)) return r;
        }
        break;
      }
      default: break;
    }
    // count(zone) and empty(zone) read only the number of cards, which everyone sees.
    const bool counts = n.op == ir::ExprOp::kBuiltin && (static_cast<ir::Builtin>(n.sub) == ir::Builtin::kCount ||
                                                         static_cast<ir::Builtin>(n.sub) == ir::Builtin::kEmpty);
    for (const ir::ExprId k : n.kids) {
      const bool direct_zone = counts && k >= 0 && (ir_.exprs[static_cast<std::size_t>(k)].op == ir::ExprOp::kZone ||
                                                    ir_.exprs[static_cast<std::size_t>(k)].op == ir::ExprOp::kAllCards);
      if (auto r = reads(k, carried, direct_zone, seen_defs)) return r;
    }
    return std::nullopt;
  }

  static bool mark(std::optional<grammar::SourceSpan>& slot, const std::optional<grammar::SourceSpan>& from) {
    if (slot || !from) return false;
    slot = from;
    return true;
  }

  // Marks what instruction pc writes when it may carry hidden information.
  bool visit(std::int32_t pc) {
    const ir::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
    std::optional<grammar::SourceSpan> from = under_[pc];
    auto value = [&](ir::ExprId e) {
      if (!from) from = reads(e);
    };
    bool changed = false;
    switch (in.code) {
      case ir::OpCode::kLet: value(in.b); return mark(local(in.a), from);
      case ir::OpCode::kSet:
      case ir::OpCode::kAdd:
        value(in.b);
        value(in.c);
        return mark(var_[static_cast<std::size_t>(in.a)], from);
      case ir::OpCode::kForInit:
        value(in.b);
        value(in.d);
        changed = mark(local(in.a), from);
        return mark(local(in.e), from) || changed;
      case ir::OpCode::kRepeatInit: value(in.b); return mark(local(in.a), from);
      case ir::OpCode::kRepeatNext:
      case ir::OpCode::kForNext: {
        // How often a loop runs, and over what, decide everything its body does.
        changed = in.code == ir::OpCode::kForNext && mark(local(in.b), from ? from : local(in.a));
        const std::optional<grammar::SourceSpan> count = local(in.a);
        if (!count) return changed;
        const std::int32_t lo = std::min(pc, in.target), hi = std::max(pc, in.target);
        for (std::int32_t q = lo; q < hi; ++q) changed = mark(under_[q], count) || changed;
        return changed;
      }
      case ir::OpCode::kChoose: {
        // A choice among cards others cannot see is itself unseen by them (a card picked
        // from a hidden hand). Any other choice by a player is a move everyone sees: options
        // that depend on hidden values are reported at the choice itself. A random draw is
        // checked nowhere, so what its domain carries and what its filter reads go into the
        // value drawn (a card drawn from a set built from a hidden hand, a number drawn
        // where a hidden card allows it).
        zones_only_ = true;
        std::optional<grammar::SourceSpan> among = reads(in.b);
        zones_only_ = false;
        if (!among) among = reads(in.b);
        if (!among && in.c < 0 && in.d >= 0) among = reads(in.d, false, -1, in.a);
        return mark(local(in.a), among ? among : from);
      }
      case ir::OpCode::kSwapSeats:
        // Who sits where is seen by all, but seats swapped under a hidden test, or between
        // players found from hidden cards, tell what the test read: every seat read then
        // may carry it (seats_, reported for every choice).
        value(in.a);
        value(in.b);
        return mark(seats_, from);
      case ir::OpCode::kChooseMixed: {
        // As kChoose, alternative by alternative. Which alternative was taken is a move
        // everyone sees (the narrator tells every player its name; such a decision is never
        // secret), like a card played face up: what it tells of the guards (the chooser's own
        // hand) is then public. Guards that read what the chooser cannot see are reported at
        // the decision itself.
        for (const ir::AlternativeInfo& a : ir_.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
          if (a.slot < 0) continue;
          zones_only_ = true;
          const std::optional<grammar::SourceSpan> among = reads(a.domain);
          zones_only_ = false;
          changed = mark(local(a.slot), among ? among : from) || changed;
        }
        return mark(local(in.a), from) || changed;
      }
      case ir::OpCode::kJumpIfFalse: {
        // Everything between the test and where it jumps depends on the test, and so does
        // everything its `else if` and `else` branches run: a branch ends with a forward jump
        // over them (ir/src/lower_stmt.cpp), so they lie from the test's target up to where
        // that jump lands. (A while loop's body ends with a jump back instead.)
        const auto cond = reads(in.a);
        if (!cond) return false;
        std::int32_t lo = std::min(pc, in.target), hi = std::max(pc, in.target);
        if (in.target > pc && in.target - 1 > pc) {
          const ir::Instr& last = ir_.code[static_cast<std::size_t>(in.target - 1)];
          if (last.code == ir::OpCode::kJump && last.target > in.target) hi = last.target;
        }
        for (std::int32_t q = lo; q < hi; ++q) changed = mark(under_[q], cond) || changed;
        return changed;
      }
      default: return false;
    }
  }

  std::optional<grammar::SourceSpan>& local(ir::Slot slot) {
    static std::optional<grammar::SourceSpan> none;
    if (slot < 0 || static_cast<std::size_t>(slot) >= local_.size()) {
      none.reset();
      return none;
    }
    return local_[static_cast<std::size_t>(slot)];
  }

  const ir::Ir& ir_;
  std::vector<std::optional<grammar::SourceSpan>> var_, local_;

 public:
  // Choices inside a simultaneous block that read another choice of the same block (a
  // secret one: the chooser may be another player), directly or through a local. A choice
  // that reads the one made just before it by the same chooser (`choose g ... by p`, then
  // `choose t ... where ... g ... by p`, with no jump or write of p between) reads the
  // chooser's own secret.
  [[nodiscard]] std::vector<std::pair<std::int32_t, grammar::SourceSpan>> secret_reads() const {
    std::vector<std::pair<std::int32_t, grammar::SourceSpan>> out;
    std::vector<std::optional<grammar::SourceSpan>> secret(local_.size());
    std::vector<std::int32_t> secret_pc(local_.size(), -1);  // the choice that set it
    std::vector<bool> target(ir_.code.size() + 1, false);
    for (const ir::Instr& in : ir_.code) {
      if (in.target >= 0) target[static_cast<std::size_t>(in.target)] = true;
    }
    auto own = [&](std::int32_t chosen_at, std::int32_t reader) {
      if (chosen_at < 0) return false;
      const ir::Instr& first = ir_.code[static_cast<std::size_t>(chosen_at)];
      const ir::Instr& second = ir_.code[static_cast<std::size_t>(reader)];
      if (first.c < 0 || second.c < 0) return false;  // drawn at random: no chooser to compare
      const ir::ExprNode& a = ir_.exprs[static_cast<std::size_t>(first.c)];
      const ir::ExprNode& b = ir_.exprs[static_cast<std::size_t>(second.c)];
      const bool same = a.op == b.op && a.index == b.index && a.kids.empty() && b.kids.empty() &&
                        (a.op == ir::ExprOp::kLocal || a.op == ir::ExprOp::kVar);
      if (!same) return false;
      for (std::int32_t q = chosen_at + 1; q <= reader; ++q) {
        const ir::Instr& in = ir_.code[static_cast<std::size_t>(q)];
        if (target[static_cast<std::size_t>(q)] || (q < reader && in.target >= 0)) return false;
        if (a.op == ir::ExprOp::kLocal && (in.code == ir::OpCode::kLet || in.code == ir::OpCode::kChoose) && in.a == a.index && q < reader) {
          return false;
        }
        if (a.op == ir::ExprOp::kVar && (in.code == ir::OpCode::kSet || in.code == ir::OpCode::kAdd) && in.a == a.index && q < reader) {
          return false;
        }
      }
      return true;
    };
    std::int32_t open = -1;
    for (std::size_t i = 0; i < ir_.code.size(); ++i) {
      const ir::Instr& in = ir_.code[i];
      if (in.code == ir::OpCode::kBeginSecret) {
        open = static_cast<std::int32_t>(i);
        std::fill(secret.begin(), secret.end(), std::nullopt);
      }
      if (in.code == ir::OpCode::kEndSecret) open = -1;
      if (open < 0) continue;
      const auto here = static_cast<std::int32_t>(i);
      auto reads_secret = [&](ir::ExprId e) -> std::optional<grammar::SourceSpan> {
        std::optional<grammar::SourceSpan> found;
        each_local(e, [&](ir::Slot s) {
          if (found || s < 0 || static_cast<std::size_t>(s) >= secret.size() || !secret[static_cast<std::size_t>(s)]) return;
          if (in.code == ir::OpCode::kChoose && own(secret_pc[static_cast<std::size_t>(s)], here)) return;
          found = secret[static_cast<std::size_t>(s)];
        });
        return found;
      };
      if (in.code == ir::OpCode::kChoose) {
        for (const ir::ExprId e : {in.b, in.d}) {
          if (const auto s = reads_secret(e)) {
            out.emplace_back(static_cast<std::int32_t>(i), *s);
            break;
          }
        }
        if (in.a >= 0 && static_cast<std::size_t>(in.a) < secret.size()) {
          secret[static_cast<std::size_t>(in.a)] = ir_.span_of(in);
          secret_pc[static_cast<std::size_t>(in.a)] = here;
        }
      }
      if (in.code == ir::OpCode::kLet && in.a >= 0 && static_cast<std::size_t>(in.a) < secret.size()) {
        if (const auto s = reads_secret(in.b)) {
          secret[static_cast<std::size_t>(in.a)] = s;
          secret_pc[static_cast<std::size_t>(in.a)] = -1;  // through a local: not followed
        }
      }
    }
    return out;
  }

 private:
  // Calls f(slot) for every local the expression reads (through definitions too).
  template <typename F>
  void each_local(ir::ExprId id, F&& f, int depth = 0) const {
    if (id < 0 || depth > 64) return;
    const ir::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    if (n.op == ir::ExprOp::kLocal) f(n.index);
    if (n.op == ir::ExprOp::kDef) each_local(ir_.defs[static_cast<std::size_t>(n.index)].body, f, depth + 1);
    for (const ir::ExprId k : n.kids) each_local(k, f, depth + 1);
  }

  std::map<std::int32_t, std::optional<grammar::SourceSpan>> under_;  // by pc: a hidden test it runs under
  std::optional<grammar::SourceSpan> seats_;  // a swap of seats that may depend on hidden cards
};

}  // namespace

// Sampled games whose twins are tried for a refutation (knowable_twins.hpp).
constexpr std::int64_t kTwinGames = 20;

void check_knowable_moves(const Context& ctx, std::vector<Finding>& out) {
  ctx.start_clock();
  const auto started = std::chrono::steady_clock::now();
  const ir::Ir& ir = ctx.ir;
  std::vector<std::string> leaks, unclear;
  std::int64_t choices = 0;
  const HiddenFlows flows(ir);
  // Per zone instance: which zone, and the owner's player for owner zones.
  std::vector<std::int32_t> zone_of(static_cast<std::size_t>(ir.zone_instances), 0);
  for (std::size_t z = 0; z < ir.zones.size(); ++z) {
    const ir::ZoneInfo& info = ir.zones[z];
    const std::int32_t width = info.per_player ? ctx.setting.seats : 1;
    for (std::int32_t p = 0; p < width && info.first_instance + p < ir.zone_instances; ++p) {
      zone_of[static_cast<std::size_t>(info.first_instance + p)] = static_cast<std::int32_t>(z);
    }
  }
  const KnownByRule known_by_rule(ir);
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const auto pc = static_cast<std::int32_t>(i);
    const ir::Instr& in = ir.code[i];
    const bool mixed = in.code == ir::OpCode::kChooseMixed;
    if ((in.code != ir::OpCode::kChoose && !mixed) || !ctx.invariants.at(pc).reached()) continue;
    if (in.c < 0) continue;  // drawn at random: no player decides, so no player needs to see the options
    ++choices;
    const std::string rule = in.rule >= 0 ? fmt::format("'{}'", ir.labels[static_cast<std::size_t>(in.rule)]) : "a choice";
    if (const auto test = flows.under(pc); test && known_by_rule.not_known(pc)) {
      unclear.push_back(fmt::format("{} at {}: it is asked (or not) by a test or a loop that reads hidden cards ({})", rule,
                                    ctx.where(ir.span_of(in)), ctx.where(*test)));
    }
    if (const auto& swap = flows.seats()) {
      unclear.push_back(fmt::format("{} at {}: seats are swapped where hidden cards decide it ({}), and who sits where "
                                    "may decide its chooser or its options", rule, ctx.where(ir.span_of(in)),
                                    ctx.where(*swap)));
    }
    // What the options are computed from: a choice's domain and filter; for a decision with
    // alternatives, every alternative's domain and guard (the moves are the pairs of an
    // alternative and an element of its domain that passes its guard, so they are known when
    // all of these are). A filter's or guard's own element is known when its domain is, checked
    // by itself. Who chooses is not an option: the chooser knows it is asked.
    std::vector<std::pair<ir::ExprId, ir::Slot>> sources{{in.b, -1}, {in.d, in.a}};
    if (mixed) {
      sources.clear();
      for (const ir::AlternativeInfo& a : ir.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
        sources.emplace_back(a.domain, -1);
        sources.emplace_back(a.guard, a.slot);
      }
    }
    for (const auto& [e, element] : sources) {
      if (const auto hidden = flows.reads(e, true, in.c, element)) {
        unclear.push_back(fmt::format("{} at {}: its {} read a value that may carry hidden cards (from {})", rule,
                                      ctx.where(ir.span_of(in)), mixed ? "moves" : "options", ctx.where(*hidden)));
        break;
      }
    }
    Step scratch;
    const ChoiceReads reads = ctx.encoder.choice_reads(pc, ctx.invariants.state(), fmt::format("k{}", pc), scratch);
    const z3::expr inv = ctx.invariants.formula(pc, ctx.invariants.state());
    for (const ZoneRead& read : reads.zones) {
      if (read.counted) continue;
      // Which zones can this read be? Ask Z3 for each that is not visible to everyone.
      for (std::size_t z = 0; z < ir.zones.size(); ++z) {
        const ir::ZoneInfo& info = ir.zones[z];
        if (info.visibility == ir::Visibility::kPublic) continue;
        const std::int32_t width = info.per_player ? ctx.setting.seats : 1;
        z3::expr_vector bad(ctx.z3);
        for (std::int32_t p = 0; p < width; ++p) {
          const z3::expr instance = ctx.z3.int_val(info.first_instance + p);
          // An owner zone that is not per player belongs to nobody: hidden.
          if (info.visibility == ir::Visibility::kOwner && info.per_player) {
            bad.push_back(read.instance == instance && reads.chooser != ctx.z3.int_val(p));
          } else {
            bad.push_back(read.instance == instance);
          }
        }
        std::vector<z3::expr> facts{inv, read.guard, z3::mk_or(bad)};
        facts.insert(facts.end(), scratch.assumptions.begin(), scratch.assumptions.end());
        if (ctx.check(facts) == z3::unsat) continue;
        const std::string text = fmt::format("{} at {}: its {} read the cards of {} ({})", rule, ctx.where(ir.span_of(in)),
                                             mixed ? "moves" : "options", info.name, ctx.where(read.span));
        if (info.visibility == ir::Visibility::kOwner && info.per_player) {
          leaks.push_back(text + ", which may belong to another player");
        } else {
          unclear.push_back(text + ", a hidden zone: known only for face-up cards, and facing is not kept");
        }
      }
    }
  }
  for (const auto& [pc, secret] : flows.secret_reads()) {
    const ir::Instr& in = ir.code[static_cast<std::size_t>(pc)];
    const std::string rule = in.rule >= 0 ? fmt::format("'{}'", ir.labels[static_cast<std::size_t>(in.rule)]) : "a choice";
    unclear.push_back(fmt::format("{} at {}: inside a simultaneous block, its options read the secret choice at {}", rule,
                                  ctx.where(ir.span_of(in)), ctx.where(secret)));
  }
  // Simultaneous blocks: only held-back writes between the start and the end.
  std::int32_t open = -1;
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ir::Instr& in = ir.code[i];
    if (in.code == ir::OpCode::kBeginSecret) open = static_cast<std::int32_t>(i);
    if (in.code == ir::OpCode::kEndSecret) open = -1;
    if (open < 0) continue;
    if (in.code == ir::OpCode::kMove || in.code == ir::OpCode::kDeal || in.code == ir::OpCode::kFlip ||
        in.code == ir::OpCode::kShuffle || in.code == ir::OpCode::kSwapSeats) {
      leaks.push_back(fmt::format("{}: a simultaneous block changes cards or seats before the choices are revealed",
                                  ctx.where(ir.span_of(in))));
    }
  }
  Finding f;
  f.property = "knowable-moves";
  f.method = "the zones each choice reads, checked by Z3 under the inductive invariants";
  if (leaks.empty() && unclear.empty()) {
    f.status = Status::kProved;
    f.message = fmt::format("the options of all {} choices depend only on public zones, the chooser's own zones and "
                            "card counts; simultaneous blocks reveal nothing early", choices);
  } else if (auto conflict = find_knowable_conflict(ctx, kTwinGames, static_cast<double>(ctx.options.search_seconds))) {
    f.status = Status::kRefuted;
    f.method = "two games the chooser cannot tell apart, with different options (replayed)";
    f.message = std::move(conflict->message);
    f.details = leaks;
    f.details.insert(f.details.end(), unclear.begin(), unclear.end());
    f.counterexample = std::move(conflict->game);
    f.twin = std::move(conflict->twin);
  } else {
    // A read that Z3 could not rule out is not yet a leak in a reachable state: unknown.
    f.status = Status::kUnknown;
    f.message = fmt::format("{} choice read(s) may depend on cards the chooser cannot see", leaks.size() + unclear.size());
    f.details = leaks;
    f.details.insert(f.details.end(), unclear.begin(), unclear.end());
    ctx.note_time(f, ctx.clock);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  out.push_back(std::move(f));
}

}  // namespace rulebook::verifier
