#include "symbolic.hpp"

#include <array>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

namespace rulebook::verifier {

namespace {
namespace ast = grammar::ast;
using ri::Builtin;
using ri::ExprOp;
using ri::Kind;
using ri::OpCode;
}  // namespace

// A symbolic value. Scalars (int, player, enum, none) are one int term; bools one bool
// term; a card is (zone instance, class); a set of cards is a source zone (-2: every zone)
// and a size per class; sets of players and of enum or bool values are one bool per
// possible member; `subsets` is a family (its base set and size bounds).
struct Encoder::Sym {
  enum class Shape : std::uint8_t { kUnknown, kInt, kBool, kCard, kCards, kZone, kPlayers, kValues, kFamily };
  Shape shape = Shape::kUnknown;
  Kind kind = Kind::kInt;  // kInt: int, player or enum; kValues: the element kind
  std::int32_t enum_id = -1;
  std::vector<z3::expr> e;
  bool varies = false;     // depends on a card's identity beyond its class (facing, order, ...)
  bool whole = false;      // kCards: every card of the zone
  ri::Slot from_local = -1;
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
  void assume(const z3::expr& c) { step_.assumptions.push_back(z3::implies(guard(), c)); }
  // A condition without which the interpreter stops with a fault here: the step continues
  // only when it holds (the fault itself is an obligation).
  void require(const z3::expr& c) { step_.continues.push_back(z3::implies(guard(), c)); }
  // A condition the interpreter checks (a fault when it fails): to prove, and after it the
  // step goes on only where it held.
  void oblige(ObligationKind kind, const z3::expr& c, const grammar::SourceSpan& span, std::string what) {
    step_.obligations.push_back(Obligation{kind, z3::implies(guard(), c), span, std::move(what)});
    require(c);
  }
  z3::expr at(std::int32_t index) const { return cur_[static_cast<std::size_t>(index)]; }
  void write(std::int32_t index, const z3::expr& v) {
    step_.next[static_cast<std::size_t>(index)] = v;
    step_.written[static_cast<std::size_t>(index)] = true;
  }
  std::int64_t seats() const { return layout_.seats; }
  std::int32_t classes() const { return layout_.classes; }

