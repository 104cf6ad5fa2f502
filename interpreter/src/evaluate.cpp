// Expression evaluation: every expression kind and builtin function.
#include <algorithm>
#include <array>
#include <bit>
#include <limits>

#include <fmt/format.h>

#include "executor.hpp"

namespace rulebook::interpreter::detail {

// The set of players whose bits are set in `mask` (sets of sets hold masks).
// It runs for every such set read (a choice among `subsets(...)` reads each option's), so it
// visits the set bits only and allocates once.
Value players_of_mask(std::int64_t mask) {
  std::vector<std::int64_t> players;
  players.reserve(static_cast<std::size_t>(std::popcount(static_cast<std::uint64_t>(mask))));
  for (std::uint64_t rest = static_cast<std::uint64_t>(mask); rest != 0; rest &= rest - 1) {
    players.push_back(std::countr_zero(rest));
  }
  return Value::set(Kind::kPlayer, std::move(players));
}

std::vector<std::int64_t> sorted_unique(std::vector<std::int64_t> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return items;
}


Value Executor::element(Kind kind, std::int32_t enum_id, std::int64_t v) const {
  switch (kind) {
    case Kind::kPlayer: return Value::player(v);
    case Kind::kCard: return Value::card(v);
    case Kind::kEnum: return Value::enumeration(enum_id, v);
    case Kind::kBool: return Value::boolean(v != 0);
    case Kind::kPlayerSet: return players_of_mask(v);
    default: return Value::integer(v);
  }
}

std::vector<std::int64_t> Executor::collect(const Value& v, bool by_identity, const grammar::SourceSpan& span) const {
  std::vector<std::int64_t> out;
  out.reserve(count_of(v, span));
  each_of(v, by_identity, span, [&](std::int64_t x) {
    out.push_back(x);
    return true;
  });
  return out;
}

std::int32_t Executor::var_slot(std::int32_t var, ExprId player_expr, const grammar::SourceSpan& span) {
  const VarInfo& info = ir_.vars[static_cast<std::size_t>(var)];
  if (!info.per_player) return info.first_slot;
  const PlayerId p = player_arg(eval(player_expr), span);
  return info.first_slot + p;
}

PlayerId Executor::at_offset(PlayerId p, std::int64_t offset) const {
  const std::int64_t n = seats();
  const std::int64_t seat = ((s_.seat_of[static_cast<std::size_t>(p)] + offset) % n + n) % n;
  return s_.player_at[static_cast<std::size_t>(seat)];
}

std::vector<std::int64_t> Executor::ordered(const Value& domain, int order, ExprId from, const grammar::SourceSpan& span) {
  if (order == 0) return elements(domain, span);
  const auto kind = static_cast<ir::OrderKind>(order - 1);
  if (kind == ir::OrderKind::kBottomToTop || kind == ir::OrderKind::kTopToBottom) {
    std::vector<std::int64_t> items = elements(domain, span);
    if (kind == ir::OrderKind::kTopToBottom) std::reverse(items.begin(), items.end());
    return items;
  }
  const PlayerId start = player_arg(eval(from), ir_.expr_spans[static_cast<std::size_t>(from)]);
  const std::vector<std::int64_t> members = as_sorted(domain, span);
  const std::int64_t step = kind == ir::OrderKind::kClockwise ? 1 : -1;
  std::vector<std::int64_t> out;
  for (std::int64_t i = 0; i < seats(); ++i) {
    const PlayerId p = at_offset(start, step * i);
    if (std::binary_search(members.begin(), members.end(), p)) out.push_back(p);
  }
  return out;
}

Value Executor::eval(ExprId id) {
  const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
  switch (n.op) {
    case ExprOp::kConst: return n.constant;
    case ExprOp::kLocal: return s_.locals[static_cast<std::size_t>(n.index)];
    case ExprOp::kVar: {
      const VarInfo& info = ir_.vars[static_cast<std::size_t>(n.index)];
      std::int32_t slot = info.first_slot;
      if (info.per_player) slot += player_arg(eval(n.kids.at(0)), ir_.span_of(n));
      return s_.vars[static_cast<std::size_t>(slot)];
    }
    case ExprOp::kOption: return s_.options[static_cast<std::size_t>(n.index)];
    case ExprOp::kZone: {
      std::int64_t player = 0;
      if (ir_.zones[static_cast<std::size_t>(n.index)].per_player) player = player_arg(eval(n.kids.at(0)), ir_.span_of(n));
      return Value::zone(ir_.zone_instance(n.index, player));
    }
    case ExprOp::kSeat: {
      const std::int64_t seat = int_arg(eval(n.kids.at(0)), ir_.span_of(n));
      if (seat < 0 || seat >= seats()) fault(FaultKind::kNoSeat, ir_.span_of(n), fmt::format("there is no seat {} (seats 0 to {})", seat, seats() - 1));
      return Value::player(s_.player_at[static_cast<std::size_t>(seat)]);
    }
    case ExprOp::kPlayers: {
      std::vector<std::int64_t> all(static_cast<std::size_t>(seats()));
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
      return Value::set(Kind::kPlayer, std::move(all));
    }
    case ExprOp::kAllCards: {
      std::vector<std::int64_t> all(s_.cards->size());
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::int64_t>(i);
      return Value::set(Kind::kCard, std::move(all));
    }
    case ExprOp::kNumPlayers: return Value::integer(s_.num_players);
    case ExprOp::kNumSeats: return Value::integer(seats());
    case ExprOp::kBuiltin: return builtin(n);
    case ExprOp::kDef: {
      const DefInfo& def = ir_.defs[static_cast<std::size_t>(n.index)];
      // Every argument is evaluated before any parameter is bound (an argument may read a
      // parameter of the same def); up to four need no heap.
      auto bind = [&](Value* args) {
        for (std::size_t i = 0; i < n.kids.size(); ++i) args[i] = eval(n.kids[i]);
        for (std::size_t i = 0; i < n.kids.size(); ++i) s_.locals[static_cast<std::size_t>(def.params[i])] = std::move(args[i]);
      };
      constexpr std::size_t kInline = 4;
      if (n.kids.size() <= kInline) {
        std::array<Value, kInline> args;
        bind(args.data());
      } else {
        std::vector<Value> args(n.kids.size());
        bind(args.data());
      }
      return eval(def.body);
    }
    case ExprOp::kNot: return Value::boolean(!eval(n.kids[0]).truthy());
    case ExprOp::kNeg: return Value::integer(checked_sub(0, int_arg(eval(n.kids[0]), ir_.span_of(n)), ir_.span_of(n)));
    case ExprOp::kBinary: return binary(n);
    case ExprOp::kSetLit: {
      std::vector<std::int64_t> items;
      Kind kind = Kind::kNone;
      std::int32_t enum_id = -1;
      for (const ExprId k : n.kids) {
        const Value v = eval(k);
        if (v.kind == Kind::kSet || v.kind == Kind::kZone) fault(FaultKind::kUnsupported, ir_.span_of(n), "a set literal of sets is not supported");
        if (v.is_none()) fault(FaultKind::kNoneInSet, ir_.expr_spans[static_cast<std::size_t>(k)], "a set cannot hold none");
        kind = v.kind;
        enum_id = v.enum_id;
        items.push_back(v.scalar);
      }
      return Value::set(kind, sorted_unique(std::move(items)), enum_id);
    }
    case ExprOp::kComprehension: {
      Kind kind = Kind::kNone;
      std::int32_t enum_id = -1;
      std::vector<std::int64_t> out;
      each_element(n.kids[0], true, ir_.span_of(n), kind, enum_id, [&](std::int64_t x) {
        s_.locals[static_cast<std::size_t>(n.index)] = element(kind, enum_id, x);
        if (eval(n.kids[1]).truthy()) out.push_back(x);
        return true;
      });
      return Value::set(kind, std::move(out), enum_id);
    }
    case ExprOp::kQuant: {
      Kind kind = Kind::kNone;
      std::int32_t enum_id = -1;
      const auto q = static_cast<ir::QuantKind>(n.sub);
      std::int64_t total = 0;
      const bool finished = each_element(n.kids[0], false, ir_.span_of(n), kind, enum_id, [&](std::int64_t x) {
        s_.locals[static_cast<std::size_t>(n.index)] = element(kind, enum_id, x);
        const Value body = eval(n.kids[1]);
        switch (q) {
          case ir::QuantKind::kExists: return !body.truthy();
          case ir::QuantKind::kAll: return body.truthy();
          case ir::QuantKind::kCount: total += body.truthy() ? 1 : 0; break;
          case ir::QuantKind::kSum: total = checked_add(total, int_arg(body, ir_.span_of(n)), ir_.span_of(n)); break;
        }
        return true;
      });
      if (q == ir::QuantKind::kExists) return Value::boolean(!finished);
      if (q == ir::QuantKind::kAll) return Value::boolean(finished);
      return Value::integer(total);
    }
    case ExprOp::kExtremum: {
      Kind kind = Kind::kNone;
      std::int32_t enum_id = -1;
      // Keys of up to four parts compare without the heap.
      constexpr std::size_t kInline = 4;
      const std::size_t parts = n.kids.size() - 1;
      std::array<std::int64_t, 2 * kInline> small{};
      std::vector<std::int64_t> large(parts > kInline ? 2 * parts : 0);
      std::int64_t* const best_keys = large.empty() ? small.data() : large.data();
      std::int64_t* const keys = best_keys + parts;
      bool any = false;
      std::int64_t best = 0;
      each_element(n.kids[0], false, ir_.span_of(n), kind, enum_id, [&](std::int64_t x) {
        s_.locals[static_cast<std::size_t>(n.index)] = element(kind, enum_id, x);
        for (std::size_t k = 1; k < n.kids.size(); ++k) keys[k - 1] = eval(n.kids[k]).scalar;
        // Ties go to the later element.
        const bool better = !any || ((n.sub & ir::kExtremumMax) != 0 ? !std::lexicographical_compare(keys, keys + parts, best_keys, best_keys + parts)
                                                : !std::lexicographical_compare(best_keys, best_keys + parts, keys, keys + parts));
        if (better) {
          std::copy(keys, keys + parts, best_keys);
          best = x;
          any = true;
        }
        return true;
      });
      if (!any) fault(FaultKind::kEmptyExtremum, ir_.span_of(n), fmt::format("{} over an empty set", (n.sub & ir::kExtremumMax) != 0 ? "max" : "min"));
      // `max x in D: E`: its one key is the value.
      if ((n.sub & ir::kExtremumValue) != 0) return Value::integer(best_keys[0]);
      return element(kind, enum_id, best);
    }
    case ExprOp::kFirst: {
      const Value domain = eval(n.kids[0]);
      const Kind kind = element_kind(domain);
      for (const std::int64_t x : ordered(domain, n.sub, n.kids[1], ir_.span_of(n))) {
        const Value v = element(kind, domain.enum_id, x);
        s_.locals[static_cast<std::size_t>(n.index)] = v;
        if (n.kids[2] < 0 || eval(n.kids[2]).truthy()) return v;
      }
      fault(FaultKind::kFirstNotFound, ir_.span_of(n), "'first' found no element");
    }
    case ExprOp::kCond: return eval(n.kids[0]).truthy() ? eval(n.kids[1]) : eval(n.kids[2]);
  }
  fault(FaultKind::kUnsupported, ir_.span_of(n), "unknown expression");
}

Value Executor::binary(const ExprNode& n) {
  const auto op = static_cast<ir::BinaryOp>(n.sub);
  if (op == ir::BinaryOp::kOr) return Value::boolean(eval(n.kids[0]).truthy() || eval(n.kids[1]).truthy());
  if (op == ir::BinaryOp::kAnd) return Value::boolean(eval(n.kids[0]).truthy() && eval(n.kids[1]).truthy());
  const Value a = eval(n.kids[0]);
  const Value b = eval(n.kids[1]);
  switch (op) {
    case ir::BinaryOp::kEq: return Value::boolean(equal(a, b));
    case ir::BinaryOp::kNe: return Value::boolean(!equal(a, b));
    case ir::BinaryOp::kLt: return Value::boolean(int_arg(a, ir_.span_of(n)) < int_arg(b, ir_.span_of(n)));
    case ir::BinaryOp::kLe: return Value::boolean(int_arg(a, ir_.span_of(n)) <= int_arg(b, ir_.span_of(n)));
    case ir::BinaryOp::kGt: return Value::boolean(int_arg(a, ir_.span_of(n)) > int_arg(b, ir_.span_of(n)));
    case ir::BinaryOp::kGe: return Value::boolean(int_arg(a, ir_.span_of(n)) >= int_arg(b, ir_.span_of(n)));
    case ir::BinaryOp::kIn:
    case ir::BinaryOp::kNotIn: {
      bool found = false;
      if (b.kind == Kind::kZone) {
        found = a.kind == Kind::kCard && a.scalar >= 0 && s_.card_zone[static_cast<std::size_t>(a.scalar)] == b.scalar;
      } else {
        const std::int64_t key = a.kind == Kind::kSet ? mask_of(a, ir_.span_of(n)) : a.scalar;
        found = std::binary_search(b.items.begin(), b.items.end(), key);
      }
      return Value::boolean(op == ir::BinaryOp::kIn ? found : !found);
    }
    case ir::BinaryOp::kAdd:
    case ir::BinaryOp::kSub: {
      if (a.kind == Kind::kSet || a.kind == Kind::kZone || b.kind == Kind::kSet || b.kind == Kind::kZone) {
        const std::vector<std::int64_t> x = as_sorted(a, ir_.span_of(n));
        const std::vector<std::int64_t> y = as_sorted(b, ir_.span_of(n));
        std::vector<std::int64_t> out;
        if (op == ir::BinaryOp::kAdd) {
          std::set_union(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
        } else {
          std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
        }
        const Kind kind = element_kind(a) != Kind::kNone ? element_kind(a) : element_kind(b);
        return Value::set(kind, std::move(out), a.enum_id >= 0 ? a.enum_id : b.enum_id);
      }
      const std::int64_t x = int_arg(a, ir_.span_of(n)), y = int_arg(b, ir_.span_of(n));
      return Value::integer(op == ir::BinaryOp::kAdd ? checked_add(x, y, ir_.span_of(n)) : checked_sub(x, y, ir_.span_of(n)));
    }
    case ir::BinaryOp::kMul: return Value::integer(checked_mul(int_arg(a, ir_.span_of(n)), int_arg(b, ir_.span_of(n)), ir_.span_of(n)));
    case ir::BinaryOp::kDiv:
    case ir::BinaryOp::kMod: {
      const std::int64_t y = int_arg(b, ir_.span_of(n));
      if (y == 0) fault(FaultKind::kDivisionByZero, ir_.span_of(n), "division by zero");
      const std::int64_t x = int_arg(a, ir_.span_of(n));
      if (x == std::numeric_limits<std::int64_t>::min() && y == -1) fault(FaultKind::kIntegerOverflow, ir_.span_of(n), "integer overflow");
      return Value::integer(op == ir::BinaryOp::kDiv ? x / y : x % y);
    }
    default: break;
  }
  fault(FaultKind::kUnsupported, ir_.span_of(n), "unknown operator");
}

std::int64_t Executor::mask_of(const Value& set, const grammar::SourceSpan& span) const {
  std::uint64_t mask = 0;
  for (const std::int64_t x : set.items) {
    if (x < 0 || x >= 64) fault(FaultKind::kUnsupported, span, "only sets of players can be elements of sets");
    mask |= std::uint64_t{1} << x;
  }
  return static_cast<std::int64_t>(mask);
}

Value Executor::builtin(const ExprNode& n) {
  const auto b = static_cast<Builtin>(n.sub);
  auto arg = [&](std::size_t i) { return eval(n.kids.at(i)); };
  switch (b) {
    case Builtin::kCount: return Value::integer(static_cast<std::int64_t>(count_of(arg(0), ir_.span_of(n))));
    case Builtin::kEmpty: return Value::boolean(count_of(arg(0), ir_.span_of(n)) == 0);
    case Builtin::kTop:
    case Builtin::kBottom: {
      const Value z = arg(0);
      const std::int32_t inst = zone_instance(z, ir_.span_of(n));
      const auto& cards = s_.zones[static_cast<std::size_t>(inst)];
      const bool top = b == Builtin::kTop;
      if (n.kids.size() == 2) {
        const std::int64_t k = int_arg(arg(1), ir_.span_of(n));
        if (k < 0 || static_cast<std::size_t>(k) > cards.size()) {
          fault(FaultKind::kTakeFromEmpty, ir_.span_of(n), fmt::format("{}({}, {}): the zone holds {} card{}", top ? "top" : "bottom",
                                    zone_label(inst), k, cards.size(), cards.size() == 1 ? "" : "s"));
        }
        std::vector<std::int64_t> out;
        const auto count = static_cast<std::size_t>(k);
        for (std::size_t i = 0; i < count; ++i) out.push_back(top ? cards[cards.size() - 1 - i] : cards[i]);
        return Value::set(Kind::kCard, sorted_unique(std::move(out)));
      }
      if (cards.empty()) fault(FaultKind::kTakeFromEmpty, ir_.span_of(n), fmt::format("{}({}): the zone is empty", top ? "top" : "bottom", zone_label(inst)));
      return Value::card(top ? cards.back() : cards.front());
    }
    case Builtin::kRank: return Value::integer(card(card_arg(arg(0), ir_.span_of(n))).rank);
    case Builtin::kSuit: return Value::enumeration(kEnumSuit, card(card_arg(arg(0), ir_.span_of(n))).suit);
    case Builtin::kColor: return Value::enumeration(kEnumColor, card(card_arg(arg(0), ir_.span_of(n))).color);
    case Builtin::kKind: return Value::enumeration(kEnumKind, card(card_arg(arg(0), ir_.span_of(n))).kind);
    case Builtin::kFaceUp: return Value::boolean(s_.card_face_up[static_cast<std::size_t>(card_arg(arg(0), ir_.span_of(n)))] != 0);
    case Builtin::kFaceDown: return Value::boolean(s_.card_face_up[static_cast<std::size_t>(card_arg(arg(0), ir_.span_of(n)))] == 0);
    case Builtin::kIndex: {
      const CardId c = card_arg(arg(0), ir_.span_of(n));
      const auto& cards = s_.zones[static_cast<std::size_t>(s_.card_zone[static_cast<std::size_t>(c)])];
      return Value::integer(std::find(cards.begin(), cards.end(), c) - cards.begin());
    }
    case Builtin::kLeftOf: return Value::player(at_offset(player_arg(arg(0), ir_.span_of(n)), 1));
    case Builtin::kRightOf: return Value::player(at_offset(player_arg(arg(0), ir_.span_of(n)), -1));
    case Builtin::kOpposite: {
      if (seats() % 2 != 0) fault(FaultKind::kNoOppositeSeat, ir_.span_of(n), fmt::format("no seat is opposite with {} seats", seats()));
      return Value::player(at_offset(player_arg(arg(0), ir_.span_of(n)), seats() / 2));
    }
    case Builtin::kDistance: {
      const PlayerId a = player_arg(arg(0), ir_.span_of(n)), c = player_arg(arg(1), ir_.span_of(n));
      const std::int64_t d = s_.seat_of[static_cast<std::size_t>(c)] - s_.seat_of[static_cast<std::size_t>(a)];
      return Value::integer((d % seats() + seats()) % seats());
    }
    case Builtin::kSubsets: {
      const Value set = arg(0);
      const std::int64_t lo = int_arg(arg(1), ir_.span_of(n)), hi = int_arg(arg(2), ir_.span_of(n));
      const std::vector<std::int64_t> items = as_sorted(set, ir_.span_of(n));
      if (element_kind(set) != Kind::kPlayer && !items.empty()) fault(FaultKind::kUnsupported, ir_.span_of(n), "subsets() takes a set of players");
      std::vector<std::int64_t> out;
      const std::size_t m = items.size();
      if (m > 20) fault(FaultKind::kTooManySubsets, ir_.span_of(n), "subsets() of more than 20 players");
      for (std::uint64_t pick = 0; pick < (std::uint64_t{1} << m); ++pick) {
        // The size and the mask in one pass over the picked bits.
        std::int64_t size = 0;
        std::uint64_t mask = 0;
        for (std::uint64_t rest = pick; rest != 0; rest &= rest - 1) {
          mask |= std::uint64_t{1} << items[static_cast<std::size_t>(std::countr_zero(rest))];
          ++size;
        }
        if (size < lo || size > hi) continue;
        out.push_back(static_cast<std::int64_t>(mask));
      }
      return Value::set(Kind::kPlayerSet, sorted_unique(std::move(out)));
    }
    case Builtin::kMax: return Value::integer(std::max(int_arg(arg(0), ir_.span_of(n)), int_arg(arg(1), ir_.span_of(n))));
    case Builtin::kMin: return Value::integer(std::min(int_arg(arg(0), ir_.span_of(n)), int_arg(arg(1), ir_.span_of(n))));
    case Builtin::kAbs: {
      const std::int64_t x = int_arg(arg(0), ir_.span_of(n));
      // -x of the smallest integer is one past the largest.
      if (x == std::numeric_limits<std::int64_t>::min()) fault(FaultKind::kIntegerOverflow, ir_.span_of(n), "integer overflow");
      return Value::integer(x < 0 ? -x : x);
    }
  }
  fault(FaultKind::kUnsupported, ir_.span_of(n), "unknown builtin");
}

std::size_t Executor::count_of(const Value& v, const grammar::SourceSpan& span) const {
  if (v.kind == Kind::kZone) return s_.zones[static_cast<std::size_t>(v.scalar)].size();
  if (v.kind != Kind::kSet) fault(FaultKind::kTypeMismatch, span, "expected a set or a zone");
  return v.items.size();
}
}  // namespace rulebook::interpreter::detail
