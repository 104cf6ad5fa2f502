// The symbolic run of one instruction (private to the encoder): symbolic values, and the
// evaluator of expressions (symbolic_expr.cpp) and of effects and instructions
// (symbolic.cpp) over one abstract state.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "symbolic.hpp"

namespace rulebook::verifier {

// Short names for the IR's and the syntax tree's enums in the two files of the run.
using ir::Builtin;
using ir::ExprOp;
using ir::Kind;
using ir::OpCode;

// The source zone of a set of cards over `all_cards`: every card, wherever it lies (no zone
// instance). One test for it, wherever a card domain's zone is read.
inline constexpr std::int64_t kEveryZone = -2;
inline bool every_zone(const z3::expr& zone) {
  const z3::expr z = zone.simplify();
  return z.is_numeral() && z.get_numeral_int64() == kEveryZone;
}

// A symbolic value. Scalars (int, player, enum, none) are one int term; bools one bool
// term; a card is (zone instance, class); a set of cards is a source zone (kEveryZone)
// and a size per class; sets of players and of enum or bool values are one bool per
// possible member; `subsets` is a family (its base set and size bounds).
struct Encoder::Sym {
  enum class Shape : std::uint8_t { kUnknown, kInt, kBool, kCard, kCards, kZone, kPlayers, kValues, kFamily };
  Shape shape = Shape::kUnknown;
  ir::Kind kind = ir::Kind::kInt;  // kInt: int, player or enum; kValues: the element kind
  std::int32_t enum_id = -1;
  std::vector<z3::expr> e;
  bool varies = false;     // depends on a card's identity beyond its class (facing, order, ...)
  bool whole = false;      // kCards: every card of the zone
  ir::Slot from_local = -1;
};

class Encoder::Run {
 public:
  Run(const Encoder& enc, const std::vector<z3::expr>& state, const std::string& prefix, Step& step)
      : enc_(enc), ctx_(enc.ctx_), ir_(enc.ir_), layout_(enc.layout_), cur_(state), prefix_(prefix), step_(step) {
    if (step_.next.empty()) {
      step_.next = state;
      step_.written.assign(state.size(), false);
    }
  }

  // ---- helpers ----
  z3::expr num(std::int64_t v) const { return ctx_.int_val(static_cast<int64_t>(v)); }
  z3::expr yes() const { return ctx_.bool_val(true); }
  z3::expr guard() const {
    if (path_.empty()) return yes();
    z3::expr_vector v(ctx_);
    for (const z3::expr& g : path_) v.push_back(g);
    return z3::mk_and(v);
  }
  z3::expr fresh_int() { return ctx_.int_const(fmt::format("{}_{}", prefix_, fresh_++).c_str()); }
  z3::expr fresh_bool() { return ctx_.bool_const(fmt::format("{}_{}", prefix_, fresh_++).c_str()); }
  z3::expr fresh_in(std::int64_t lo, std::int64_t hi) {
    z3::expr x = fresh_int();
    step_.assumptions.push_back(x >= num(lo) && x <= num(hi));
    return x;
  }
  // A fact about fresh values, where the expression's own path goes (a block adds the path
  // to the instruction). It must be satisfiable in every state that gets here, or a state
  // would lose its transitions and everything would follow from it: conditions that can
  // fail belong in require() or oblige().
  void assume(const z3::expr& c) { step_.assumptions.push_back(z3::implies(guard(), c)); }
  // Some of `available` cards (at least none, at most all): satisfiable whatever the state.
  z3::expr part_of(const z3::expr& available) {
    const z3::expr x = fresh_int();
    assume(z3::implies(available >= num(0), x >= num(0) && x <= available));
    return x;
  }
  // A condition without which the interpreter stops with a fault here: the step continues
  // only when it holds (the fault itself is an obligation).
  // Inside the moves of one alternative of a decision with alternatives (`only_if_`: that the
  // alternative is the one taken), a requirement binds only where it is taken; the obligations
  // stay unconditional, as the interpreter evaluates every alternative's domain and guard.
  // Going on where a requirement of another alternative fails only adds successors.
  void require(const z3::expr& c) {
    step_.continues.push_back(z3::implies(only_if_ ? guard() && *only_if_ : guard(), c));
  }
  // A condition the interpreter checks (a fault when it fails): to prove, and after it the
  // step goes on only where it held.
  void oblige(ir::FaultKind fault, const z3::expr& c, const grammar::SourceSpan& span, std::string what) {
    step_.obligations.push_back(Obligation{obligation_kind(fault), fault, z3::implies(guard(), c), span, std::move(what)});
    require(c);
  }
  // An obligation stronger than the interpreter's check (proving it proves the check), after
  // which the step goes on where `exact`, the check itself, held: going on only where the
  // stronger condition held would drop games that the interpreter plays on without a fault.
  void oblige_stronger(ir::FaultKind fault, const z3::expr& c, const z3::expr& exact, const grammar::SourceSpan& span,
                       std::string what) {
    step_.obligations.push_back(Obligation{obligation_kind(fault), fault, z3::implies(guard(), c), span, std::move(what)});
    require(exact);
  }
  z3::expr at(std::int32_t index) const { return cur_[static_cast<std::size_t>(index)]; }
  void write(std::int32_t index, const z3::expr& v) {
    step_.next[static_cast<std::size_t>(index)] = v;
    step_.written[static_cast<std::size_t>(index)] = true;
  }
  std::int64_t seats() const { return layout_.seats; }
  std::int32_t classes() const { return layout_.classes; }