  Sym make_int(const z3::expr& v, Kind kind = Kind::kInt, std::int32_t enum_id = -1) const {
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
    if (s.shape != Sym::Shape::kInt) return fresh_in(0, seats() - 1);
    oblige(ObligationKind::kDefined, s.e[0] >= num(0) && s.e[0] < num(seats()), span, "a player, not none");
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

  Sym eval(ri::ExprId id) {
    const ri::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    switch (n.op) {
      case ExprOp::kConst: return constant(n.constant);
      case ExprOp::kLocal: return local(n.index);
      case ExprOp::kVar: return var(n);
      case ExprOp::kOption: return constant(enc_.setting_.options[static_cast<std::size_t>(n.index)]);
      case ExprOp::kZone: {
        const ri::ZoneInfo& z = ir_.zones[static_cast<std::size_t>(n.index)];
        const bool counted = counting_ == id;
        Sym s;
        s.shape = Sym::Shape::kZone;
        if (z.per_player) {
          s.e.push_back(num(z.first_instance) + as_player(eval(n.kids[0]), n.span));
        } else {
          s.e.push_back(num(z.first_instance));
        }
        if (reads_ != nullptr) reads_->push_back(ZoneRead{s.e[0], guard(), counted, n.span});
        return s;
      }
      case ExprOp::kSeat: {
        const z3::expr seat = as_int(eval(n.kids[0]));
        oblige(ObligationKind::kDefined, seat >= num(0) && seat < num(seats()), n.span, "a seat number");
        return make_int(player_at(seat), Kind::kPlayer);
      }
      case ExprOp::kPlayers: {
        Sym s;
        s.shape = Sym::Shape::kPlayers;
        for (std::int64_t p = 0; p < seats(); ++p) s.e.push_back(yes());
        return s;
      }
      case ExprOp::kAllCards: {
        Sym s;
        s.shape = Sym::Shape::kCards;
        s.whole = true;
        s.e.push_back(num(-2));
        for (std::int32_t k = 0; k < classes(); ++k) s.e.push_back(num(enc_.classes_.size[static_cast<std::size_t>(k)]));
        return s;
      }
      case ExprOp::kNumPlayers: return make_int(num(enc_.setting_.players));
      case ExprOp::kNumSeats: return make_int(num(seats()));
      case ExprOp::kBuiltin: return builtin(n);
      case ExprOp::kDef: {
        const ri::DefInfo& def = ir_.defs[static_cast<std::size_t>(n.index)];
        std::vector<Sym> args;
        for (const ri::ExprId k : n.kids) args.push_back(eval(k));
        std::vector<std::pair<ri::Slot, std::optional<Sym>>> saved;
        for (std::size_t i = 0; i < args.size(); ++i) saved.emplace_back(def.params[i], bind(def.params[i], args[i]));
        Sym out = eval(def.body);
        for (auto it = saved.rbegin(); it != saved.rend(); ++it) unbind(it->first, it->second);
        return out;
      }
      case ExprOp::kNot: {
        const Sym v = eval(n.kids[0]);
        return make_bool(!as_bool(v), v.varies);
      }
      case ExprOp::kNeg: {
        const Sym v = eval(n.kids[0]);
        Sym out = make_int(-as_int(v));
        out.varies = v.varies;
        return out;
      }
      case ExprOp::kBinary: return binary(n);
      case ExprOp::kSetLit: return set_literal(n);
      case ExprOp::kComprehension: return comprehension(n);
      case ExprOp::kQuant: return quantifier(n);
      case ExprOp::kExtremum: return pick(n, n.kids[0], -1, true);
      case ExprOp::kFirst: {
        if (n.kids[1] >= 0) (void)eval(n.kids[1]);
        return pick(n, n.kids[0], n.kids[2], false);
      }
      case ExprOp::kCond: {
        const z3::expr c = as_bool(eval(n.kids[0]));
        path_.push_back(c);
        const Sym a = eval(n.kids[1]);
        path_.back() = !c;
        const Sym b = eval(n.kids[2]);
        path_.pop_back();
        return merge(c, a, b);
      }
    }
    return unknown();
  }

  Sym constant(const ri::Value& v) {
    switch (v.kind) {
      case Kind::kBool: return make_bool(ctx_.bool_val(v.scalar != 0));
      case Kind::kInt: return make_int(num(v.scalar));
      case Kind::kPlayer: return make_int(num(v.scalar), Kind::kPlayer);
      case Kind::kEnum: return make_int(num(v.scalar), Kind::kEnum, v.enum_id);
      case Kind::kNone: return make_int(num(-1), Kind::kNone);
      case Kind::kSet:
        if (v.element == Kind::kPlayer || (v.element == Kind::kNone && v.items.empty())) {
          Sym s;
          s.shape = Sym::Shape::kPlayers;
          for (std::int64_t p = 0; p < seats(); ++p) {
            s.e.push_back(ctx_.bool_val(std::find(v.items.begin(), v.items.end(), p) != v.items.end()));
          }
          return s;
        }
        return unknown();
      default: return unknown();
    }
  }

  std::optional<Sym> bind(ri::Slot slot, const Sym& v) {
    std::optional<Sym> old;
    if (auto it = env_.find(slot); it != env_.end()) old = it->second;
    env_[slot] = v;
    return old;
  }
  void unbind(ri::Slot slot, const std::optional<Sym>& old) {
    if (old) {
      env_[slot] = *old;
    } else {
      env_.erase(slot);
    }
  }

  Sym local(ri::Slot slot) {
    if (auto it = env_.find(slot); it != env_.end()) return it->second;
    const auto s = static_cast<std::size_t>(slot);
    const std::int32_t index = layout_.local_index[s];
    switch (layout_.local_shape[s]) {
      case SlotShape::kScalar: {
        const Kind k = enc_.kinds_.local[s];
        if (k == Kind::kBool) return make_bool(at(index) != num(0));
        return make_int(at(index), k);
      }
      case SlotShape::kCard: {
        Sym c;
        c.shape = Sym::Shape::kCard;
        c.e = {at(index), at(index + 1)};
        c.from_local = slot;
        // A card is in its zone: true of every concrete state.
        assume(z3::implies(c.e[0] >= num(0), c.e[0] < num(layout_.instances) && c.e[1] >= num(0) &&
                                                 c.e[1] < num(classes()) && count_any(c.e[0], c.e[1]) >= num(1)));
        return c;
      }
      default: return unknown();
    }
  }

  Sym var(const ri::ExprNode& n) {
    const ri::VarInfo& info = ir_.vars[static_cast<std::size_t>(n.index)];
    std::vector<std::int32_t> slots;
    const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
    for (std::int32_t p = 0; p < width; ++p) slots.push_back(info.first_slot + p);
    std::optional<z3::expr> player;
    if (info.per_player) player = as_player(eval(n.kids.at(0)), n.span);
    const Kind k = enc_.kinds_.var[static_cast<std::size_t>(info.first_slot)];
    std::vector<z3::expr> values;
    for (const std::int32_t s : slots) {
      const std::int32_t index = layout_.var_index[static_cast<std::size_t>(s)];
      if (index < 0) return unknown();
      values.push_back(at(index));
    }
    const z3::expr v = player ? select(values, *player) : values[0];
    if (k == Kind::kBool) return make_bool(v != num(0));
    return make_int(v, k == Kind::kNone ? Kind::kEnum : k);
  }

  Sym merge(const z3::expr& c, const Sym& a, const Sym& b) {
    using S = Sym::Shape;
    if (a.shape == S::kBool && b.shape == S::kBool) return make_bool(z3::ite(c, a.e[0], b.e[0]), a.varies || b.varies);
    if (a.shape == S::kInt && b.shape == S::kInt) {
      Sym out = make_int(z3::ite(c, a.e[0], b.e[0]), a.kind != Kind::kNone ? a.kind : b.kind,
                         a.enum_id >= 0 ? a.enum_id : b.enum_id);
      out.varies = a.varies || b.varies;
      return out;
    }
    // none and a card
    if (a.shape == S::kCard && b.shape == S::kInt) return merge(c, a, none_card());
    if (a.shape == S::kInt && b.shape == S::kCard) return merge(c, none_card(), b);
    if (a.shape == b.shape && a.e.size() == b.e.size() && a.shape != S::kUnknown) {
      Sym out = a;
      for (std::size_t i = 0; i < a.e.size(); ++i) out.e[i] = z3::ite(c, a.e[i], b.e[i]);
      out.whole = a.whole && b.whole;
      out.from_local = a.from_local == b.from_local ? a.from_local : -1;
      out.varies = a.varies || b.varies;
      return out;
    }
    return unknown();
  }
  Sym none_card() const {
    Sym s;
    s.shape = Sym::Shape::kCard;
    s.e = {num(-1), num(-1)};
    return s;
  }

  Sym binary(const ri::ExprNode& n) {
    const auto op = static_cast<ast::BinaryOp>(n.sub);
    using S = Sym::Shape;
    if (op == ast::BinaryOp::kAnd || op == ast::BinaryOp::kOr) {
      const Sym a = eval(n.kids[0]);
      const z3::expr x = as_bool(a);
      path_.push_back(op == ast::BinaryOp::kAnd ? x : !x);
      const Sym b = eval(n.kids[1]);
      path_.pop_back();
      const z3::expr y = as_bool(b);
      return make_bool(op == ast::BinaryOp::kAnd ? (x && y) : (x || y), a.varies || b.varies);
    }
    const Sym a = eval(n.kids[0]);
    const Sym b = eval(n.kids[1]);
    const bool varies = a.varies || b.varies;
    switch (op) {
      case ast::BinaryOp::kEq:
      case ast::BinaryOp::kNe: {
        const z3::expr eq = equal(a, b);
        return make_bool(op == ast::BinaryOp::kEq ? eq : !eq, varies);
      }
      case ast::BinaryOp::kLt: return make_bool(as_int(a) < as_int(b), varies);
      case ast::BinaryOp::kLe: return make_bool(as_int(a) <= as_int(b), varies);
      case ast::BinaryOp::kGt: return make_bool(as_int(a) > as_int(b), varies);
      case ast::BinaryOp::kGe: return make_bool(as_int(a) >= as_int(b), varies);
      case ast::BinaryOp::kIn:
      case ast::BinaryOp::kNotIn: {
        z3::expr found = fresh_bool();
        if (b.shape == S::kPlayers && a.shape == S::kInt) {
          std::vector<z3::expr> bits = b.e;
          bits.push_back(ctx_.bool_val(false));  // none is in no set
          found = select(bits, z3::ite(a.e[0] < num(0), num(seats()), a.e[0]));
        } else if (b.shape == S::kValues && a.shape == S::kInt) {
          std::vector<z3::expr> bits = b.e;
          bits.push_back(ctx_.bool_val(false));
          found = select(bits, z3::ite(a.e[0] < num(0), num(static_cast<std::int64_t>(b.e.size())), a.e[0]));
        } else if (b.shape == S::kValues && a.shape == S::kBool) {
          found = z3::ite(a.e[0], b.e[1], b.e[0]);
        } else if (b.shape == S::kZone && a.shape == S::kCard) {
          found = a.e[0] == b.e[0];
        }
        return make_bool(op == ast::BinaryOp::kIn ? found : !found, varies);
      }
      case ast::BinaryOp::kAdd:
      case ast::BinaryOp::kSub: {
        if ((a.shape == S::kPlayers && b.shape == S::kPlayers) ||
            (a.shape == S::kValues && b.shape == S::kValues && a.e.size() == b.e.size())) {
          Sym out = a;
          for (std::size_t i = 0; i < a.e.size(); ++i) {
            out.e[i] = op == ast::BinaryOp::kAdd ? (a.e[i] || b.e[i]) : (a.e[i] && !b.e[i]);
          }
          return out;
        }
        if (a.shape == S::kInt || a.shape == S::kBool) {
          Sym out = make_int(op == ast::BinaryOp::kAdd ? as_int(a) + as_int(b) : as_int(a) - as_int(b));
          out.varies = varies;
          return out;
        }
        return unknown();
      }
      case ast::BinaryOp::kMul: {
        const z3::expr x = as_int(a), y = as_int(b);
        // Keep the arithmetic linear: a product of two unknowns is a fresh value.
        const z3::expr xs = x.simplify(), ys = y.simplify();
        if (xs.is_numeral() || ys.is_numeral()) {
          Sym out = make_int(x * y);
          out.varies = varies;
          return out;
        }
        Sym out = make_int(fresh_int());
        out.varies = varies;
        return out;
      }
      case ast::BinaryOp::kDiv:
      case ast::BinaryOp::kMod: {
        const z3::expr y = as_int(b).simplify();
        oblige(ObligationKind::kDefined, y != num(0), n.span, "a divisor other than 0");
        Sym out = make_int(fresh_int());
        if (y.is_numeral() && y.get_numeral_int64() > 0 && op == ast::BinaryOp::kMod) {
          step_.assumptions.push_back(out.e[0] > -y && out.e[0] < y);
        }
        out.varies = varies;
        return out;
      }
      default: return unknown();
    }
  }

  z3::expr equal(const Sym& a, const Sym& b) {
    using S = Sym::Shape;
    if ((a.shape == S::kInt || a.shape == S::kBool) && (b.shape == S::kInt || b.shape == S::kBool)) {
      if (a.shape == S::kBool && b.shape == S::kBool) return a.e[0] == b.e[0];
      return as_int(a) == as_int(b);
    }
    if (a.shape == S::kCard && b.shape == S::kInt) return a.e[0] == num(-1);  // card == none
    if (a.shape == S::kInt && b.shape == S::kCard) return b.e[0] == num(-1);
    if (a.shape == S::kCard && b.shape == S::kCard) {
      // Same zone and class does not make the same card: only different ones are known.
      const z3::expr same = fresh_bool();
      assume(z3::implies(same, a.e[0] == b.e[0] && a.e[1] == b.e[1]));
      return same;
    }
    if (a.shape == b.shape && (a.shape == S::kPlayers || a.shape == S::kValues) && a.e.size() == b.e.size()) {
      z3::expr_vector all(ctx_);
      for (std::size_t i = 0; i < a.e.size(); ++i) all.push_back(a.e[i] == b.e[i]);
      return z3::mk_and(all);
    }
    return fresh_bool();
  }

  // Universe of a set literal's values: players, enum values, bools.
  Sym set_literal(const ri::ExprNode& n) {
    std::vector<Sym> items;
    for (const ri::ExprId k : n.kids) items.push_back(eval(k));
    if (items.empty()) return constant(ri::Value::set(Kind::kNone, {}));
    Kind kind = Kind::kNone;
    std::int32_t enum_id = -1;
    for (const Sym& s : items) {
      if (s.shape == Sym::Shape::kBool) {
        kind = Kind::kBool;
      } else if (s.shape == Sym::Shape::kInt && (s.kind == Kind::kPlayer || s.kind == Kind::kEnum)) {
        kind = s.kind;
        enum_id = std::max(enum_id, s.enum_id);
      } else {
        return unknown();
      }
    }
    std::int64_t size = 0;
    if (kind == Kind::kPlayer) size = seats();
    if (kind == Kind::kBool) size = 2;
    if (kind == Kind::kEnum) {
      if (enum_id < 0) return unknown();
      size = static_cast<std::int64_t>(ir_.enums[static_cast<std::size_t>(enum_id)].values.size());
    }
    Sym s;
    s.shape = kind == Kind::kPlayer ? Sym::Shape::kPlayers : Sym::Shape::kValues;
    s.kind = kind;
    s.enum_id = enum_id;
    for (std::int64_t v = 0; v < size; ++v) {
      z3::expr_vector any(ctx_);
      for (const Sym& item : items) any.push_back(as_int(item) == num(v));
      s.e.push_back(z3::mk_or(any));
    }
    if (kind == Kind::kPlayer) {
      for (const Sym& item : items) {
        oblige(ObligationKind::kDefined, as_int(item) >= num(0), n.span, "a set member, not none");
      }
    }
    return s;
  }

  // The members of a player or value domain, each with the value bound to the slot.
  Sym member(const Sym& domain, std::int64_t v) const {
    if (domain.shape == Sym::Shape::kPlayers) return make_int(num(v), Kind::kPlayer);
    if (domain.kind == Kind::kBool) return make_bool(ctx_.bool_val(v != 0));
    return make_int(num(v), domain.kind, domain.enum_id);
  }
  // A card domain: its zone (or -2) and per-class counts.
  bool card_domain(const Sym& domain, z3::expr& zone, std::vector<z3::expr>& counts) const {
    if (domain.shape == Sym::Shape::kZone) {
      zone = domain.e[0];
      for (std::int32_t k = 0; k < classes(); ++k) counts.push_back(count(domain.e[0], k));
      return true;
    }
    if (domain.shape == Sym::Shape::kCards) {
      zone = domain.e[0];
      counts.assign(domain.e.begin() + 1, domain.e.end());
      return true;
    }
    return false;
  }
  Sym class_card(const z3::expr& zone, std::int32_t cls) const {
    Sym c;
    c.shape = Sym::Shape::kCard;
    c.e = {zone, num(cls)};
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
  Sym for_member(const Sym& domain, std::size_t v, ri::Slot slot, ri::ExprId body) {
    path_.push_back(domain.e[v]);
    const auto old = bind(slot, member(domain, static_cast<std::int64_t>(v)));
    Sym out = eval(body);
    unbind(slot, old);
    path_.pop_back();
    return out;
  }

  Sym comprehension(const ri::ExprNode& n) {
    const Sym domain = eval(n.kids[0]);
    if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
      Sym out = domain;
      for (std::size_t v = 0; v < domain.e.size(); ++v) {
        out.e[v] = domain.e[v] && as_bool(for_member(domain, v, n.index, n.kids[1]));
      }
      return out;
    }
    z3::expr zone = num(-1);
    std::vector<z3::expr> counts;
    if (!card_domain(domain, zone, counts)) return unknown();
    Sym out;
    out.shape = Sym::Shape::kCards;
    out.e.push_back(zone);
    bool whole = true;
    for (std::int32_t k = 0; k < classes(); ++k) {
      const auto size = filtered_count(n.index, n.kids[1], zone, k, counts[static_cast<std::size_t>(k)]);
      whole = whole && size.second;
      out.e.push_back(size.first);
    }
    // A filtered set of every card: its cards come from any zone; not kept.
    if (zone.simplify().is_numeral() && zone.simplify().get_numeral_int64() == -2 && !whole) return unknown();
    out.whole = whole && domain.whole;
    return out;
  }

  // How many cards of class k of a zone pass a filter; second: all of them, for certain.
  std::pair<z3::expr, bool> filtered_count(ri::Slot slot, ri::ExprId filter, const z3::expr& zone, std::int32_t k,
                                           const z3::expr& available) {
    const auto old = bind(slot, class_card(zone, k));
    path_.push_back(available > num(0));
    const Sym f = eval(filter);
    path_.pop_back();
    unbind(slot, old);
    const z3::expr r = as_bool(f).simplify();
    if (r.is_false()) return {num(0), false};
    if (!f.varies) {
      if (r.is_true()) return {available, true};
      return {z3::ite(r, available, num(0)), false};
    }
    z3::expr some = fresh_int();
    step_.assumptions.push_back(some >= num(0) && some <= available);
    return {some, false};
  }

  Sym quantifier(const ri::ExprNode& n) {
    const auto q = static_cast<ast::QuantKind>(n.sub);
    const Sym domain = eval(n.kids[0]);
    if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
      z3::expr_vector parts(ctx_);
      z3::expr total = num(0);
      bool varies = false;
      for (std::size_t v = 0; v < domain.e.size(); ++v) {
        const Sym body = for_member(domain, v, n.index, n.kids[1]);
        varies = varies || body.varies;
        switch (q) {
          case ast::QuantKind::kExists: parts.push_back(domain.e[v] && as_bool(body)); break;
          case ast::QuantKind::kAll: parts.push_back(z3::implies(domain.e[v], as_bool(body))); break;
          case ast::QuantKind::kCount: total = total + z3::ite(domain.e[v] && as_bool(body), num(1), num(0)); break;
          case ast::QuantKind::kSum: total = total + z3::ite(domain.e[v], as_int(body), num(0)); break;
        }
      }
      if (q == ast::QuantKind::kExists) return make_bool(parts.empty() ? ctx_.bool_val(false) : z3::mk_or(parts), varies);
      if (q == ast::QuantKind::kAll) return make_bool(parts.empty() ? yes() : z3::mk_and(parts), varies);
      Sym out = make_int(total);
      out.varies = varies;
      return out;
    }
    z3::expr zone = num(-1);
    std::vector<z3::expr> counts;
    if (!card_domain(domain, zone, counts)) return q == ast::QuantKind::kExists || q == ast::QuantKind::kAll
                                                      ? make_bool(fresh_bool())
                                                      : make_int(fresh_int());
    if (q == ast::QuantKind::kSum) return make_int(fresh_int());
    z3::expr any = ctx_.bool_val(false);
    z3::expr size = num(0);
    for (std::int32_t k = 0; k < classes(); ++k) {
      const auto passing = filtered_count(n.index, n.kids[1], zone, k, counts[static_cast<std::size_t>(k)]);
      any = any || passing.first > num(0);
      size = size + passing.first;
    }
    z3::expr all_cards = num(0);
    for (const z3::expr& c : counts) all_cards = all_cards + c;
    switch (q) {
      case ast::QuantKind::kExists: return make_bool(any);
      case ast::QuantKind::kAll: return make_bool(size == all_cards);
      default: return make_int(size);
    }
  }

