// Expressions on a symbolic state: every expression kind and builtin function, with the
// conditions under which the interpreter would fault.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "symbolic_run.hpp"

namespace rulebook::verifier {

Encoder::Sym Encoder::Run::eval(ir::ExprId id) {
  if (const auto known = class_predicate(id)) return make_bool(ctx_.bool_val(*known));
  const ir::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
  switch (n.op) {
    case ExprOp::kConst: return constant(n.constant);
    case ExprOp::kLocal: return local(n.index);
    case ExprOp::kVar: return var(n);
    case ExprOp::kOption: return constant(enc_.setting_.options[static_cast<std::size_t>(n.index)]);
    case ExprOp::kZone: {
      const ir::ZoneInfo& z = ir_.zones[static_cast<std::size_t>(n.index)];
      const bool counted = counting_ == id;
      Sym s;
      s.shape = Sym::Shape::kZone;
      if (z.per_player) {
        s.e.push_back(num(z.first_instance) + as_player(eval(n.kids[0]), ir_.span_of(n)));
        enc_.zone_range_.try_emplace(s.e[0].id(), Encoder::ZoneRange{s.e[0], z.first_instance,
                                                                     z.first_instance + static_cast<std::int32_t>(seats()) - 1});
      } else {
        s.e.push_back(num(z.first_instance));
      }
      if (reads_ != nullptr) reads_->push_back(ZoneRead{s.e[0], guard(), counted, ir_.span_of(n)});
      return s;
    }
    case ExprOp::kSeat: {
      const z3::expr seat = as_int(eval(n.kids[0]));
      oblige(ir::FaultKind::kNoSeat, seat >= num(0) && seat < num(seats()), ir_.span_of(n), "a seat number");
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
      s.e.push_back(num(kEveryZone));
      for (std::int32_t k = 0; k < classes(); ++k) s.e.push_back(num(enc_.classes_.size[static_cast<std::size_t>(k)]));
      return s;
    }
    case ExprOp::kNumPlayers: return make_int(num(enc_.setting_.players));
    case ExprOp::kNumSeats: return make_int(num(seats()));
    case ExprOp::kBuiltin: return builtin(n);
    case ExprOp::kDef: {
      const ir::DefInfo& def = ir_.defs[static_cast<std::size_t>(n.index)];
      std::vector<Sym> args;
      for (const ir::ExprId k : n.kids) args.push_back(eval(k));
      std::vector<std::pair<ir::Slot, std::optional<Sym>>> saved;
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
      return checked(out, ir_.span_of(n));
    }
    case ExprOp::kBinary: return binary(n);
    case ExprOp::kSetLit: return set_literal(n);
    case ExprOp::kComprehension: return comprehension(n);
    case ExprOp::kQuant: return quantifier(n);
    case ExprOp::kExtremum:
      if ((n.sub & ir::kExtremumValue) != 0) return extremum_value(n);
      return pick(n, n.kids[0], -1, true);
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

Encoder::Sym Encoder::Run::constant(const ir::Value& v) {
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

Encoder::Sym Encoder::Run::local(ir::Slot slot) {
  if (auto it = env_.find(slot); it != env_.end()) return it->second;
  const auto s = static_cast<std::size_t>(slot);
  const std::int32_t index = layout_.local_index[s];
  switch (layout_.local_shape[s]) {
    case SlotShape::kScalar: {
      const Kind k = s < enc_.kinds_.local.size() ? enc_.kinds_.local[s] : Kind::kNone;  // no game got here
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

Encoder::Sym Encoder::Run::var(const ir::ExprNode& n) {
  const ir::VarInfo& info = ir_.vars[static_cast<std::size_t>(n.index)];
  std::vector<std::int32_t> slots;
  const std::int32_t width = info.per_player ? static_cast<std::int32_t>(seats()) : 1;
  for (std::int32_t p = 0; p < width; ++p) slots.push_back(info.first_slot + p);
  std::optional<z3::expr> player;
  if (info.per_player) player = as_player(eval(n.kids.at(0)), ir_.span_of(n));
  const auto first = static_cast<std::size_t>(info.first_slot);
  const Kind k = first < enc_.kinds_.var.size() ? enc_.kinds_.var[first] : Kind::kNone;  // no game got here
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

Encoder::Sym Encoder::Run::merge(const z3::expr& c, const Sym& a, const Sym& b) {
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

Encoder::Sym Encoder::Run::binary(const ir::ExprNode& n) {
  const auto op = static_cast<ir::BinaryOp>(n.sub);
  using S = Sym::Shape;
  if (op == ir::BinaryOp::kAnd || op == ir::BinaryOp::kOr) {
    const Sym a = eval(n.kids[0]);
    const z3::expr x = as_bool(a);
    path_.push_back(op == ir::BinaryOp::kAnd ? x : !x);
    const Sym b = eval(n.kids[1]);
    path_.pop_back();
    const z3::expr y = as_bool(b);
    return make_bool(op == ir::BinaryOp::kAnd ? (x && y) : (x || y), a.varies || b.varies);
  }
  const Sym a = eval(n.kids[0]);
  const Sym b = eval(n.kids[1]);
  const bool varies = a.varies || b.varies;
  switch (op) {
    case ir::BinaryOp::kEq:
    case ir::BinaryOp::kNe: {
      const z3::expr eq = equal(a, b);
      return make_bool(op == ir::BinaryOp::kEq ? eq : !eq, varies);
    }
    case ir::BinaryOp::kLt: return make_bool(as_int(a) < as_int(b), varies);
    case ir::BinaryOp::kLe: return make_bool(as_int(a) <= as_int(b), varies);
    case ir::BinaryOp::kGt: return make_bool(as_int(a) > as_int(b), varies);
    case ir::BinaryOp::kGe: return make_bool(as_int(a) >= as_int(b), varies);
    case ir::BinaryOp::kIn:
    case ir::BinaryOp::kNotIn: {
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
      return make_bool(op == ir::BinaryOp::kIn ? found : !found, varies);
    }
    case ir::BinaryOp::kAdd:
    case ir::BinaryOp::kSub: {
      if ((a.shape == S::kPlayers && b.shape == S::kPlayers) ||
          (a.shape == S::kValues && b.shape == S::kValues && a.e.size() == b.e.size())) {
        Sym out = a;
        for (std::size_t i = 0; i < a.e.size(); ++i) {
          out.e[i] = op == ir::BinaryOp::kAdd ? (a.e[i] || b.e[i]) : (a.e[i] && !b.e[i]);
        }
        return out;
      }
      if (a.shape == S::kInt || a.shape == S::kBool) {
        Sym out = make_int(op == ir::BinaryOp::kAdd ? as_int(a) + as_int(b) : as_int(a) - as_int(b));
        out.varies = varies;
        return checked(out, ir_.span_of(n));
      }
      return unknown();
    }
    case ir::BinaryOp::kMul: {
      const z3::expr x = as_int(a), y = as_int(b);
      // Keep the arithmetic linear: a product of two unknowns is a fresh value.
      const z3::expr xs = x.simplify(), ys = y.simplify();
      if (xs.is_numeral() || ys.is_numeral()) {
        Sym out = make_int(x * y);
        out.varies = varies;
        return checked(out, ir_.span_of(n));
      }
      // The product is not kept: whether it fits in 64 bits is not known either.
      oblige(ir::FaultKind::kIntegerOverflow, fresh_bool(), ir_.span_of(n), "an integer product within 64 bits");
      Sym out = make_int(fresh_int());
      out.varies = varies;
      return out;
    }
    case ir::BinaryOp::kDiv:
    case ir::BinaryOp::kMod: {
      const z3::expr y = as_int(b).simplify();
      oblige(ir::FaultKind::kDivisionByZero, y != num(0), ir_.span_of(n), "a divisor other than 0");
      // The interpreter faults on the lowest integer divided by -1, for / and % alike.
      oblige(ir::FaultKind::kIntegerOverflow, !(as_int(a) == ctx_.int_val(std::numeric_limits<int64_t>::min()) && y == num(-1)),
             ir_.span_of(n), "a quotient within 64 bits");
      Sym out = make_int(fresh_int());
      std::int64_t divisor = 0;
      if (y.is_numeral_i64(divisor) && divisor > 0 && op == ir::BinaryOp::kMod) {
        assume(out.e[0] > -y && out.e[0] < y);
      }
      out.varies = varies;
      return out;
    }
    default: return unknown();
  }
}

z3::expr Encoder::Run::equal(const Sym& a, const Sym& b) {
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

Encoder::Sym Encoder::Run::set_literal(const ir::ExprNode& n) {
  std::vector<Sym> items;
  for (const ir::ExprId k : n.kids) {
    items.push_back(eval(k));
    // The interpreter faults on none as a member, whatever the set's element type.
    const Sym& item = items.back();
    const grammar::SourceSpan& span = ir_.expr_spans[static_cast<std::size_t>(k)];
    if (item.shape == Sym::Shape::kInt && item.kind != Kind::kInt) {
      oblige(ir::FaultKind::kNoneInSet, item.e[0] >= num(0), span, "a set member, not none");
    } else if (item.shape == Sym::Shape::kCard) {
      oblige(ir::FaultKind::kNoneInSet, item.e[0] >= num(0), span, "a set member, not none");
    } else if (item.shape != Sym::Shape::kInt && item.shape != Sym::Shape::kBool) {
      oblige(ir::FaultKind::kNoneInSet, fresh_bool(), span, "a set member, not none (the member is not kept)");
    }
  }
  if (items.empty()) return constant(ir::Value::set(Kind::kNone, {}));
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
  return s;
}

Encoder::Sym Encoder::Run::builtin(const ir::ExprNode& n) {
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
        assume(size >= num(0));
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
        oblige(ir::FaultKind::kTakeFromEmpty, k >= num(0) && k <= total(z.e[0]), ir_.span_of(n),
               name + "(zone, k) of a zone with at least k cards");
        Sym out;
        out.shape = Sym::Shape::kCards;
        out.e.push_back(z.e[0]);
        z3::expr sum = num(0);
        for (std::int32_t c = 0; c < classes(); ++c) {
          const z3::expr part = part_of(counts[static_cast<std::size_t>(c)]);
          sum = sum + part;
          out.e.push_back(part);
        }
        require(sum == k);
        return out;
      }
      oblige(ir::FaultKind::kTakeFromEmpty, total(z.e[0]) > num(0), ir_.span_of(n), name + "() of a zone that has a card");
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
      oblige_card(c, n.kids[0], ir_.span_of(n));
      // A value the cards of `range_of` (a class, or the last entry: every card) have.
      const auto within = [&](std::size_t range_of) {
        const z3::expr v = fresh_int();
        if (const auto& range = enc_.attribute_range_[range_of][static_cast<std::size_t>(attribute)]) {
          assume(v >= num(range->first) && v <= num(range->second));
        }
        return v;
      };
      if (c.shape != Sym::Shape::kCard) {
        Sym out = make_int(within(enc_.attribute_range_.size() - 1), kind, enum_id);
        out.varies = true;
        return out;
      }
      std::vector<z3::expr> per;
      bool varies = false;
      for (std::int32_t k = 0; k < classes(); ++k) {
        const auto& v = enc_.class_attribute_[static_cast<std::size_t>(k)][static_cast<std::size_t>(attribute)];
        per.push_back(v ? num(*v) : within(static_cast<std::size_t>(k)));
        varies = varies || !v;
      }
      Sym out = make_int(select(per, c.e[1]), kind, enum_id);
      out.varies = varies;
      return out;
    }
    case Builtin::kFaceUp:
    case Builtin::kFaceDown: {
      const Sym c = eval(n.kids[0]);
      oblige_card(c, n.kids[0], ir_.span_of(n));
      return make_bool(fresh_bool(), true);
    }
    case Builtin::kIndex: {
      const Sym c = eval(n.kids[0]);
      oblige_card(c, n.kids[0], ir_.span_of(n));
      Sym out = make_int(fresh_int());
      assume(out.e[0] >= num(0));
      out.varies = true;
      return out;
    }
    case Builtin::kLeftOf:
    case Builtin::kRightOf:
    case Builtin::kOpposite: {
      const z3::expr p = as_player(eval(n.kids[0]), ir_.span_of(n));
      std::int64_t offset = b == Builtin::kLeftOf ? 1 : b == Builtin::kRightOf ? seats() - 1 : seats() / 2;
      if (b == Builtin::kOpposite) {
        oblige(ir::FaultKind::kNoOppositeSeat, ctx_.bool_val(seats() % 2 == 0), ir_.span_of(n), "an even number of seats");
      }
      return make_int(player_at(modulo(seat_of(p) + num(offset))), Kind::kPlayer);
    }
    case Builtin::kDistance: {
      const z3::expr a = as_player(eval(n.kids[0]), ir_.span_of(n));
      const z3::expr c = as_player(eval(n.kids[1]), ir_.span_of(n));
      return make_int(modulo(seat_of(c) - seat_of(a)));
    }
    case Builtin::kSubsets: {
      const Sym set = eval(n.kids[0]);
      const z3::expr lo = as_int(eval(n.kids[1]));
      const z3::expr hi = as_int(eval(n.kids[2]));
      if (set.shape != Sym::Shape::kPlayers) {
        oblige(ir::FaultKind::kTooManySubsets, fresh_bool(), ir_.span_of(n), "subsets() of at most 20 players (the set is not kept)");
        return unknown();
      }
      oblige(ir::FaultKind::kTooManySubsets, size_of(set) <= num(20), ir_.span_of(n), "subsets() of at most 20 players");
      Sym out;
      out.shape = Sym::Shape::kFamily;
      out.e = set.e;
      out.e.insert(out.e.end(), {lo, hi});
      return out;
    }
    case Builtin::kMax:
    case Builtin::kMin: {
      const z3::expr x = as_int(eval(n.kids[0])), y = as_int(eval(n.kids[1]));
      return make_int(b == Builtin::kMax ? z3::ite(x >= y, x, y) : z3::ite(x <= y, x, y));
    }
    case Builtin::kAbs: {
      const Sym v = eval(n.kids[0]);
      const z3::expr x = as_int(v);
      oblige(ir::FaultKind::kIntegerOverflow, x != ctx_.int_val(std::numeric_limits<int64_t>::min()), ir_.span_of(n),
             "abs() of an integer above the smallest");
      Sym out = make_int(z3::ite(x >= num(0), x, -x));
      out.varies = v.varies;
      return out;
    }
  }
  return unknown();
}

}  // namespace rulebook::verifier