  Sym make_int(const z3::expr& v, ir::Kind kind = ir::Kind::kInt, std::int32_t enum_id = -1) const {
    Sym s;
    s.shape = Sym::Shape::kInt;
    s.kind = kind;
    s.enum_id = enum_id;
    s.e.push_back(v);
    return s;
  }
  Sym make_bool(const z3::expr& v, bool varies = false) const {
    Sym s;
    s.shape = Sym::Shape::kBool;
    s.e.push_back(v);
    s.varies = varies;
    return s;
  }
  Sym unknown() const { return Sym{}; }

  z3::expr as_bool(const Sym& s) {
    if (s.shape == Sym::Shape::kBool) return s.e[0];
    if (s.shape == Sym::Shape::kInt) return s.e[0] != num(0);
    return fresh_bool();
  }
  z3::expr as_int(const Sym& s) {
    if (s.shape == Sym::Shape::kInt) return s.e[0];
    if (s.shape == Sym::Shape::kBool) return z3::ite(s.e[0], num(1), num(0));
    return fresh_int();
  }
  // A player argument: checked to be a player (the interpreter faults on none).
  z3::expr as_player(const Sym& s, const grammar::SourceSpan& span) {
    if (s.shape != Sym::Shape::kInt) {
      // A value the abstraction does not keep (a local of type `none`, say) may be none: the
      // check stays, and cannot be proved.
      oblige(ir::FaultKind::kNonePlayer, fresh_bool(), span, "a player, not none (the value is not kept)");
      return fresh_in(0, seats() - 1);
    }
    oblige(ir::FaultKind::kNonePlayer, s.e[0] >= num(0) && s.e[0] < num(seats()), span, "a player, not none");
    require(s.e[0] >= num(0) && s.e[0] < num(seats()));
    return s.e[0];
  }
  // select(values, index): values[index] for a symbolic index.
  z3::expr select(const std::vector<z3::expr>& values, const z3::expr& index) const {
    z3::expr out = values.back();
    for (std::size_t i = values.size() - 1; i-- > 0;) out = z3::ite(index == num(static_cast<std::int64_t>(i)), values[i], out);
    return out;
  }
  z3::expr count(const z3::expr& zone, std::int32_t cls) const {
    std::vector<z3::expr> per;
    for (std::int32_t i = 0; i < layout_.instances; ++i) per.push_back(at(layout_.count_index(i, cls)));
    return select(per, zone);
  }
  z3::expr count_any(const z3::expr& zone, const z3::expr& cls) const {
    std::vector<z3::expr> per;
    for (std::int32_t k = 0; k < classes(); ++k) per.push_back(count(zone, k));
    return select(per, cls);
  }
  z3::expr total(const z3::expr& zone) const {
    z3::expr t = num(0);
    for (std::int32_t k = 0; k < classes(); ++k) t = t + count(zone, k);
    return t;
  }
  z3::expr seat_of(const z3::expr& p) const {
    if (!layout_.seats_move) return p;
    std::vector<z3::expr> per;
    for (const std::int32_t i : layout_.seat_index) per.push_back(at(i));
    return select(per, p);
  }
  z3::expr player_at(const z3::expr& seat) const {
    if (!layout_.seats_move) return seat;
    z3::expr out = num(seats() - 1);
    for (std::int64_t q = seats() - 1; q-- > 0;) {
      out = z3::ite(at(layout_.seat_index[static_cast<std::size_t>(q)]) == seat, num(q), out);
    }
    return out;
  }
  z3::expr modulo(const z3::expr& x) const {
    // x is within (-seats, 2 seats): one correction either way keeps it linear.
    const z3::expr n = num(seats());
    return z3::ite(x >= n, x - n, z3::ite(x < num(0), x + n, x));
  }