  // max/min/first: an element of the domain that passes the filter (which one is not kept).
  Sym pick(const ri::ExprNode& n, ri::ExprId domain_id, ri::ExprId filter, bool extremum) {
    const Sym domain = eval(domain_id);
    if (domain.shape == Sym::Shape::kPlayers || domain.shape == Sym::Shape::kValues) {
      std::vector<z3::expr> ok;
      for (std::size_t v = 0; v < domain.e.size(); ++v) {
        path_.push_back(domain.e[v]);
        const auto old = bind(n.index, member(domain, static_cast<std::int64_t>(v)));
        z3::expr pass = domain.e[v];
        if (filter >= 0) pass = pass && as_bool(eval(filter));
        if (extremum) {
          for (std::size_t k = 1; k < n.kids.size(); ++k) (void)eval(n.kids[k]);
        }
        unbind(n.index, old);
        path_.pop_back();
        ok.push_back(pass);
      }
      z3::expr_vector any(ctx_);
      for (const z3::expr& e : ok) any.push_back(e);
      oblige(ObligationKind::kDefined, any.empty() ? ctx_.bool_val(false) : z3::mk_or(any), n.span,
             extremum ? "max/min over a non-empty set" : "'first' finds an element");
      const z3::expr chosen = fresh_in(0, static_cast<std::int64_t>(domain.e.size()) - 1);
      require(select(ok, chosen));
      Sym out = member(domain, 0);
      out.e[0] = domain.kind == Kind::kBool && domain.shape == Sym::Shape::kValues ? chosen != num(0) : chosen;
      return out;
    }
    z3::expr zone = num(-1);
    std::vector<z3::expr> counts;
    if (!card_domain(domain, zone, counts)) return unknown();
    std::vector<z3::expr> passing;
    z3::expr any = ctx_.bool_val(false);
    for (std::int32_t k = 0; k < classes(); ++k) {
      z3::expr c = counts[static_cast<std::size_t>(k)];
      if (filter >= 0) c = filtered_count(n.index, filter, zone, k, c).first;
      passing.push_back(c);
      any = any || c > num(0);
    }
    oblige(ObligationKind::kDefined, any, n.span, extremum ? "max/min over a non-empty set" : "'first' finds a card");
    Sym card = some_card(zone, passing);
    if (zone.simplify().is_numeral() && zone.simplify().get_numeral_int64() == -2) {
      card.e[0] = fresh_in(0, layout_.instances - 1);
    }
    return card;
  }

