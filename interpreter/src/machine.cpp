// The machine: expression evaluation and instruction execution over a State.
//
// Iteration orders (they decide ties and `first`): a set of players in seat order from
// seat 0; a pile bottom to top; any other set (set zones included) in ascending order
// (cards by identity).
#include "rulebook/interpreter/machine.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace rulebook::interpreter {

namespace {

namespace ast = grammar::ast;

// Thrown inside the machine for a rule fault; caught at the top of run().
struct FaultSignal {
  std::string message;
  grammar::SourceSpan span;
};

[[noreturn]] void fault(const grammar::SourceSpan& span, std::string message) {
  throw FaultSignal{std::move(message), span};
}

constexpr std::int64_t kSuitClubs = 0, kSuitDiamonds = 1, kSuitHearts = 2, kSuitSpades = 3;
constexpr std::int64_t kColorRed = 0, kColorBlack = 1;
constexpr std::int32_t kEnumSuit = 0, kEnumColor = 1, kEnumKind = 2;

// The set of players whose bits are set in `mask` (sets of sets hold masks).
Value players_of_mask(std::int64_t mask) {
  std::vector<std::int64_t> players;
  for (std::int64_t p = 0; p < 64; ++p) {
    if ((static_cast<std::uint64_t>(mask) >> p) & 1U) players.push_back(p);
  }
  return Value::set(Kind::kPlayer, std::move(players));
}

std::vector<std::int64_t> sorted_unique(std::vector<std::int64_t> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return items;
}

// Execution of one game's rules over a state; short-lived, one per run() or evaluation.
class Executor {
 public:
  Executor(const Ir& ir, State& state, EventSink* sink) : ir_(ir), s_(state), sink_(sink) {}

  // ---- values ----

  Value element(Kind kind, std::int32_t enum_id, std::int64_t v) const {
    switch (kind) {
      case Kind::kPlayer: return Value::player(v);
      case Kind::kCard: return Value::card(v);
      case Kind::kEnum: return Value::enumeration(enum_id, v);
      case Kind::kBool: return Value::boolean(v != 0);
      case Kind::kPlayerSet: return players_of_mask(v);
      default: return Value::integer(v);
    }
  }

  std::int64_t seats() const { return s_.num_seats; }

  // The elements of a collection in iteration order.
  std::vector<std::int64_t> elements(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind == Kind::kZone) {
      const auto& cards = s_.zones[static_cast<std::size_t>(v.scalar)];
      if (ir_.instance_is_pile[static_cast<std::size_t>(v.scalar)] == 0) return sorted_unique({cards.begin(), cards.end()});
      return {cards.begin(), cards.end()};
    }
    if (v.kind != Kind::kSet) fault(span, "expected a set or a zone");
    if (v.element == Kind::kPlayer) {
      std::vector<std::int64_t> out = v.items;
      std::sort(out.begin(), out.end(), [&](std::int64_t a, std::int64_t b) {
        return s_.seat_of[static_cast<std::size_t>(a)] < s_.seat_of[static_cast<std::size_t>(b)];
      });
      return out;
    }
    return v.items;
  }

  Kind element_kind(const Value& v) const { return v.kind == Kind::kZone ? Kind::kCard : v.element; }