  // ---- expressions ----

  Sym eval(ir::ExprId id);

  Sym constant(const ir::Value& v);

  std::optional<Sym> bind(ir::Slot slot, const Sym& v) {
    std::optional<Sym> old;
    if (auto it = env_.find(slot); it != env_.end()) old = it->second;
    env_[slot] = v;
    return old;
  }
  void unbind(ir::Slot slot, const std::optional<Sym>& old) {
    if (old) {
      env_[slot] = *old;
    } else {
      env_.erase(slot);
    }
  }

  Sym local(ir::Slot slot);

  Sym var(const ir::ExprNode& n);

  Sym merge(const z3::expr& c, const Sym& a, const Sym& b);
  Sym none_card() const {
    Sym s;
    s.shape = Sym::Shape::kCard;
    s.e = {num(-1), num(-1)};
    return s;
  }

  Sym binary(const ir::ExprNode& n);

  z3::expr equal(const Sym& a, const Sym& b);

  // Universe of a set literal's values: players, enum values, bools.
  Sym set_literal(const ir::ExprNode& n);

  // The members of a player or value domain, each with the value bound to the slot.
  Sym member(const Sym& domain, std::int64_t v) const {
    if (domain.shape == Sym::Shape::kPlayers) return make_int(num(v), ir::Kind::kPlayer);
    if (domain.kind == ir::Kind::kBool) return make_bool(ctx_.bool_val(v != 0));
    return make_int(num(v), domain.kind, domain.enum_id);
  }
  // A card domain: its zone (or kEveryZone) and per-class counts.
  bool card_domain(const Sym& domain, z3::expr& zone, std::vector<z3::expr>& counts) const;
  // A card of a domain over every zone (kEveryZone) lies in some zone instance the
  // abstraction does not follow: a fresh one, so that `c in Z` may be true (kept as
  // kEveryZone it was false for every Z, and rules over where such cards lie were found
  // dead). Returns whether it was such a card. Used for every card drawn from a domain: a
  // choice, `first`, a quantifier's or a filter's card.
  bool place_anywhere(Sym& card) {
    if (!every_zone(card.e[0])) return false;
    card.e[0] = fresh_in(0, layout_.instances - 1);
    return true;
  }
  // A card of class `cls` from the domain's zone; over every zone, cards of one class lie in
  // different zones, so a filter that reads it tells the class's cards apart (varies).
  Sym class_card(const z3::expr& zone, std::int32_t cls) {
    Sym c;
    c.shape = Sym::Shape::kCard;
    c.e = {zone, num(cls)};
    c.varies = place_anywhere(c);
    return c;
  }
  // A card of some class from a zone; the class is fresh.
  Sym some_card(const z3::expr& zone, const std::vector<z3::expr>& counts) {
    Sym c;
    c.shape = Sym::Shape::kCard;
    const z3::expr cls = fresh_in(0, classes() - 1);
    require(select(counts, cls) > num(0));
    c.e = {zone, cls};
    return c;
  }