  Sym builtin(const ri::ExprNode& n) {
    const auto b = static_cast<Builtin>(n.sub);
    switch (b) {
      case Builtin::kCount:
      case Builtin::kEmpty: {
        counting_ = n.kids[0];
        const Sym v = eval(n.kids[0]);
        counting_ = -1;
        z3::expr size = num(0);
        using S = Sym::Shape;
        if (v.shape == S::kZone) {
          size = total(v.e[0]);
        } else if (v.shape == S::kCards) {
          for (std::size_t i = 1; i < v.e.size(); ++i) size = size + v.e[i];
        } else if (v.shape == S::kPlayers || v.shape == S::kValues) {
          for (const z3::expr& bit : v.e) size = size + z3::ite(bit, num(1), num(0));
        } else {
          size = fresh_int();
          step_.assumptions.push_back(size >= num(0));
        }
        if (b == Builtin::kEmpty) return make_bool(size == num(0), v.varies);
        Sym out = make_int(size);
        out.varies = v.varies;
        return out;
      }
      case Builtin::kTop:
      case Builtin::kBottom: {
        const Sym z = eval(n.kids[0]);
        if (z.shape != Sym::Shape::kZone) return unknown();
        std::vector<z3::expr> counts;
        for (std::int32_t k = 0; k < classes(); ++k) counts.push_back(count(z.e[0], k));
        const std::string name = b == Builtin::kTop ? "top" : "bottom";
        if (n.kids.size() == 2) {
          const z3::expr k = as_int(eval(n.kids[1]));
          oblige(ObligationKind::kTakeFromEmpty, k >= num(0) && k <= total(z.e[0]), n.span,
                 name + "(zone, k) of a zone with at least k cards");
          Sym out;
          out.shape = Sym::Shape::kCards;
          out.e.push_back(z.e[0]);
          z3::expr sum = num(0);
          for (std::int32_t c = 0; c < classes(); ++c) {
            const z3::expr part = fresh_int();
            step_.assumptions.push_back(part >= num(0) && part <= counts[static_cast<std::size_t>(c)]);
            sum = sum + part;
            out.e.push_back(part);
          }
          require(sum == k);
          return out;
        }
        oblige(ObligationKind::kTakeFromEmpty, total(z.e[0]) > num(0), n.span, name + "() of a zone that has a card");
        return some_card(z.e[0], counts);
      }
      case Builtin::kRank:
      case Builtin::kSuit:
      case Builtin::kColor:
      case Builtin::kKind: {
        const Sym c = eval(n.kids[0]);
        const int attribute = b == Builtin::kRank ? 0 : b == Builtin::kSuit ? 1 : b == Builtin::kColor ? 2 : 3;
        const Kind kind = attribute == 0 ? Kind::kInt : Kind::kEnum;
        const std::int32_t enum_id = attribute == 0 ? -1 : attribute - 1;
        if (c.shape != Sym::Shape::kCard) {
          Sym out = make_int(fresh_int(), kind, enum_id);
          out.varies = true;
          return out;
        }
        oblige(ObligationKind::kDefined, c.e[0] >= num(0), n.span, "a card, not none");
        std::vector<z3::expr> per;
        bool varies = false;
        for (std::int32_t k = 0; k < classes(); ++k) {
          const auto& v = enc_.class_attribute_[static_cast<std::size_t>(k)][static_cast<std::size_t>(attribute)];
          if (v) {
            per.push_back(num(*v));
          } else {
            per.push_back(fresh_int());
            varies = true;
          }
        }
        Sym out = make_int(select(per, c.e[1]), kind, enum_id);
        out.varies = varies;
        return out;
      }
      case Builtin::kFaceUp:
      case Builtin::kFaceDown: {
        const Sym c = eval(n.kids[0]);
        if (c.shape == Sym::Shape::kCard) oblige(ObligationKind::kDefined, c.e[0] >= num(0), n.span, "a card, not none");
        return make_bool(fresh_bool(), true);
      }
      case Builtin::kIndex: {
        const Sym c = eval(n.kids[0]);
        if (c.shape == Sym::Shape::kCard) oblige(ObligationKind::kDefined, c.e[0] >= num(0), n.span, "a card, not none");
        Sym out = make_int(fresh_int());
        step_.assumptions.push_back(out.e[0] >= num(0));
        out.varies = true;
        return out;
      }
      case Builtin::kLeftOf:
      case Builtin::kRightOf:
      case Builtin::kOpposite: {
        const z3::expr p = as_player(eval(n.kids[0]), n.span);
        std::int64_t offset = b == Builtin::kLeftOf ? 1 : b == Builtin::kRightOf ? seats() - 1 : seats() / 2;
        if (b == Builtin::kOpposite) {
          oblige(ObligationKind::kDefined, ctx_.bool_val(seats() % 2 == 0), n.span, "an even number of seats");
        }
        return make_int(player_at(modulo(seat_of(p) + num(offset))), Kind::kPlayer);
      }
      case Builtin::kDistance: {
        const z3::expr a = as_player(eval(n.kids[0]), n.span);
        const z3::expr c = as_player(eval(n.kids[1]), n.span);
        return make_int(modulo(seat_of(c) - seat_of(a)));
      }
      case Builtin::kSubsets: {
        const Sym set = eval(n.kids[0]);
        const z3::expr lo = as_int(eval(n.kids[1]));
        const z3::expr hi = as_int(eval(n.kids[2]));
        if (set.shape != Sym::Shape::kPlayers) return unknown();
        Sym out;
        out.shape = Sym::Shape::kFamily;
        out.e = set.e;
        out.e.push_back(lo);
        out.e.push_back(hi);
        return out;
      }
      case Builtin::kMax:
      case Builtin::kMin: {
        const z3::expr x = as_int(eval(n.kids[0])), y = as_int(eval(n.kids[1]));
        return make_int(b == Builtin::kMax ? z3::ite(x >= y, x, y) : z3::ite(x <= y, x, y));
      }
    }
    return unknown();
  }