  std::vector<std::int64_t> as_sorted(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind == Kind::kZone) {
      const auto& cards = s_.zones[static_cast<std::size_t>(v.scalar)];
      return sorted_unique({cards.begin(), cards.end()});
    }
    if (v.kind != Kind::kSet) fault(span, "expected a set or a zone");
    return v.items;
  }

  PlayerId player_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kPlayer || v.scalar < 0 || v.scalar >= seats()) fault(span, "no player here (none)");
    return static_cast<PlayerId>(v.scalar);
  }

  CardId card_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kCard || v.scalar < 0) fault(span, "no card here (none)");
    return static_cast<CardId>(v.scalar);
  }

  std::int64_t int_arg(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kInt) fault(span, "expected an int");
    return v.scalar;
  }

  const CardInfo& card(CardId c) const { return (*s_.cards)[static_cast<std::size_t>(c)]; }

  std::int32_t zone_instance(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind != Kind::kZone) fault(span, "expected a zone");
    return static_cast<std::int32_t>(v.scalar);
  }

  std::int32_t var_slot(std::int32_t var, ExprId player_expr, const grammar::SourceSpan& span) {
    const VarInfo& info = ir_.vars[static_cast<std::size_t>(var)];
    if (!info.per_player) return info.first_slot;
    const PlayerId p = player_arg(eval(player_expr), span);
    return info.first_slot + p;
  }

  PlayerId at_offset(PlayerId p, std::int64_t offset) const {
    const std::int64_t n = seats();
    const std::int64_t seat = ((s_.seat_of[static_cast<std::size_t>(p)] + offset) % n + n) % n;
    return s_.player_at[static_cast<std::size_t>(seat)];
  }

  // Elements ordered for a walk: seat orders start at a player; pile orders need a zone.
  std::vector<std::int64_t> ordered(const Value& domain, int order, ExprId from, const grammar::SourceSpan& span) {
    if (order == 0) return elements(domain, span);
    const auto kind = static_cast<ast::OrderKind>(order - 1);
    if (kind == ast::OrderKind::kBottomToTop || kind == ast::OrderKind::kTopToBottom) {
      std::vector<std::int64_t> items = elements(domain, span);
      if (kind == ast::OrderKind::kTopToBottom) std::reverse(items.begin(), items.end());
      return items;
    }
    const PlayerId start = player_arg(eval(from), ir_.exprs[static_cast<std::size_t>(from)].span);
    const std::vector<std::int64_t> members = as_sorted(domain, span);
    const std::int64_t step = kind == ast::OrderKind::kClockwise ? 1 : -1;
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < seats(); ++i) {
      const PlayerId p = at_offset(start, step * i);
      if (std::binary_search(members.begin(), members.end(), p)) out.push_back(p);
    }
    return out;
  }

  // ---- expressions ----

  Value eval(ExprId id) {
    const ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
    switch (n.op) {
      case ExprOp::kConst: return n.constant;
      case ExprOp::kLocal: return s_.locals[static_cast<std::size_t>(n.index)];
      case ExprOp::kVar: {
        const VarInfo& info = ir_.vars[static_cast<std::size_t>(n.index)];
        std::int32_t slot = info.first_slot;
        if (info.per_player) slot += player_arg(eval(n.kids.at(0)), n.span);
        return s_.vars[static_cast<std::size_t>(slot)];
      }
      case ExprOp::kOption: return s_.options[static_cast<std::size_t>(n.index)];
      case ExprOp::kZone: {
        std::int64_t player = 0;
        if (ir_.zones[static_cast<std::size_t>(n.index)].per_player) player = player_arg(eval(n.kids.at(0)), n.span);
        return Value::zone(ir_.zone_instance(n.index, player));
      }
      case ExprOp::kSeat: {
        const std::int64_t seat = int_arg(eval(n.kids.at(0)), n.span);
        if (seat < 0 || seat >= seats()) fault(n.span, fmt::format("there is no seat {} (seats 0 to {})", seat, seats() - 1));
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
        std::vector<Value> args;
        args.reserve(n.kids.size());
        for (const ExprId k : n.kids) args.push_back(eval(k));
        for (std::size_t i = 0; i < args.size(); ++i) s_.locals[static_cast<std::size_t>(def.params[i])] = std::move(args[i]);
        return eval(def.body);
      }
      case ExprOp::kNot: return Value::boolean(!eval(n.kids[0]).truthy());
      case ExprOp::kNeg: return Value::integer(-int_arg(eval(n.kids[0]), n.span));
      case ExprOp::kBinary: return binary(n);
      case ExprOp::kSetLit: {
        std::vector<std::int64_t> items;
        Kind kind = Kind::kNone;
        std::int32_t enum_id = -1;
        for (const ExprId k : n.kids) {
          const Value v = eval(k);
          if (v.kind == Kind::kSet || v.kind == Kind::kZone) fault(n.span, "a set literal of sets is not supported");
          if (v.is_none()) fault(ir_.exprs[static_cast<std::size_t>(k)].span, "a set cannot hold none");
          kind = v.kind;
          enum_id = v.enum_id;
          items.push_back(v.scalar);
        }
        return Value::set(kind, sorted_unique(std::move(items)), enum_id);
      }
      case ExprOp::kComprehension: {
        const Value domain = eval(n.kids[0]);
        const Kind kind = element_kind(domain);
        std::vector<std::int64_t> out;
        for (const std::int64_t x : as_sorted(domain, n.span)) {
          s_.locals[static_cast<std::size_t>(n.index)] = element(kind, domain.enum_id, x);
          if (eval(n.kids[1]).truthy()) out.push_back(x);
        }
        return Value::set(kind, std::move(out), domain.enum_id);
      }
      case ExprOp::kQuant: {
        const Value domain = eval(n.kids[0]);
        const Kind kind = element_kind(domain);
        const auto q = static_cast<ast::QuantKind>(n.sub);
        std::int64_t total = 0;
        for (const std::int64_t x : elements(domain, n.span)) {
          s_.locals[static_cast<std::size_t>(n.index)] = element(kind, domain.enum_id, x);
          const Value body = eval(n.kids[1]);
          switch (q) {
            case ast::QuantKind::kExists:
              if (body.truthy()) return Value::boolean(true);
              break;
            case ast::QuantKind::kAll:
              if (!body.truthy()) return Value::boolean(false);
              break;
            case ast::QuantKind::kCount: total += body.truthy() ? 1 : 0; break;
            case ast::QuantKind::kSum: total += int_arg(body, n.span); break;
          }
        }
        if (q == ast::QuantKind::kExists) return Value::boolean(false);
        if (q == ast::QuantKind::kAll) return Value::boolean(true);
        return Value::integer(total);
      }
      case ExprOp::kExtremum: {
        const Value domain = eval(n.kids[0]);
        const Kind kind = element_kind(domain);
        const std::vector<std::int64_t> items = elements(domain, n.span);
        if (items.empty()) fault(n.span, fmt::format("{} over an empty set", n.sub != 0 ? "max" : "min"));
        std::vector<std::int64_t> best_keys;
        std::int64_t best = 0;
        std::vector<std::int64_t> keys(n.kids.size() - 1);
        for (const std::int64_t x : items) {
          s_.locals[static_cast<std::size_t>(n.index)] = element(kind, domain.enum_id, x);
          for (std::size_t k = 1; k < n.kids.size(); ++k) keys[k - 1] = eval(n.kids[k]).scalar;
          // Ties go to the later element.
          const bool better = best_keys.empty() || (n.sub != 0 ? keys >= best_keys : keys <= best_keys);
          if (better) {
            best_keys = keys;
            best = x;
          }
        }
        return element(kind, domain.enum_id, best);
      }
      case ExprOp::kFirst: {
        const Value domain = eval(n.kids[0]);
        const Kind kind = element_kind(domain);
        for (const std::int64_t x : ordered(domain, n.sub, n.kids[1], n.span)) {
          const Value v = element(kind, domain.enum_id, x);
          s_.locals[static_cast<std::size_t>(n.index)] = v;
          if (n.kids[2] < 0 || eval(n.kids[2]).truthy()) return v;
        }
        fault(n.span, "'first' found no element");
      }
      case ExprOp::kCond: return eval(n.kids[0]).truthy() ? eval(n.kids[1]) : eval(n.kids[2]);
    }
    fault(n.span, "unknown expression");
  }

  Value binary(const ExprNode& n) {
    const auto op = static_cast<ast::BinaryOp>(n.sub);
    if (op == ast::BinaryOp::kOr) return Value::boolean(eval(n.kids[0]).truthy() || eval(n.kids[1]).truthy());
    if (op == ast::BinaryOp::kAnd) return Value::boolean(eval(n.kids[0]).truthy() && eval(n.kids[1]).truthy());
    const Value a = eval(n.kids[0]);
    const Value b = eval(n.kids[1]);
    switch (op) {
      case ast::BinaryOp::kEq: return Value::boolean(equal(a, b));
      case ast::BinaryOp::kNe: return Value::boolean(!equal(a, b));
      case ast::BinaryOp::kLt: return Value::boolean(int_arg(a, n.span) < int_arg(b, n.span));
      case ast::BinaryOp::kLe: return Value::boolean(int_arg(a, n.span) <= int_arg(b, n.span));
      case ast::BinaryOp::kGt: return Value::boolean(int_arg(a, n.span) > int_arg(b, n.span));
      case ast::BinaryOp::kGe: return Value::boolean(int_arg(a, n.span) >= int_arg(b, n.span));
      case ast::BinaryOp::kIn:
      case ast::BinaryOp::kNotIn: {
        bool found = false;
        if (b.kind == Kind::kZone) {
          found = a.kind == Kind::kCard && a.scalar >= 0 && s_.card_zone[static_cast<std::size_t>(a.scalar)] == b.scalar;
        } else {
          const std::int64_t key = a.kind == Kind::kSet ? mask_of(a, n.span) : a.scalar;
          found = std::binary_search(b.items.begin(), b.items.end(), key);
        }
        return Value::boolean(op == ast::BinaryOp::kIn ? found : !found);
      }
      case ast::BinaryOp::kAdd:
      case ast::BinaryOp::kSub: {
        if (a.kind == Kind::kSet || a.kind == Kind::kZone || b.kind == Kind::kSet || b.kind == Kind::kZone) {
          const std::vector<std::int64_t> x = as_sorted(a, n.span);
          const std::vector<std::int64_t> y = as_sorted(b, n.span);
          std::vector<std::int64_t> out;
          if (op == ast::BinaryOp::kAdd) {
            std::set_union(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
          } else {
            std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
          }
          const Kind kind = element_kind(a) != Kind::kNone ? element_kind(a) : element_kind(b);
          return Value::set(kind, std::move(out), a.enum_id >= 0 ? a.enum_id : b.enum_id);
        }
        const std::int64_t x = int_arg(a, n.span), y = int_arg(b, n.span);
        return Value::integer(op == ast::BinaryOp::kAdd ? x + y : x - y);
      }
      case ast::BinaryOp::kMul: return Value::integer(int_arg(a, n.span) * int_arg(b, n.span));
      case ast::BinaryOp::kDiv:
      case ast::BinaryOp::kMod: {
        const std::int64_t y = int_arg(b, n.span);
        if (y == 0) fault(n.span, "division by zero");
        const std::int64_t x = int_arg(a, n.span);
        return Value::integer(op == ast::BinaryOp::kDiv ? x / y : x % y);
      }
      default: break;
    }
    fault(n.span, "unknown operator");
  }

  std::int64_t mask_of(const Value& set, const grammar::SourceSpan& span) const {
    std::uint64_t mask = 0;
    for (const std::int64_t x : set.items) {
      if (x < 0 || x >= 64) fault(span, "only sets of players can be elements of sets");
      mask |= std::uint64_t{1} << x;
    }
    return static_cast<std::int64_t>(mask);
  }

  Value builtin(const ExprNode& n) {
    const auto b = static_cast<Builtin>(n.sub);
    auto arg = [&](std::size_t i) { return eval(n.kids.at(i)); };
    switch (b) {
      case Builtin::kCount: return Value::integer(static_cast<std::int64_t>(count_of(arg(0), n.span)));
      case Builtin::kEmpty: return Value::boolean(count_of(arg(0), n.span) == 0);
      case Builtin::kTop:
      case Builtin::kBottom: {
        const Value z = arg(0);
        const std::int32_t inst = zone_instance(z, n.span);
        const auto& cards = s_.zones[static_cast<std::size_t>(inst)];
        const bool top = b == Builtin::kTop;
        if (n.kids.size() == 2) {
          const std::int64_t k = int_arg(arg(1), n.span);
          if (k < 0 || static_cast<std::size_t>(k) > cards.size()) {
            fault(n.span, fmt::format("{}({}, {}): the zone holds {} card{}", top ? "top" : "bottom",
                                      zone_label(inst), k, cards.size(), cards.size() == 1 ? "" : "s"));
          }
          std::vector<std::int64_t> out;
          const auto count = static_cast<std::size_t>(k);
          for (std::size_t i = 0; i < count; ++i) out.push_back(top ? cards[cards.size() - 1 - i] : cards[i]);
          return Value::set(Kind::kCard, sorted_unique(std::move(out)));
        }
        if (cards.empty()) fault(n.span, fmt::format("{}({}): the zone is empty", top ? "top" : "bottom", zone_label(inst)));
        return Value::card(top ? cards.back() : cards.front());
      }
      case Builtin::kRank: return Value::integer(card(card_arg(arg(0), n.span)).rank);
      case Builtin::kSuit: return Value::enumeration(kEnumSuit, card(card_arg(arg(0), n.span)).suit);
      case Builtin::kColor: return Value::enumeration(kEnumColor, card(card_arg(arg(0), n.span)).color);
      case Builtin::kKind: return Value::enumeration(kEnumKind, card(card_arg(arg(0), n.span)).kind);
      case Builtin::kFaceUp: return Value::boolean(s_.card_face_up[static_cast<std::size_t>(card_arg(arg(0), n.span))] != 0);
      case Builtin::kFaceDown: return Value::boolean(s_.card_face_up[static_cast<std::size_t>(card_arg(arg(0), n.span))] == 0);
      case Builtin::kIndex: {
        const CardId c = card_arg(arg(0), n.span);
        const auto& cards = s_.zones[static_cast<std::size_t>(s_.card_zone[static_cast<std::size_t>(c)])];
        return Value::integer(std::find(cards.begin(), cards.end(), c) - cards.begin());
      }
      case Builtin::kLeftOf: return Value::player(at_offset(player_arg(arg(0), n.span), 1));
      case Builtin::kRightOf: return Value::player(at_offset(player_arg(arg(0), n.span), -1));
      case Builtin::kOpposite: {
        if (seats() % 2 != 0) fault(n.span, fmt::format("no seat is opposite with {} seats", seats()));
        return Value::player(at_offset(player_arg(arg(0), n.span), seats() / 2));
      }
      case Builtin::kDistance: {
        const PlayerId a = player_arg(arg(0), n.span), c = player_arg(arg(1), n.span);
        const std::int64_t d = s_.seat_of[static_cast<std::size_t>(c)] - s_.seat_of[static_cast<std::size_t>(a)];
        return Value::integer((d % seats() + seats()) % seats());
      }
      case Builtin::kSubsets: {
        const Value set = arg(0);
        const std::int64_t lo = int_arg(arg(1), n.span), hi = int_arg(arg(2), n.span);
        const std::vector<std::int64_t> items = as_sorted(set, n.span);
        if (element_kind(set) != Kind::kPlayer && !items.empty()) fault(n.span, "subsets() takes a set of players");
        std::vector<std::int64_t> out;
        const std::size_t m = items.size();
        if (m > 20) fault(n.span, "subsets() of more than 20 players");
        for (std::uint64_t pick = 0; pick < (std::uint64_t{1} << m); ++pick) {
          const auto size = static_cast<std::int64_t>(__builtin_popcountll(pick));
          if (size < lo || size > hi) continue;
          std::uint64_t mask = 0;
          for (std::size_t i = 0; i < m; ++i) {
            if ((pick >> i) & 1U) mask |= std::uint64_t{1} << items[i];
          }
          out.push_back(static_cast<std::int64_t>(mask));
        }
        return Value::set(Kind::kPlayerSet, sorted_unique(std::move(out)));
      }
      case Builtin::kMax: return Value::integer(std::max(int_arg(arg(0), n.span), int_arg(arg(1), n.span)));
      case Builtin::kMin: return Value::integer(std::min(int_arg(arg(0), n.span), int_arg(arg(1), n.span)));
    }
    fault(n.span, "unknown builtin");
  }

  std::size_t count_of(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind == Kind::kZone) return s_.zones[static_cast<std::size_t>(v.scalar)].size();
    if (v.kind != Kind::kSet) fault(span, "expected a set or a zone");
    return v.items.size();
  }

  const std::string& zone_label(std::int32_t instance) const {
    return ir_.instance_names[static_cast<std::size_t>(instance)];
  }

  // ---- cards ----

  void take_out(CardId c) {
    auto& from = s_.zones[static_cast<std::size_t>(s_.card_zone[static_cast<std::size_t>(c)])];
    from.erase(std::find(from.begin(), from.end(), c));
  }

  void put(CardId c, std::int32_t zone, bool at_bottom, std::size_t bottom_position, std::uint8_t flags) {
    auto& to = s_.zones[static_cast<std::size_t>(zone)];
    if (at_bottom) {
      to.insert(to.begin() + static_cast<std::ptrdiff_t>(std::min(bottom_position, to.size())), c);
    } else {
      to.push_back(c);
    }
    s_.card_zone[static_cast<std::size_t>(c)] = zone;
    if ((flags & kFaceUp) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 1;
    if ((flags & kFaceDown) != 0) s_.card_face_up[static_cast<std::size_t>(c)] = 0;
  }

  // The cards an effect acts on, in order: a zone's cards bottom to top, a set's by identity.
  std::vector<CardId> card_list(const Value& v, const grammar::SourceSpan& span) const {
    if (v.kind == Kind::kCard) return {card_arg(v, span)};
    if (v.kind == Kind::kZone) return s_.zones[static_cast<std::size_t>(v.scalar)];
    if (v.kind == Kind::kSet && (v.element == Kind::kCard || v.items.empty())) {
      return {v.items.begin(), v.items.end()};
    }
    fault(span, "expected cards");
  }

  // ---- statements ----

  void write(const Instr& in, bool add, std::int32_t slot, Value value) {
    if (s_.holding && (in.flags & kDeferred) != 0) {
      s_.held.push_back(HeldWrite{slot, add, std::move(value)});
      return;
    }
    apply_write(slot, add, std::move(value), in.span);
  }

  void apply_write(std::int32_t slot, bool add, Value value, const grammar::SourceSpan& span) {
    Value& target = s_.vars[static_cast<std::size_t>(slot)];
    if (add) {
      target.scalar += int_arg(value, span);
    } else {
      target = std::move(value);
    }
  }

  void init_vars(bool per_round_only) {
    for (const VarInfo& v : ir_.vars) {
      if (v.init < 0 || (per_round_only && !v.per_round)) continue;
      if (v.per_player) {
        for (std::int64_t p = 0; p < seats(); ++p) {
          s_.locals[static_cast<std::size_t>(v.param)] = Value::player(p);
          s_.vars[static_cast<std::size_t>(v.first_slot + p)] = eval(v.init);
        }
      } else {
        s_.vars[static_cast<std::size_t>(v.first_slot)] = eval(v.init);
      }
    }
  }

  // Runs until a decision, the end, or a fault.
  void run() {
    std::int64_t steps = 0;
    try {
      while (!s_.finished && !s_.decision) {
        if (++steps > Machine::kMaxStepsBetweenDecisions) {
          fault(ir_.code[static_cast<std::size_t>(s_.pc)].span,
                fmt::format("no decision and no end after {} steps: the rules loop", steps - 1));
        }
        step();
      }
    } catch (const FaultSignal& f) {
      const Instr& in = ir_.code[static_cast<std::size_t>(s_.pc)];
      s_.fault = Fault{f.message, in.rule, f.span.valid() ? f.span : in.span};
      s_.finished = true;
      s_.decision.reset();
    }
    s_.steps += steps;
    if (s_.finished && sink_ != nullptr) sink_->ended(s_);
  }

  void step() {
    const Instr& in = ir_.code[static_cast<std::size_t>(s_.pc)];
    std::int32_t next = s_.pc + 1;
    switch (in.code) {
      case OpCode::kLet: s_.locals[static_cast<std::size_t>(in.a)] = eval(in.b); break;
      case OpCode::kChoose:
        if (choose(in)) return;  // waits for a move
        break;
      case OpCode::kMove: {
        const std::vector<CardId> cards = card_list(eval(in.a), in.span);
        const std::int32_t target = zone_instance(eval(in.b), in.span);
        std::size_t position = 0;
        for (const CardId c : cards) {
          take_out(c);
          put(c, target, (in.flags & kAtBottom) != 0, position++, in.flags);
        }
        break;
      }
      case OpCode::kDeal: {
        const std::int64_t count = int_arg(eval(in.a), in.span);
        const std::int32_t from = zone_instance(eval(in.b), in.span);
        const std::int32_t to = zone_instance(eval(in.c), in.span);
        auto& source = s_.zones[static_cast<std::size_t>(from)];
        if (count < 0 || static_cast<std::size_t>(count) > source.size()) {
          fault(in.span, fmt::format("deal {} from {}, which holds {} card{}", count, zone_label(from),
                                     source.size(), source.size() == 1 ? "" : "s"));
        }
        std::vector<CardId> dealt;
        for (std::int64_t i = 0; i < count; ++i) {
          const CardId c = source.back();
          source.pop_back();
          put(c, to, false, 0, in.flags);
          dealt.push_back(c);
        }
        if (sink_ != nullptr) sink_->dealt(s_, from, to, dealt);
        break;
      }
      case OpCode::kShuffle: {
        const std::int32_t zone = zone_instance(eval(in.a), in.span);
        auto& cards = s_.zones[static_cast<std::size_t>(zone)];
        if (s_.next_scripted < s_.scripted_shuffles.size()) {
          std::vector<CardId> order = s_.scripted_shuffles[s_.next_scripted++];
          std::vector<CardId> a = order, b = cards;
          std::sort(a.begin(), a.end());
          std::sort(b.begin(), b.end());
          if (a != b) {
            fault(in.span, fmt::format("shuffle {}: the given order ({} cards) is not an order of the {} cards in the zone",
                                       zone_label(zone), order.size(), cards.size()));
          }
          cards = std::move(order);
        } else {
          s_.rng.shuffle(cards);
        }
        if (sink_ != nullptr) sink_->shuffled(s_, zone);
        break;
      }
      case OpCode::kFlip:
        for (const CardId c : card_list(eval(in.a), in.span)) {
          s_.card_face_up[static_cast<std::size_t>(c)] = (in.flags & kFaceUp) != 0 ? 1 : 0;
        }
        break;
      case OpCode::kSet:
      case OpCode::kAdd: {
        const std::int32_t slot = var_slot(in.a, in.b, in.span);
        write(in, in.code == OpCode::kAdd, slot, eval(in.c));
        break;
      }
      case OpCode::kSwapSeats: {
        const PlayerId a = player_arg(eval(in.a), in.span), b = player_arg(eval(in.b), in.span);
        std::swap(s_.seat_of[static_cast<std::size_t>(a)], s_.seat_of[static_cast<std::size_t>(b)]);
        s_.player_at[static_cast<std::size_t>(s_.seat_of[static_cast<std::size_t>(a)])] = a;
        s_.player_at[static_cast<std::size_t>(s_.seat_of[static_cast<std::size_t>(b)])] = b;
        break;
      }
      case OpCode::kEndGame:
        s_.winners.clear();
        if (in.a >= 0) {
          const Value w = eval(in.a);
          for (const std::int64_t p : w.items) s_.winners.push_back(static_cast<PlayerId>(p));
        }
        s_.finished = true;
        return;
      case OpCode::kJump: next = in.target; break;
      case OpCode::kJumpIfFalse:
        if (!eval(in.a).truthy()) next = in.target;
        break;
      case OpCode::kRepeatInit: {
        const std::int64_t count = int_arg(eval(in.b), in.span);
        if (count < 0) fault(in.span, fmt::format("repeat {} times", count));
        s_.locals[static_cast<std::size_t>(in.a)] = Value::integer(count);
        break;
      }
      case OpCode::kRepeatNext: {
        Value& counter = s_.locals[static_cast<std::size_t>(in.a)];
        if (counter.scalar <= 0) {
          next = in.target;
        } else {
          --counter.scalar;
        }
        break;
      }
      case OpCode::kForInit: {
        const Value domain = eval(in.b);
        Value list = Value::set(element_kind(domain), ordered(domain, in.c, in.d, in.span), domain.enum_id);
        s_.locals[static_cast<std::size_t>(in.a)] = std::move(list);  // items in walk order
        s_.locals[static_cast<std::size_t>(in.e)] = Value::integer(0);
        break;
      }
      case OpCode::kForNext: {
        const Value& list = s_.locals[static_cast<std::size_t>(in.a)];
        Value& position = s_.locals[static_cast<std::size_t>(in.e)];
        if (static_cast<std::size_t>(position.scalar) >= list.items.size()) {
          next = in.target;
        } else {
          s_.locals[static_cast<std::size_t>(in.b)] =
              element(list.element, list.enum_id, list.items[static_cast<std::size_t>(position.scalar)]);
          ++position.scalar;
        }
        break;
      }
      case OpCode::kBeginSecret:
        s_.holding = true;
        s_.held.clear();
        break;
      case OpCode::kEndSecret:
        s_.holding = false;
        for (HeldWrite& w : s_.held) apply_write(w.slot, w.add, std::move(w.value), in.span);
        s_.held.clear();
        break;
      case OpCode::kFire: ++s_.fired[static_cast<std::size_t>(in.a)]; break;
      case OpCode::kRoundStart:
        ++s_.rounds;
        init_vars(true);
        if (sink_ != nullptr) sink_->round_started(s_);
        break;
    }
    s_.pc = next;
  }

  // Returns true when the game now waits for a move.
  bool choose(const Instr& in) {
    const Value domain = eval(in.b);
    const PlayerId chooser = player_arg(eval(in.c), in.span);
    const Kind kind = element_kind(domain);
    std::vector<Value> options;
    for (const std::int64_t x : elements(domain, in.span)) {
      Value v = element(kind, domain.enum_id, x);
      if (in.d >= 0) {
        s_.locals[static_cast<std::size_t>(in.a)] = v;
        if (!eval(in.d).truthy()) continue;
      }
      options.push_back(std::move(v));
    }
    if (options.empty()) {
      fault(in.span, fmt::format("seat {} has no legal choice{}", s_.seat_of[static_cast<std::size_t>(chooser)],
                                 in.rule >= 0 ? fmt::format(" in rule '{}'", ir_.labels[static_cast<std::size_t>(in.rule)]) : ""));
    }
    const bool automated = s_.vars[static_cast<std::size_t>(ir_.vars[0].first_slot + chooser)].truthy();
    if (automated && in.e >= 0) {
      s_.locals[Ir::kChooserSlot] = Value::player(chooser);
      std::vector<std::int64_t> legal;
      for (const Value& o : options) legal.push_back(o.kind == Kind::kPlayerSet ? mask_of(o, in.span) : o.scalar);
      s_.locals[Ir::kLegalSlot] = Value::set(kind, sorted_unique(std::move(legal)), domain.enum_id);
      const Value picked = eval(in.e);
      const auto it = std::find_if(options.begin(), options.end(), [&](const Value& o) { return equal(o, picked); });
      if (it == options.end()) fault(in.span, "the policy's choice is not a legal choice");
      s_.locals[static_cast<std::size_t>(in.a)] = *it;
      ++s_.moves;
      if (sink_ != nullptr) sink_->chose(s_, chooser, in.rule, *it, true);
      return false;
    }
    s_.decision = Decision{chooser, in.rule, s_.pc, std::move(options), s_.holding};
    return true;
  }

 private:
  const Ir& ir_;
  State& s_;
  EventSink* sink_;
};