  // `body` with the slot bound to member v of a player or value domain, evaluated where the
  // member is in the domain.
  Sym for_member(const Sym& domain, std::size_t v, ir::Slot slot, ir::ExprId body) {
    path_.push_back(domain.e[v]);
    const auto old = bind(slot, member(domain, static_cast<std::int64_t>(v)));
    Sym out = eval(body);
    unbind(slot, old);
    path_.pop_back();
    return out;
  }

  // The body of `exists` or `all`, or the filter of `first`, at one element: the interpreter
  // stops at the first element that decides, in seat order, so the body at another element
  // may never run. Its faults stay obligations, but the step goes on whether or not they hold.
  Sym for_member_if_reached(const Sym& domain, std::size_t v, ir::Slot slot, ir::ExprId body) {
    const std::size_t before = step_.continues.size();
    Sym out = for_member(domain, v, slot, body);
    if_reached(before);
    return out;
  }
  // The requirements since `before` hold only where an unknown condition (the walk got there) does.
  void if_reached(std::size_t before) {
    if (step_.continues.size() == before) return;
    const z3::expr reached = fresh_bool();
    for (std::size_t i = before; i < step_.continues.size(); ++i) step_.continues[i] = z3::implies(reached, step_.continues[i]);
  }

  // A domain the abstraction does not keep: the body, filter or keys over it are still
  // encoded once, for an unknown element on an unknown path, so that every fault they can
  // raise is an obligation (which cannot be proved) rather than dropped unseen.
  // An element of type player is a player, not none: no set ever holds none (a set literal
  // faults on it, NoneInSet, and every other set is made of the elements of sets, of the
  // players, of zones or of an enum's values), and a player is a seat's number.
  void visit_untracked(ir::Slot slot, const std::vector<ir::ExprId>& parts) {
    path_.push_back(fresh_bool());
    const auto s = static_cast<std::size_t>(slot);
    const bool player = slot >= 0 && s < enc_.kinds_.local.size() && enc_.kinds_.local[s] == Kind::kPlayer;
    const auto old = bind(slot, player ? make_int(fresh_in(0, seats() - 1), Kind::kPlayer) : unknown());
    for (const ir::ExprId part : parts) {
      if (part >= 0) (void)eval(part);
    }
    unbind(slot, old);
    path_.pop_back();
  }

  Sym comprehension(const ir::ExprNode& n);
  // The value of a predicate that defines the card classes, for a card of a known class.
  [[nodiscard]] std::optional<bool> class_predicate(ir::ExprId id) const;

  // How many cards of class k of a zone pass a filter: all of them for certain (`whole`), or
  // all or none by a condition (`exact`), or some number of them.
  struct Filtered {
    z3::expr count;
    bool whole = false;
    bool exact = false;
  };
  Filtered filtered_count(ir::Slot slot, ir::ExprId filter, const z3::expr& zone, std::int32_t k, const z3::expr& available);

  Sym quantifier(const ir::ExprNode& n);

  // max/min/first: an element of the domain that passes the filter (which one is not kept).
  Sym pick(const ir::ExprNode& n, ir::ExprId domain_id, ir::ExprId filter, bool extremum);
  // `max x in D: E` / `min`: the largest (smallest) value of E over D; exact where E is kept
  // for every member (or card class), otherwise an unknown int.
  Sym extremum_value(const ir::ExprNode& n);

  Sym builtin(const ir::ExprNode& n);