  // ---- effects ----

  // Moves cards to `target` and keeps the zones of card locals up to date.
  void move(const Sym& cards, const z3::expr& target, const grammar::SourceSpan& span) {
    using S = Sym::Shape;
    const std::int32_t K = classes();
    if (cards.shape == S::kCard) {
      oblige(ObligationKind::kDefined, cards.e[0] >= num(0), span, "a card to move, not none");
      require(cards.e[0] < num(layout_.instances) && cards.e[1] >= num(0) && cards.e[1] < num(K));
      for (std::int32_t i = 0; i < layout_.instances; ++i) {
        for (std::int32_t k = 0; k < K; ++k) {
          const std::int32_t index = layout_.count_index(i, k);
          const z3::expr is_k = cards.e[1] == num(k);
          write(index, at(index) - z3::ite(cards.e[0] == num(i) && is_k, num(1), num(0)) +
                           z3::ite(target == num(i) && is_k, num(1), num(0)));
        }
      }
      follow_locals(cards.from_local, [&](const z3::expr& zone, const z3::expr& cls, const z3::expr& moved) {
        assume(z3::implies(moved, zone == cards.e[0] && cls == cards.e[1]));
      });
      return;
    }
    Sym set = cards;
    if (cards.shape == S::kZone) {
      set.shape = S::kCards;
      set.whole = true;
      set.e = {cards.e[0]};
      for (std::int32_t k = 0; k < K; ++k) set.e.push_back(count(cards.e[0], k));
    }
    if (set.shape != S::kCards) {
      // Cards the abstraction cannot follow: any redistribution of the same cards.
      for (std::int32_t k = 0; k < K; ++k) {
        z3::expr before = num(0), after = num(0);
        for (std::int32_t i = 0; i < layout_.instances; ++i) {
          const std::int32_t index = layout_.count_index(i, k);
          const z3::expr v = fresh_int();
          step_.assumptions.push_back(v >= num(0));
          before = before + at(index);
          after = after + v;
          write(index, v);
        }
        step_.assumptions.push_back(before == after);
      }
      follow_locals(-1, [&](const z3::expr&, const z3::expr&, const z3::expr&) {});
      return;
    }
    const z3::expr zone = set.e[0];
    const bool everywhere = zone.simplify().is_numeral() && zone.simplify().get_numeral_int64() == -2;
    for (std::int32_t i = 0; i < layout_.instances; ++i) {
      for (std::int32_t k = 0; k < K; ++k) {
        const std::int32_t index = layout_.count_index(i, k);
        const z3::expr size = set.e[static_cast<std::size_t>(k) + 1];
        if (everywhere) {
          write(index, z3::ite(target == num(i), size, num(0)));
        } else {
          write(index, at(index) - z3::ite(zone == num(i), size, num(0)) + z3::ite(target == num(i), size, num(0)));
        }
      }
    }
    std::vector<z3::expr> sizes(set.e.begin() + 1, set.e.end());
    follow_locals(-1, [&](const z3::expr& lzone, const z3::expr& cls, const z3::expr& moved) {
      if (everywhere) {
        assume(z3::implies(lzone >= num(0), moved));
        return;
      }
      const z3::expr taken = select(sizes, cls);
      assume(z3::implies(moved, lzone == zone && taken > num(0)));
      assume(z3::implies(lzone == zone && cls >= num(0) && taken == count_any(zone, cls) && taken > num(0), moved));
    });
  }