std::string rank_text(std::int64_t rank) {
  switch (rank) {
    case 11: return "J";
    case 12: return "Q";
    case 13: return "K";
    case 14: return "A";
    default: return std::to_string(rank);
  }
}

Value parse_option(const OptionInfo& option, const std::string& text, const Ir& ir) {
  switch (option.type.kind) {
    case grammar::Type::Kind::kInt: {
      std::int64_t v = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
      if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
        throw ConfigError(fmt::format("option '{}' takes an int, not '{}'", option.name, text));
      }
      if (option.has_range && (v < option.min || v > option.max)) {
        throw ConfigError(fmt::format("option '{}' must be in {}..{}, not {}", option.name, option.min, option.max, v));
      }
      return Value::integer(v);
    }
    case grammar::Type::Kind::kBool:
      if (text == "true") return Value::boolean(true);
      if (text == "false") return Value::boolean(false);
      throw ConfigError(fmt::format("option '{}' takes true or false, not '{}'", option.name, text));
    case grammar::Type::Kind::kEnum:
      for (std::size_t e = 0; e < ir.enums.size(); ++e) {
        if (ir.enums[e].name != option.type.enum_name) continue;
        const auto& values = ir.enums[e].values;
        const auto it = std::find(values.begin(), values.end(), text);
        if (it != values.end()) return Value::enumeration(static_cast<std::int32_t>(e), it - values.begin());
        throw ConfigError(fmt::format("option '{}' takes one of {}, not '{}'", option.name,
                                      fmt::join(values, ", "), text));
      }
      break;
    default: break;
  }
  throw ConfigError(fmt::format("option '{}' cannot be set", option.name));
}

}  // namespace