  // ---- effects ----

  // Moves cards to `target` and keeps the zones of card locals up to date.
  void move(const Sym& cards, const z3::expr& target, const grammar::SourceSpan& span);
  // The zone instances a zone term can name: first and last (all of them unless known).
  [[nodiscard]] std::pair<std::int32_t, std::int32_t> instances_named(const z3::expr& zone) const {
    if (const auto it = enc_.zone_range_.find(zone.id()); it != enc_.zone_range_.end()) {
      return {it->second.first, it->second.last};
    }
    const z3::expr z = zone.simplify();
    if (z.is_numeral()) {
      const auto i = static_cast<std::int32_t>(z.get_numeral_int64());
      return {i, i};
    }
    return {0, layout_.instances - 1};
  }

  // Every card local may have been among the moved cards: `constrain` says when; the
  // local `moved_local` itself certainly was.
  template <typename F>
  void follow_locals(ir::Slot moved_local, F constrain);

  void set_var(const ir::Instr& in);

  void set_local(ir::Slot slot, const Sym& v);

  // A value picked from a choice's domain, with the filter; `nonempty` says it had one.
  Sym choose_from(const Sym& domain, ir::Slot slot, ir::ExprId filter, z3::expr& nonempty, Sym* legal = nullptr);
  // Whether an expression the abstraction does not keep may be a card that is none (and
  // not a set of cards): the interpreter faults where a card is needed.
  [[nodiscard]] bool may_be_none_card(ir::ExprId id) const;
  // A card argument: a fault where it is none (unknown when the card is not kept).
  void oblige_card(const Sym& c, ir::ExprId id, const grammar::SourceSpan& span) {
    if (c.shape == Sym::Shape::kCard) {
      oblige(ir::FaultKind::kNoneCard, c.e[0] >= num(0), span, "a card, not none");
    } else if (may_be_none_card(id)) {
      oblige(ir::FaultKind::kNoneCard, fresh_bool(), span, "a card, not none (the card is not kept)");
    }
  }
  // The obligation of an automated seat's policy: what it picks is one of the legal options.
  void check_policy(const ir::Instr& in, const z3::expr& chooser, const Sym& legal);
  // Integer arithmetic faults outside 64 bits: the result of `v`, checked.
  Sym checked(const Sym& v, const grammar::SourceSpan& span);

  // ---- instructions ----

  void run(std::int32_t pc);

  // The payoffs `end game` evaluates (symbolic_payoffs.cpp): every payoff for every seat, with
  // the faults of its expressions, a zero denominator and a ratio that does not fit.
  void payoffs();
  void payoff_node(const ir::PayoffInfo& payoff, std::int32_t node, std::int64_t seat);

  z3::expr size_of(const Sym& v);

  ChoiceReads choice_reads(std::int32_t pc);

  std::optional<std::vector<z3::expr>> players(ir::ExprId id) {
    const Sym v = eval(id);
    if (v.shape != Sym::Shape::kPlayers) return std::nullopt;
    return v.e;
  }

  z3::expr value(ir::ExprId id) {
    const Sym v = eval(id);
    if (v.shape == Sym::Shape::kBool) return v.e[0];
    return as_int(v);
  }

 private:
  const Encoder& enc_;
  z3::context& ctx_;
  const ir::Ir& ir_;
  const Layout& layout_;
  const std::vector<z3::expr>& cur_;
  std::string prefix_;
  Step& step_;
  std::vector<z3::expr> path_;
  std::optional<z3::expr> only_if_;  // see require()
  std::unordered_map<ir::Slot, Sym> env_;
  int fresh_ = 0;  // fresh values made so far: a filter that made one may tell cards of a class apart
  z3::expr move_target_ = ctx_.int_val(0);
  std::vector<ZoneRead>* reads_ = nullptr;
  ir::ExprId counting_ = -1;  // the argument of count/empty being evaluated
};

}  // namespace rulebook::verifier