  // Every card local may have been among the moved cards: `constrain` says when; the
  // local `moved_local` itself certainly was.
  template <typename F>
  void follow_locals(ri::Slot moved_local, F constrain, const z3::expr* target = nullptr) {
    (void)target;
    for (std::size_t s = 0; s < layout_.local_shape.size(); ++s) {
      if (layout_.local_shape[s] != SlotShape::kCard) continue;
      const std::int32_t index = layout_.local_index[s];
      if (static_cast<ri::Slot>(s) == moved_local) {
        write(index, move_target_);
        continue;
      }
      const z3::expr moved = fresh_bool();
      assume(z3::implies(moved, at(index) >= num(0)));
      constrain(at(index), at(index + 1), moved);
      write(index, z3::ite(moved, move_target_, at(index)));
    }
  }

  void set_var(const ri::Instr& in) {
    const ri::VarInfo& info = ir_.vars[static_cast<std::size_t>(in.a)];
    std::optional<z3::expr> player;
    if (info.per_player) player = as_player(eval(in.b), in.span);
    const Sym v = eval(in.c);
    if ((in.flags & ri::kDeferred) != 0) return;  // applied (as any value) at the end of the block
    const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
    for (std::int32_t p = 0; p < width; ++p) {
      const std::int32_t index = layout_.var_index[static_cast<std::size_t>(info.first_slot + p)];
      if (index < 0) continue;
      z3::expr value = in.code == OpCode::kAdd ? at(index) + as_int(v) : as_int(v);
      if (player) value = z3::ite(*player == num(p), value, at(index));
      write(index, value);
    }
  }

  void set_local(ri::Slot slot, const Sym& v) {
    const auto s = static_cast<std::size_t>(slot);
    const std::int32_t index = layout_.local_index[s];
    switch (layout_.local_shape[s]) {
      case SlotShape::kScalar: write(index, as_int(v)); break;
      case SlotShape::kCard:
        if (v.shape == Sym::Shape::kCard) {
          write(index, v.e[0]);
          write(index + 1, v.e[1]);
        } else {
          write(index, fresh_in(-1, layout_.instances - 1));
          write(index + 1, fresh_in(-1, classes() - 1));
        }
        break;
      default: break;
    }
  }

  // A value picked from a choice's domain, with the filter; `nonempty` says it had one.
  Sym choose_from(const Sym& domain, ri::Slot slot, ri::ExprId filter, z3::expr& nonempty) {
    using S = Sym::Shape;
    if (domain.shape == S::kPlayers || domain.shape == S::kValues) {
      std::vector<z3::expr> ok;
      for (std::size_t v = 0; v < domain.e.size(); ++v) {
        z3::expr pass = domain.e[v];
        if (filter >= 0) pass = pass && as_bool(for_member(domain, v, slot, filter));
        ok.push_back(pass);
      }
      z3::expr_vector any(ctx_);
      for (const z3::expr& e : ok) any.push_back(e);
      nonempty = any.empty() ? ctx_.bool_val(false) : z3::mk_or(any);
      const z3::expr chosen = fresh_in(0, static_cast<std::int64_t>(domain.e.size()) - 1);
      require(select(ok, chosen));
      Sym out = member(domain, 0);
      out.e[0] = domain.kind == Kind::kBool && domain.shape == S::kValues ? chosen != num(0) : chosen;
      return out;
    }
    if (domain.shape == S::kFamily) {
      const std::size_t n = domain.e.size() - 2;
      z3::expr base = num(0);
      for (std::size_t i = 0; i < n; ++i) base = base + z3::ite(domain.e[i], num(1), num(0));
      const z3::expr lo = domain.e[n], hi = domain.e[n + 1];
      const z3::expr low = z3::ite(lo > num(0), lo, num(0));
      nonempty = low <= hi && low <= base;
      return unknown();
    }
    z3::expr zone = num(-1);
    std::vector<z3::expr> counts;
    if (!card_domain(domain, zone, counts)) {
      nonempty = fresh_bool();
      return unknown();
    }
    std::vector<z3::expr> passing;
    z3::expr any = ctx_.bool_val(false);
    for (std::int32_t k = 0; k < classes(); ++k) {
      z3::expr c = counts[static_cast<std::size_t>(k)];
      if (filter >= 0) c = filtered_count(slot, filter, zone, k, c).first;
      passing.push_back(c);
      any = any || c > num(0);
    }
    nonempty = any;
    Sym card;
    card.shape = S::kCard;
    const z3::expr cls = fresh_in(0, classes() - 1);
    require(select(passing, cls) > num(0));
    card.e = {zone, cls};
    return card;
  }

  // ---- instructions ----

