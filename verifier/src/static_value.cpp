// The values a setting decides, computed by the interpreter's evaluator (static_value.hpp).
#include "static_value.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "rulebook/interpreter/evaluator.hpp"

namespace rulebook::verifier {

namespace {

using ir::ExprOp;

// Definitions nest at most this deep here (the checker refuses recursive ones).
constexpr int kMaxDefDepth = 64;

// Whether `id` reads only the setting and the locals in `bound`: the shape of the
// expression, not its value (the interpreter computes that). Every branch must qualify, also
// one a condition would skip.
bool reads_only_setting(const ir::Ir& ir, ir::ExprId id, const std::vector<ir::Slot>& bound, int depth) {
  const ir::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  auto kids = [&]() {
    return std::all_of(n.kids.begin(), n.kids.end(),
                       [&](ir::ExprId k) { return k >= 0 && reads_only_setting(ir, k, bound, depth); });
  };
  switch (n.op) {
    case ExprOp::kConst:
    case ExprOp::kOption:
    case ExprOp::kNumPlayers:
    case ExprOp::kNumSeats: return true;
    case ExprOp::kLocal: return std::find(bound.begin(), bound.end(), n.index) != bound.end();
    case ExprOp::kNot:
    case ExprOp::kNeg:
    case ExprOp::kCond:
    case ExprOp::kSetLit:
    case ExprOp::kBinary: return kids();
    case ExprOp::kDef: {
      // A definition's body reads its parameters (and the setting): nothing of the caller.
      if (depth >= kMaxDefDepth || !kids()) return false;
      const ir::DefInfo& def = ir.defs[static_cast<std::size_t>(n.index)];
      return reads_only_setting(ir, def.body, def.params, depth + 1);
    }
    case ExprOp::kBuiltin:
      switch (static_cast<ir::Builtin>(n.sub)) {
        case ir::Builtin::kRank:
        case ir::Builtin::kSuit:
        case ir::Builtin::kColor:
        case ir::Builtin::kKind:
        case ir::Builtin::kMax:
        case ir::Builtin::kMin: return kids();
        default: return false;
      }
    default: return false;
  }
}

}  // namespace

StaticValues::StaticValues(const ir::Ir& ir, const Setting& setting) : ir_(ir) {
  state_.options = setting.options;
  state_.num_players = setting.players;
  state_.num_seats = setting.seats;
  state_.cards = std::make_shared<const std::vector<ir::CardInfo>>(setting.cards);
  state_.locals.resize(static_cast<std::size_t>(ir.local_slots));
}

std::optional<ir::Value> StaticValues::value(ir::ExprId id, const StaticEnv& env) {
  std::vector<ir::Slot> bound;
  for (const auto& [slot, v] : env) {
    // Only values the setting can hold: no zone (its cards are the game's), no card that
    // is not one of the setting's.
    if (v.kind == ir::Kind::kZone) return std::nullopt;
    if (v.kind == ir::Kind::kCard && v.scalar >= static_cast<std::int64_t>(state_.cards->size())) return std::nullopt;
    bound.push_back(slot);
  }
  if (!reads_only_setting(ir_, id, bound, 0)) return std::nullopt;
  for (const auto& [slot, v] : env) state_.locals[static_cast<std::size_t>(slot)] = v;
  return interpreter::Evaluator(ir_, state_).eval(id);
}

}  // namespace rulebook::verifier