bool equal(const Value& a, const Value& b) {
  if (a.kind == Kind::kSet || b.kind == Kind::kSet) {
    return a.kind == b.kind && a.items == b.items;
  }
  return a.scalar == b.scalar;
}

State Machine::start(const GameConfig& config, EventSink* sink) const {
  const Ir& ir = *ir_;
  State s;
  s.num_players = static_cast<std::int32_t>(config.players == 0 ? ir.players_max : config.players);
  if (s.num_players < ir.players_min || s.num_players > ir.players_max) {
    throw ConfigError(fmt::format("'{}' is for {} to {} players, not {}", ir.title, ir.players_min,
                                  ir.players_max, s.num_players));
  }
  s.rng.reseed(config.seed);
  s.locals.resize(static_cast<std::size_t>(ir.local_slots));
  s.vars.resize(static_cast<std::size_t>(ir.var_slots));
  s.options.reserve(ir.options.size());
  for (const OptionInfo& o : ir.options) s.options.push_back(o.default_value);
  for (const auto& [name, text] : config.options) {
    const auto it = std::find_if(ir.options.begin(), ir.options.end(), [&](const OptionInfo& o) { return o.name == name; });
    if (it == ir.options.end()) {
      std::vector<std::string> known;
      for (const OptionInfo& o : ir.options) known.push_back(o.name);
      throw ConfigError(fmt::format("'{}' has no option '{}' (options: {})", ir.title, name,
                                    known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
    }
    s.options[static_cast<std::size_t>(it - ir.options.begin())] = parse_option(*it, text, ir);
  }
  s.num_seats = static_cast<std::int32_t>(ir.fixed_seats ? ir.seats : s.num_players);
  const auto seats = static_cast<std::size_t>(s.num_seats);
  s.seat_of.resize(seats);
  s.player_at.resize(seats);
  for (std::size_t p = 0; p < seats; ++p) {
    s.seat_of[p] = static_cast<std::int32_t>(p);
    s.player_at[p] = static_cast<PlayerId>(p);
    s.vars[static_cast<std::size_t>(ir.vars[0].first_slot) + p] = Value::boolean(static_cast<std::int64_t>(p) >= s.num_players);
  }
  s.fired.assign(ir.labels.size(), 0);
  s.zones.resize(static_cast<std::size_t>(ir.zone_instances));

  Executor exec(ir, s, sink);
  // The cards of this game.
  auto cards = std::make_shared<std::vector<CardInfo>>();
  try {
    if (ir.standard52) {
      static constexpr const char* kSuitLetters = "CDHS";
      for (std::int64_t suit = kSuitClubs; suit <= kSuitSpades; ++suit) {
        for (std::int64_t rank = 2; rank <= 14; ++rank) {
          const std::int64_t color = suit == kSuitDiamonds || suit == kSuitHearts ? kColorRed : kColorBlack;
          cards->push_back(CardInfo{rank_text(rank) + kSuitLetters[suit], rank, suit, color, 0});
        }
      }
    }
    for (std::int64_t j = 1; j <= ir.jokers; ++j) cards->push_back(CardInfo{fmt::format("JK{}", j), 0, -1, -1, 1});
    s.cards = cards;  // kind counts below may read options, not cards
    for (std::size_t k = 0; k < ir.card_kinds.size(); ++k) {
      const Value count = exec.eval(ir.card_kinds[k].second);
      if (count.scalar < 0 || count.scalar > 10000) {
        throw ConfigError(fmt::format("{} '{}' cards is out of range (0 to 10000)", count.scalar, ir.card_kinds[k].first));
      }
      for (std::int64_t i = 1; i <= count.scalar; ++i) {
        cards->push_back(CardInfo{fmt::format("{}{}", ir.card_kinds[k].first, i), 0, -1, -1,
                                  static_cast<std::int64_t>(2 + k)});
      }
    }
  } catch (const FaultSignal& f) {
    throw ConfigError(f.message);
  }
  for (const std::vector<std::string>& order : config.scripted_shuffles) {
    std::vector<CardId> ids;
    for (const std::string& name : order) {
      const auto it = std::find_if(cards->begin(), cards->end(), [&](const CardInfo& c) { return c.name == name; });
      if (it == cards->end()) throw ConfigError(fmt::format("a scripted shuffle names '{}', which is no card of this game", name));
      ids.push_back(static_cast<CardId>(it - cards->begin()));
    }
    s.scripted_shuffles.push_back(std::move(ids));
  }
  s.card_zone.assign(cards->size(), 0);
  s.card_face_up.assign(cards->size(), 0);
  for (std::size_t c = 0; c < cards->size(); ++c) s.zones[0].push_back(static_cast<CardId>(c));
  try {
    exec.init_vars(false);
  } catch (const FaultSignal& f) {
    s.fault = Fault{f.message, -1, f.span};
    s.finished = true;
    return s;
  }
  exec.run();
  return s;
}

const std::vector<Value>& Machine::legal_moves(const State& state) const {
  static const std::vector<Value> kNone;
  return state.decision ? state.decision->options : kNone;
}

void Machine::apply(State& state, std::size_t index, EventSink* sink) const {
  if (!state.decision) throw std::logic_error("apply: the game is not waiting for a move");
  if (index >= state.decision->options.size()) throw std::out_of_range("apply: no such move");
  const Instr& in = ir_->code[static_cast<std::size_t>(state.decision->instr)];
  Value chosen = state.decision->options[index];
  const PlayerId player = state.decision->player;
  state.locals[static_cast<std::size_t>(in.a)] = chosen;
  state.decision.reset();
  ++state.moves;
  ++state.pc;
  if (sink != nullptr) sink->chose(state, player, in.rule, chosen, false);
  Executor(*ir_, state, sink).run();
}

void Machine::refresh(State& state, EventSink* sink) const {
  if (!state.decision) return;
  state.decision.reset();  // pc still points at the choice
  Executor(*ir_, state, sink).run();
}

std::vector<std::vector<std::int64_t>> Machine::scores(const State& state) const {
  State scratch = state;  // scores evaluate definitions, which write local slots
  Executor exec(*ir_, scratch, nullptr);
  std::vector<std::vector<std::int64_t>> out;
  for (const ScoreInfo& score : ir_->scores) {
    std::vector<std::int64_t> row;
    for (std::int64_t p = 0; p < state.num_seats; ++p) {
      scratch.locals[static_cast<std::size_t>(score.param)] = Value::player(p);
      try {
        row.push_back(exec.eval(ir_->defs[static_cast<std::size_t>(score.value)].body).scalar);
      } catch (const FaultSignal&) {
        row.push_back(0);
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string Machine::card_name(const State& state, CardId card) const {
  if (card < 0 || static_cast<std::size_t>(card) >= state.cards->size()) return "none";
  return (*state.cards)[static_cast<std::size_t>(card)].name;
}

const std::string& Machine::zone_name(std::int32_t instance) const {
  static const std::string kUnknown = "?";
  if (instance < 0 || static_cast<std::size_t>(instance) >= ir_->instance_names.size()) return kUnknown;
  return ir_->instance_names[static_cast<std::size_t>(instance)];
}

CardId Machine::card_by_name(const State& state, const std::string& name) const {
  for (std::size_t c = 0; c < state.cards->size(); ++c) {
    if ((*state.cards)[c].name == name) return static_cast<CardId>(c);
  }
  return -1;
}

std::string Machine::value_text(const State& state, const Value& v) const {
  switch (v.kind) {
    case Kind::kNone: return "none";
    case Kind::kInt: return std::to_string(v.scalar);
    case Kind::kBool: return v.scalar != 0 ? "true" : "false";
    case Kind::kPlayer: return v.scalar < 0 ? "none" : fmt::format("player {}", v.scalar);
    case Kind::kCard: return card_name(state, static_cast<CardId>(v.scalar));
    case Kind::kEnum:
      if (v.scalar < 0 || v.enum_id < 0) return "none";
      return ir_->enums[static_cast<std::size_t>(v.enum_id)].values[static_cast<std::size_t>(v.scalar)];
    case Kind::kZone: return zone_name(static_cast<std::int32_t>(v.scalar));
    case Kind::kPlayerSet:
    case Kind::kSet: {
      std::vector<std::string> parts;
      for (const std::int64_t x : v.items) {
        Value e;
        if (v.element == Kind::kPlayerSet) {
          e = players_of_mask(x);
        } else {
          e.kind = v.element;
          e.enum_id = v.enum_id;
          e.scalar = x;
        }
        parts.push_back(value_text(state, e));
      }
      return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }
  }
  return "?";
}

std::string Machine::where(const grammar::SourceSpan& span) const {
  if (!span.valid() || span.file >= ir_->file_paths.size()) return "?";
  return fmt::format("{}:{}", ir_->file_paths[span.file], span.line);
}

std::string Machine::summary(const State& state) const {
  std::string out = fmt::format("round {}, {} moves; seats:", state.rounds, state.moves);
  for (std::size_t seat = 0; seat < state.player_at.size(); ++seat) {
    out += fmt::format(" {}=player {}", seat, state.player_at[seat]);
  }
  out += "\nzones:";
  for (std::int32_t z = 0; z < ir_->zone_instances; ++z) {
    const auto& cards = state.zones[static_cast<std::size_t>(z)];
    if (cards.empty()) continue;
    std::vector<std::string> names;
    for (const CardId c : cards) names.push_back(card_name(state, c) + (state.card_face_up[static_cast<std::size_t>(c)] != 0 ? "" : "*"));
    out += fmt::format("\n  {} [{}]: {}", zone_name(z), cards.size(), fmt::join(names, " "));
  }
  out += "\nvariables:";
  for (const VarInfo& v : ir_->vars) {
    if (v.per_player) {
      std::vector<std::string> values;
      for (std::int64_t p = 0; p < state.num_seats; ++p) values.push_back(value_text(state, state.vars[static_cast<std::size_t>(v.first_slot + p)]));
      out += fmt::format("\n  {}: {}", v.name, fmt::join(values, ", "));
    } else {
      out += fmt::format("\n  {}: {}", v.name, value_text(state, state.vars[static_cast<std::size_t>(v.first_slot)]));
    }
  }
  out += "\n(* face down; cards listed bottom to top)";
  return out;
}

View Machine::view(const State& state, PlayerId viewer, ViewDetail detail) const {
  View v;
  v.viewer = viewer;
  v.rounds = state.rounds;
  v.finished = state.finished;
  if (state.decision) {
    v.to_move = state.decision->player;
    v.rule = state.decision->rule;
    if (state.decision->player == viewer) v.legal = state.decision->options;
  }
  if (detail == ViewDetail::kDecisionOnly) return v;
  v.seat_of = state.seat_of;
  for (const ZoneInfo& z : ir_->zones) {
    const std::int32_t width = z.per_player ? state.num_seats : 1;
    for (std::int32_t i = 0; i < width; ++i) {
      const std::int32_t instance = z.first_instance + i;
      ZoneView zv;
      zv.instance = instance;
      zv.name = zone_name(instance);
      const bool zone_visible = z.visibility == grammar::ast::Visibility::kPublic ||
                                (z.visibility == grammar::ast::Visibility::kOwner && z.per_player && i == viewer);
      for (const CardId c : state.zones[static_cast<std::size_t>(instance)]) {
        const bool up = state.card_face_up[static_cast<std::size_t>(c)] != 0;
        zv.cards.push_back(up || zone_visible ? std::optional<CardId>(c) : std::nullopt);
        zv.face_up.push_back(up);
      }
      v.zones.push_back(std::move(zv));
    }
  }
  for (const VarInfo& var : ir_->vars) {
    if (var.per_player) {
      for (std::int64_t p = 0; p < state.num_seats; ++p) {
        v.vars.emplace_back(fmt::format("{}({})", var.name, p), state.vars[static_cast<std::size_t>(var.first_slot + p)]);
      }
    } else {
      v.vars.emplace_back(var.name, state.vars[static_cast<std::size_t>(var.first_slot)]);
    }
  }
  return v;
}

}  // namespace rulebook::interpreter