  void run(std::int32_t pc) {
    const ri::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
    auto to = [&](const z3::expr& g, std::int32_t target) { step_.successors.push_back(Successor{g, target}); };
    switch (in.code) {
      case OpCode::kLet: set_local(in.a, eval(in.b)); to(yes(), pc + 1); break;
      case OpCode::kChoose: {
        const Sym domain = eval(in.b);
        (void)as_player(eval(in.c), in.span);
        z3::expr nonempty = yes();
        const Sym chosen = choose_from(domain, in.a, in.d, nonempty);
        oblige(ObligationKind::kLegalChoice, nonempty, in.span, "a legal choice");
        require(nonempty);
        set_local(in.a, chosen);
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kMove: {
        const Sym cards = eval(in.a);
        const Sym target = eval(in.b);
        move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
        move(cards, move_target_, in.span);
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kDeal: {
        const z3::expr n = as_int(eval(in.a));
        const Sym from = eval(in.b);
        const Sym target = eval(in.c);
        const z3::expr src = from.shape == Sym::Shape::kZone ? from.e[0] : fresh_in(0, layout_.instances - 1);
        move_target_ = target.shape == Sym::Shape::kZone ? target.e[0] : fresh_in(0, layout_.instances - 1);
        oblige(ObligationKind::kTakeFromEmpty, n >= num(0) && n <= total(src), in.span, "a deal from a zone that holds the cards");
        require(n >= num(0) && n <= total(src));
        Sym dealt;
        dealt.shape = Sym::Shape::kCards;
        dealt.e.push_back(src);
        z3::expr sum = num(0);
        for (std::int32_t k = 0; k < classes(); ++k) {
          const z3::expr part = fresh_int();
          step_.assumptions.push_back(part >= num(0) && part <= count(src, k));
          sum = sum + part;
          dealt.e.push_back(part);
        }
        require(sum == n);
        move(dealt, move_target_, in.span);
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kShuffle:
      case OpCode::kFlip: (void)eval(in.a); to(yes(), pc + 1); break;
      case OpCode::kSet:
      case OpCode::kAdd: set_var(in); to(yes(), pc + 1); break;
      case OpCode::kSwapSeats: {
        const z3::expr a = as_player(eval(in.a), in.span);
        const z3::expr b = as_player(eval(in.b), in.span);
        if (layout_.seats_move) {
          const z3::expr sa = seat_of(a), sb = seat_of(b);
          for (std::int64_t p = 0; p < seats(); ++p) {
            const std::int32_t index = layout_.seat_index[static_cast<std::size_t>(p)];
            write(index, z3::ite(a == num(p), sb, z3::ite(b == num(p), sa, at(index))));
          }
        }
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kEndGame:
        if (in.a >= 0) (void)eval(in.a);
        break;
      case OpCode::kJump: to(yes(), in.target); break;
      case OpCode::kJumpIfFalse: {
        const z3::expr c = as_bool(eval(in.a));
        to(c, pc + 1);
        to(!c, in.target);
        break;
      }
      case OpCode::kRepeatInit: {
        const z3::expr n = as_int(eval(in.b));
        oblige(ObligationKind::kDefined, n >= num(0), in.span, "a repeat count of at least 0");
        const std::int32_t index = layout_.local_index[static_cast<std::size_t>(in.a)];
        if (index >= 0) write(index, n);
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kRepeatNext: {
        const std::int32_t index = layout_.local_index[static_cast<std::size_t>(in.a)];
        const z3::expr counter = index >= 0 ? at(index) : fresh_int();
        if (index >= 0) write(index, z3::ite(counter > num(0), counter - num(1), counter));
        to(counter > num(0), pc + 1);
        to(counter <= num(0), in.target);
        break;
      }
      case OpCode::kForInit: {
        const Sym domain = eval(in.b);
        if (in.d >= 0) (void)as_player(eval(in.d), in.span);
        const auto s = static_cast<std::size_t>(in.a);
        const std::int32_t index = layout_.local_index[s];
        if (layout_.local_shape[s] == SlotShape::kPlayerList) {
          std::vector<z3::expr> members;
          for (std::int64_t p = 0; p < seats(); ++p) {
            const z3::expr member = domain.shape == Sym::Shape::kPlayers ? domain.e[static_cast<std::size_t>(p)] : fresh_bool();
            members.push_back(member);
            write(index + static_cast<std::int32_t>(p), z3::ite(member, num(1), num(0)));
          }
          // The walk starts at the first member round the table from the start seat (seat 0
          // without an order).
          const std::int32_t direction = layout_.list_direction[s];
          z3::expr from = num(0);
          if (in.d >= 0) from = seat_of(as_player(eval(in.d), in.span));
          z3::expr first = from;
          for (std::int64_t i = seats() - 1; i >= 0; --i) {
            const z3::expr seat = modulo(from + num(direction * i));
            first = z3::ite(select(members, player_at(seat)), seat, first);
          }
          write(index + static_cast<std::int32_t>(seats()), direction == 0 ? fresh_in(0, seats() - 1) : first);
        } else if (layout_.local_shape[s] == SlotShape::kCountList) {
          write(index, size_of(domain));
        }
        const std::int32_t position = layout_.local_index[static_cast<std::size_t>(in.e)];
        if (position >= 0) write(position, num(0));
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kForNext: {
        const auto s = static_cast<std::size_t>(in.a);
        const std::int32_t index = layout_.local_index[s];
        const std::int32_t position = layout_.local_index[static_cast<std::size_t>(in.e)];
        z3::expr more = fresh_bool();
        if (layout_.local_shape[s] == SlotShape::kPlayerList) {
          z3::expr left = num(0);
          std::vector<z3::expr> bits;
          for (std::int64_t p = 0; p < seats(); ++p) {
            bits.push_back(at(index + static_cast<std::int32_t>(p)) != num(0));
            left = left + at(index + static_cast<std::int32_t>(p));
          }
          more = left > num(0);
          const std::int32_t direction = layout_.list_direction[s];
          z3::expr chosen = fresh_in(0, seats() - 1);
          if (direction == 0) {
            // Seats move inside the loop: the next player is any one still to visit.
            step_.assumptions.push_back(z3::implies(more, select(bits, chosen)));
          } else {
            // The first player still to visit round the table from the start seat.
            const z3::expr start = at(index + static_cast<std::int32_t>(seats()));
            z3::expr next = num(0);
            for (std::int64_t i = seats() - 1; i >= 0; --i) {
              const z3::expr q = player_at(modulo(start + num(direction * i)));
              next = z3::ite(select(bits, q), q, next);
            }
            chosen = next;
          }
          for (std::int64_t p = 0; p < seats(); ++p) {
            const std::int32_t bit = index + static_cast<std::int32_t>(p);
            write(bit, z3::ite(more && chosen == num(p), num(0), at(bit)));
          }
          set_local(in.b, make_int(chosen, Kind::kPlayer));
        } else if (layout_.local_shape[s] == SlotShape::kCountList) {
          more = at(index) > num(0);
          write(index, z3::ite(more, at(index) - num(1), at(index)));
          set_local(in.b, unknown());
        } else {
          set_local(in.b, unknown());
        }
        if (position >= 0) write(position, z3::ite(more, at(position) + num(1), at(position)));
        to(more, pc + 1);
        to(!more, in.target);
        break;
      }
      case OpCode::kBeginSecret: to(yes(), pc + 1); break;
      case OpCode::kEndSecret: {
        const auto it = enc_.deferred_vars_.find(pc);
        if (it != enc_.deferred_vars_.end()) {
          for (const std::int32_t v : it->second) {
            const ri::VarInfo& info = ir_.vars[static_cast<std::size_t>(v)];
            const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
            for (std::int32_t p = 0; p < width; ++p) {
              const std::int32_t index = layout_.var_index[static_cast<std::size_t>(info.first_slot + p)];
              if (index >= 0) write(index, fresh_int());
            }
          }
        }
        to(yes(), pc + 1);
        break;
      }
      case OpCode::kFire: to(yes(), pc + 1); break;
      case OpCode::kRoundStart: {
        for (const ri::VarInfo& v : ir_.vars) {
          if (v.init < 0 || !v.per_round) continue;
          const std::int32_t width = v.per_player ? static_cast<std::int32_t>(seats()) : 1;
          for (std::int32_t p = 0; p < width; ++p) {
            std::optional<Sym> old;
            if (v.per_player) old = bind(v.param, make_int(num(p), Kind::kPlayer));
            const Sym value = eval(v.init);
            if (v.per_player) unbind(v.param, old);
            const std::int32_t index = layout_.var_index[static_cast<std::size_t>(v.first_slot + p)];
            if (index >= 0) write(index, as_int(value));
          }
        }
        to(yes(), pc + 1);
        break;
      }
    }
  }

  z3::expr size_of(const Sym& v) {
    using S = Sym::Shape;
    if (v.shape == S::kZone) return total(v.e[0]);
    if (v.shape == S::kCards) {
      z3::expr t = num(0);
      for (std::size_t i = 1; i < v.e.size(); ++i) t = t + v.e[i];
      return t;
    }
    if (v.shape == S::kPlayers || v.shape == S::kValues) {
      z3::expr t = num(0);
      for (const z3::expr& bit : v.e) t = t + z3::ite(bit, num(1), num(0));
      return t;
    }
    const z3::expr t = fresh_int();
    step_.assumptions.push_back(t >= num(0));
    return t;
  }

  ChoiceReads choice_reads(std::int32_t pc) {
    const ri::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
    ChoiceReads out{as_int(eval(in.c)), {}};
    reads_ = &out.zones;
    (void)eval(in.b);
    if (in.d >= 0) {
      const auto old = bind(in.a, unknown());
      (void)eval(in.d);
      unbind(in.a, old);
    }
    reads_ = nullptr;
    return out;
  }

  std::optional<std::vector<z3::expr>> players(ri::ExprId id) {
    const Sym v = eval(id);
    if (v.shape != Sym::Shape::kPlayers) return std::nullopt;
    return v.e;
  }

  z3::expr value(ri::ExprId id) {
    const Sym v = eval(id);
    if (v.shape == Sym::Shape::kBool) return v.e[0];
    return as_int(v);
  }

 private:
  const Encoder& enc_;
  z3::context& ctx_;
  const ri::Ir& ir_;
  const Layout& layout_;
  const std::vector<z3::expr>& cur_;
  std::string prefix_;
  Step& step_;
  std::vector<z3::expr> path_;
  std::unordered_map<ri::Slot, Sym> env_;
  int fresh_ = 0;
  z3::expr move_target_ = ctx_.int_val(0);
  std::vector<ZoneRead>* reads_ = nullptr;
  ri::ExprId counting_ = -1;  // the argument of count/empty being evaluated
};

Encoder::Encoder(z3::context& ctx, const ri::Ir& ir, const Setting& setting, const CardClasses& classes,
                 const Layout& layout, const SlotKinds& kinds)
    : ctx_(ctx), ir_(ir), setting_(setting), classes_(classes), layout_(layout), kinds_(kinds) {
  for (std::int32_t k = 0; k < classes.count(); ++k) {
    std::array<std::optional<std::int64_t>, 4> shared;
    bool first = true;
    for (std::size_t c = 0; c < setting.cards.size(); ++c) {
      if (classes.class_of[c] != k) continue;
      const ri::CardInfo& info = setting.cards[c];
      const std::array<std::int64_t, 4> values{info.rank, info.suit, info.color, info.kind};
      for (std::size_t a = 0; a < 4; ++a) {
        if (first) {
          shared[a] = values[a];
        } else if (shared[a] && *shared[a] != values[a]) {
          shared[a].reset();
        }
      }
      first = false;
    }
    class_attribute_.push_back(shared);
  }
  // Writes held back in a simultaneous block are applied at its end.
  std::vector<std::int32_t> open;
  std::vector<std::int32_t> written;
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ri::Instr& in = ir.code[pc];
    if (in.code == OpCode::kBeginSecret) written.clear();
    if ((in.code == OpCode::kSet || in.code == OpCode::kAdd) && (in.flags & ri::kDeferred) != 0) written.push_back(in.a);
    if (in.code == OpCode::kEndSecret) deferred_vars_[static_cast<std::int32_t>(pc)] = written;
  }
}


std::vector<z3::expr> Encoder::state_vars(const std::string& prefix) const {
  std::vector<z3::expr> out;
  for (std::int32_t i = 0; i < layout_.size(); ++i) out.push_back(ctx_.int_const(fmt::format("{}{}", prefix, i).c_str()));
  complete(out);
  return out;
}

void Encoder::complete(std::vector<z3::expr>& state, std::vector<bool>* written) const {
  for (std::size_t i = 0; i < layout_.derived.size(); ++i) {
    const Derived& d = layout_.derived[i];
    const auto at = static_cast<std::size_t>(layout_.base_size) + i;
    const z3::expr& player = state[static_cast<std::size_t>(d.player_dim)];
    bool changed = written != nullptr && (*written)[static_cast<std::size_t>(d.player_dim)];
    z3::expr value = ctx_.int_val(0);
    for (std::int32_t p = layout_.seats; p-- > 0;) {
      z3::expr v = ctx_.int_val(0);
      if (d.zone >= 0) {
        const std::int32_t instance = ir_.zones[static_cast<std::size_t>(d.zone)].first_instance + p;
        for (std::int32_t k = 0; k < layout_.classes; ++k) {
          const auto index = static_cast<std::size_t>(layout_.count_index(instance, k));
          v = k == 0 ? state[index] : v + state[index];
          if (written != nullptr) changed = changed || (*written)[index];
        }
      } else {
        const ri::VarInfo& info = ir_.vars[static_cast<std::size_t>(d.var)];
        const auto index = static_cast<std::size_t>(layout_.var_index[static_cast<std::size_t>(info.first_slot + p)]);
        v = state[index];
        if (written != nullptr) changed = changed || (*written)[index];
      }
      value = z3::ite(player == ctx_.int_val(p), v, value);
    }
    state[at] = value;
    if (written != nullptr) (*written)[at] = changed;
  }
}

std::vector<z3::expr> Encoder::constants(const std::vector<std::int64_t>& values) const {
  std::vector<z3::expr> out;
  for (const std::int64_t v : values) out.push_back(ctx_.int_val(static_cast<int64_t>(v)));
  return out;
}

Step Encoder::step(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix) {
  Step out;
  Run run(*this, state, prefix, out);
  run.run(pc);
  complete(out.next, &out.written);
  return out;
}

z3::expr Encoder::value(ri::ExprId id, const std::vector<z3::expr>& state, const std::string& prefix, Step& step) {
  Run run(*this, state, prefix, step);
  return run.value(id);
}

ChoiceReads Encoder::choice_reads(std::int32_t pc, const std::vector<z3::expr>& state, const std::string& prefix,
                                  Step& step) {
  Run run(*this, state, prefix, step);
  return run.choice_reads(pc);
}

std::optional<std::vector<z3::expr>> Encoder::players(ri::ExprId id, const std::vector<z3::expr>& state,
                                                      const std::string& prefix, Step& step) {
  Run run(*this, state, prefix, step);
  return run.players(id);
}

}  // namespace rulebook::verifier
