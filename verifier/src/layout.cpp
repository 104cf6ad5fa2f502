#include "layout.hpp"

#include <algorithm>
#include <map>

#include "liveness.hpp"
#include "size_limits.hpp"
#include "static_value.hpp"

#include <fmt/format.h>

namespace rulebook::verifier {

namespace {

using ir::ExprOp;
using ir::Kind;
using ir::Value;

std::optional<std::int64_t> as_int(const std::optional<Value>& v) {
  if (!v || (v->kind == Kind::kSet || v->kind == Kind::kZone)) return std::nullopt;
  return v->scalar;
}

}  // namespace

namespace {

bool card_domain(const ir::Ir& ir, ir::ExprId id) {
  const ir::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  if (n.op == ExprOp::kZone || n.op == ExprOp::kAllCards) return true;
  if (n.op == ExprOp::kComprehension) return card_domain(ir, n.kids[0]);
  return false;
}

// Collects the boolean parts of a filter over a card that depend on the card's attributes
// only and tell some cards apart.
void split_predicates(const ir::Ir& ir, const Setting& setting, StaticValues& values, ir::ExprId id, ir::Slot slot,
                      std::vector<std::pair<ir::ExprId, ir::Slot>>& out) {
  if (id < 0) return;
  StaticEnv env;
  bool all_static = true;
  bool seen_true = false, seen_false = false;
  for (std::size_t c = 0; c < setting.cards.size() && all_static; ++c) {
    env[slot] = Value::card(static_cast<std::int64_t>(c));
    const auto v = as_int(values.value(id, env));
    if (!v) {
      all_static = false;
    } else {
      (*v != 0 ? seen_true : seen_false) = true;
    }
  }
  if (all_static) {
    if (seen_true && seen_false) out.emplace_back(id, slot);
    return;
  }
  const ir::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  if (n.op == ExprOp::kNot || n.op == ExprOp::kCond ||
      (n.op == ExprOp::kBinary && (static_cast<ir::BinaryOp>(n.sub) == ir::BinaryOp::kAnd ||
                                   static_cast<ir::BinaryOp>(n.sub) == ir::BinaryOp::kOr))) {
    for (const ir::ExprId k : n.kids) split_predicates(ir, setting, values, k, slot, out);
  }
}

}  // namespace

CardClasses card_classes(const ir::Ir& ir, const Setting& setting) {
  StaticValues values(ir, setting);
  std::vector<std::pair<ir::ExprId, ir::Slot>> predicates;
  for (const ir::ExprNode& n : ir.exprs) {
    if (n.op == ExprOp::kComprehension && card_domain(ir, n.kids[0])) {
      split_predicates(ir, setting, values, n.kids[1], n.index, predicates);
    } else if (n.op == ExprOp::kQuant && card_domain(ir, n.kids[0])) {
      split_predicates(ir, setting, values, n.kids[1], n.index, predicates);
    } else if (n.op == ExprOp::kFirst && card_domain(ir, n.kids[0])) {
      split_predicates(ir, setting, values, n.kids[2], n.index, predicates);
    }
  }
  for (const ir::Instr& in : ir.code) {
    if (in.code == ir::OpCode::kChoose && in.d >= 0 && card_domain(ir, in.b)) {
      split_predicates(ir, setting, values, in.d, in.a, predicates);
    }
    if (in.code == ir::OpCode::kChooseMixed) {
      for (const ir::AlternativeInfo& a : ir.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
        if (a.domain >= 0 && a.guard >= 0 && card_domain(ir, a.domain)) split_predicates(ir, setting, values, a.guard, a.slot, predicates);
      }
    }
  }
  CardClasses classes;
  std::map<std::vector<bool>, std::int32_t> by_signature;
  for (std::size_t c = 0; c < setting.cards.size(); ++c) {
    std::vector<bool> signature;
    for (const auto& [p, slot] : predicates) {
      StaticEnv env;
      env[slot] = Value::card(static_cast<std::int64_t>(c));
      const auto v = as_int(values.value(p, env));
      signature.push_back(v && *v != 0);
    }
    auto [it, inserted] = by_signature.try_emplace(signature, classes.count());
    if (inserted) {
      classes.size.push_back(0);
      classes.representative.push_back(static_cast<ri::CardId>(c));
      classes.signature.push_back(signature);
    }
    classes.class_of.push_back(it->second);
    ++classes.size[static_cast<std::size_t>(it->second)];
  }
  if (classes.size.empty()) {
    classes.size.push_back(0);
    classes.representative.push_back(-1);
  }
  classes.predicate_exprs = predicates;
  classes.predicate_at.assign(ir.exprs.size(), -1);
  for (std::size_t p = 0; p < predicates.size(); ++p) {
    classes.predicate_at[static_cast<std::size_t>(predicates[p].first)] = static_cast<std::int32_t>(p);
  }
  for (const auto& [p, slot] : predicates) {
    const grammar::SourceSpan& span = ir.expr_spans[static_cast<std::size_t>(p)];
    classes.predicates.push_back(fmt::format("{}:{}", ir.file_paths.empty() ? "" : ir.file_paths[span.file], span.line));
  }
  return classes;
}

namespace {
bool scalar_kind(Kind k) { return k == Kind::kInt || k == Kind::kBool || k == Kind::kPlayer || k == Kind::kEnum; }
}  // namespace

Layout make_layout(const ir::Ir& ir, const Setting& setting, const CardClasses& classes, const SlotKinds& kinds) {
  Layout layout;
  layout.classes = classes.count();
  layout.instances = ir.zone_instances;
  layout.seats = setting.seats;
  for (std::int32_t i = 0; i < ir.zone_instances; ++i) {
    for (std::int32_t k = 0; k < layout.classes; ++k) {
      std::string name = fmt::format("count({})", ir.instance_names[static_cast<std::size_t>(i)]);
      if (layout.classes > 1) name += fmt::format("[class {}]", k);
      layout.names.push_back(std::move(name));
    }
  }
  std::int32_t families = 0;
  for (const ir::ZoneInfo& zone : ir.zones) {
    for (std::int32_t p = 0; p < (zone.per_player ? setting.seats : 1); ++p) {
      for (std::int32_t k = 0; k < layout.classes; ++k) {
        layout.family.push_back(zone.per_player ? families : -1);
        layout.owner.push_back(zone.per_player ? p : -1);
      }
    }
    if (zone.per_player) families += 1;
  }
  if (layout.family.size() != layout.names.size()) {
    layout.family.assign(layout.names.size(), -1);
    layout.owner.assign(layout.names.size(), -1);
  }
  // The dimension just named belongs to player p (dimensions named without one get -1).
  const auto owned_by = [&layout](std::int32_t p) {
    layout.owner.resize(layout.names.size(), -1);
    layout.owner.back() = p;
  };
  layout.var_index.assign(static_cast<std::size_t>(ir.var_slots), -1);
  for (const ir::VarInfo& v : ir.vars) {
    const std::int32_t width = v.per_player ? setting.seats : 1;
    for (std::int32_t p = 0; p < width; ++p) {
      const auto slot = static_cast<std::size_t>(v.first_slot + p);
      const Kind k = slot < kinds.var.size() ? kinds.var[slot] : Kind::kNone;
      if (k != Kind::kNone && !scalar_kind(k)) continue;
      layout.var_index[slot] = layout.size();
      layout.names.push_back(v.per_player ? fmt::format("{}({})", v.name, p) : v.name);
      layout.family.push_back(v.per_player ? families : -1);
      layout.owner.push_back(v.per_player ? p : -1);
    }
    if (v.per_player) ++families;
  }
  for (const ir::Instr& in : ir.code) {
    if (in.code == ir::OpCode::kSwapSeats) layout.seats_move = true;
  }
  if (layout.seats_move) {
    for (std::int32_t p = 0; p < setting.seats; ++p) {
      layout.seat_index.push_back(layout.size());
      layout.names.push_back(fmt::format("seat_of({})", p));
    }
  }
  const auto slots = static_cast<std::size_t>(ir.local_slots);
  layout.local_shape.assign(slots, SlotShape::kUntracked);
  layout.local_index.assign(slots, -1);
  layout.list_position.assign(slots, -1);
  layout.list_direction.assign(slots, 0);
  std::vector<bool> is_list(slots, false);
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    const ir::Instr& in = ir.code[pc];
    if (in.code != ir::OpCode::kForInit) continue;
    is_list[static_cast<std::size_t>(in.a)] = true;
    layout.list_position[static_cast<std::size_t>(in.a)] = in.e;
    // The walk order is kept unless seats can move while the loop runs.
    const std::int32_t end = ir.code[pc + 1].target;
    bool swaps = false;
    for (std::int32_t q = static_cast<std::int32_t>(pc) + 1; q < end; ++q) {
      swaps = swaps || ir.code[static_cast<std::size_t>(q)].code == ir::OpCode::kSwapSeats;
    }
    const bool counter = in.c == static_cast<std::int32_t>(ir::OrderKind::kCounterclockwise) + 1;
    layout.list_direction[static_cast<std::size_t>(in.a)] = swaps ? 0 : counter ? -1 : 1;
  }
  const std::set<ir::Slot> bound = expression_slots(ir);
  for (std::size_t s = 0; s < slots; ++s) {
    if (bound.count(static_cast<ir::Slot>(s)) != 0) continue;  // lives inside one expression
    const Kind k = s < kinds.local.size() ? kinds.local[s] : Kind::kNone;
    const std::string where = s < ir.local_names.size() && !ir.local_names[s].empty()
                                  ? fmt::format("local {}#{}", ir.local_names[s], s)
                                  : fmt::format("local #{}", s);
    if (is_list[s]) {
      if (k != Kind::kSet) continue;
      if (kinds.local_element[s] == Kind::kPlayer) {
        layout.local_shape[s] = SlotShape::kPlayerList;
        layout.local_index[s] = layout.size();
        for (std::int32_t p = 0; p < setting.seats; ++p) {
          layout.names.push_back(fmt::format("{}.to_visit({})", where, p));
          owned_by(p);
        }
        layout.names.push_back(where + ".start_seat");
      } else {
        layout.local_shape[s] = SlotShape::kCountList;
        layout.local_index[s] = layout.size();
        layout.names.push_back(where + ".to_visit");
      }
    } else if (scalar_kind(k)) {
      layout.local_shape[s] = SlotShape::kScalar;
      layout.local_index[s] = layout.size();
      layout.names.push_back(where);
    } else if (k == Kind::kCard) {
      layout.local_shape[s] = SlotShape::kCard;
      layout.local_index[s] = layout.size();
      layout.names.push_back(where + ".zone");
      layout.names.push_back(where + ".class");
    }
  }
  // Values read through a player: per player-valued dimension, each per-player zone's count
  // and each per-player scalar variable.
  layout.base_size = layout.size();
  std::vector<std::pair<std::int32_t, std::string>> player_dims;
  for (const ir::VarInfo& v : ir.vars) {
    if (v.per_player) continue;
    const auto slot = static_cast<std::size_t>(v.first_slot);
    if (layout.var_index[slot] >= 0 && slot < kinds.var.size() && kinds.var[slot] == Kind::kPlayer) {
      player_dims.emplace_back(layout.var_index[slot], v.name);
    }
  }
  for (std::size_t s = 0; s < slots; ++s) {
    if (layout.local_shape[s] == SlotShape::kScalar && kinds.local[s] == Kind::kPlayer) {
      player_dims.emplace_back(layout.local_index[s], layout.names[static_cast<std::size_t>(layout.local_index[s])]);
    }
  }
  if (layout.classes > 1) {
    for (std::int32_t i = 0; i < ir.zone_instances; ++i) {
      Derived total;
      total.instance = i;
      layout.derived.push_back(total);
      layout.names.push_back(fmt::format("count({})", ir.instance_names[static_cast<std::size_t>(i)]));
      owned_by(layout.owner[static_cast<std::size_t>(layout.count_index(i, 0))]);
    }
  }
  for (const auto& [dim, name] : player_dims) {
    for (std::size_t z = 0; z < ir.zones.size(); ++z) {
      if (!ir.zones[z].per_player) continue;
      layout.derived.push_back(Derived{dim, static_cast<std::int32_t>(z), -1});
      layout.names.push_back(fmt::format("count({}({}))", ir.zones[z].name, name));
    }
    for (std::size_t v = 0; v < ir.vars.size(); ++v) {
      const ir::VarInfo& info = ir.vars[v];
      if (!info.per_player) continue;
      bool kept = true;
      for (std::int32_t p = 0; p < setting.seats; ++p) kept = kept && layout.var_index[static_cast<std::size_t>(info.first_slot + p)] >= 0;
      if (!kept) continue;
      layout.derived.push_back(Derived{dim, -1, static_cast<std::int32_t>(v)});
      layout.names.push_back(fmt::format("{}({})", info.name, name));
    }
  }
  // Per pair of player-valued locals that are live at one position: whether they are the same.
  const std::vector<std::set<ir::Slot>> live = live_locals(ir);
  std::vector<std::size_t> player_locals;
  for (std::size_t s = 0; s < slots; ++s) {
    if (layout.local_shape[s] == SlotShape::kScalar && kinds.local[s] == Kind::kPlayer) player_locals.push_back(s);
  }
  for (std::size_t i = 0; i < player_locals.size(); ++i) {
    for (std::size_t j = i + 1; j < player_locals.size(); ++j) {
      const auto a = static_cast<ir::Slot>(player_locals[i]), b = static_cast<ir::Slot>(player_locals[j]);
      bool together = false;
      for (std::size_t pc = 0; pc < live.size() && !together; ++pc) together = live[pc].count(a) != 0 && live[pc].count(b) != 0;
      if (!together) continue;
      Derived same;
      same.player_dim = layout.local_index[player_locals[i]];
      same.same_as_dim = layout.local_index[player_locals[j]];
      layout.derived.push_back(same);
      layout.names.push_back(fmt::format("{} == {}", layout.names[static_cast<std::size_t>(same.player_dim)],
                                         layout.names[static_cast<std::size_t>(same.same_as_dim)]));
    }
  }
  // Past the verifier's limit nothing is decided (size_limits.hpp): the tables per
  // position (instructions times numbers) are not built, the size is all the caller needs.
  if (layout.size() > kMaxStateNumbers) {
    layout.family.resize(layout.names.size(), -1);
    layout.owner.resize(layout.names.size(), -1);
    return layout;
  }
  // Per position, the dimensions of locals that are not live there.
  layout.dead.assign(ir.code.size(), std::vector<bool>(static_cast<std::size_t>(layout.size()), false));
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    std::vector<bool>& dead = layout.dead[pc];
    for (std::size_t s = 0; s < slots; ++s) {
      if (layout.local_index[s] < 0 || live[pc].count(static_cast<ir::Slot>(s)) != 0) continue;
      std::int32_t width = 1;
      if (layout.local_shape[s] == SlotShape::kCard) width = 2;
      if (layout.local_shape[s] == SlotShape::kPlayerList) width = setting.seats + 1;
      for (std::int32_t i = 0; i < width; ++i) dead[static_cast<std::size_t>(layout.local_index[s] + i)] = true;
      // A for-each list's position goes with the list.
      if (layout.list_position[s] >= 0 && layout.local_index[static_cast<std::size_t>(layout.list_position[s])] >= 0 &&
          live[pc].count(layout.list_position[s]) == 0) {
        dead[static_cast<std::size_t>(layout.local_index[static_cast<std::size_t>(layout.list_position[s])])] = true;
      }
    }
    for (std::size_t i = 0; i < layout.derived.size(); ++i) {
      for (const std::int32_t on : {layout.derived[i].player_dim, layout.derived[i].same_as_dim}) {
        if (on >= 0 && dead[static_cast<std::size_t>(on)]) dead[static_cast<std::size_t>(layout.base_size) + i] = true;
      }
    }
  }
  // The invariant of a position inside walks over the players splits by who is still to
  // be visited.
  layout.key_dims.assign(ir.code.size(), {});
  for (std::size_t pc = 0; pc < ir.code.size(); ++pc) {
    for (std::size_t s = 0; s < slots; ++s) {
      if (live[pc].count(static_cast<ir::Slot>(s)) == 0) continue;
      if (layout.local_shape[s] == SlotShape::kPlayerList) {
        for (std::int32_t p = 0; p < setting.seats; ++p) layout.key_dims[pc].push_back(layout.local_index[s] + p);
      } else if (layout.local_shape[s] == SlotShape::kScalar && (kinds.local[s] == Kind::kBool || kinds.local[s] == Kind::kEnum)) {
        // A choice just made (an action, a yes or no) decides what comes next.
        layout.key_dims[pc].push_back(layout.local_index[s]);
      }
    }
  }
  layout.family.resize(layout.names.size(), -1);
  layout.owner.resize(layout.names.size(), -1);
  return layout;
}

namespace {
std::int64_t instance_total(const Layout& layout, std::int32_t instance, const std::vector<std::int64_t>& x) {
  std::int64_t total = 0;
  for (std::int32_t k = 0; k < layout.classes; ++k) total += x[static_cast<std::size_t>(layout.count_index(instance, k))];
  return total;
}
}  // namespace

std::int64_t derived_value(const ir::Ir& ir, const Layout& layout, const Derived& d, const std::vector<std::int64_t>& x) {
  if (d.instance >= 0) return instance_total(layout, d.instance, x);
  if (d.same_as_dim >= 0) {
    return x[static_cast<std::size_t>(d.player_dim)] == x[static_cast<std::size_t>(d.same_as_dim)] ? 1 : 0;
  }
  const std::int64_t p = x[static_cast<std::size_t>(d.player_dim)];
  if (p < 0 || p >= layout.seats) return 0;
  if (d.zone >= 0) {
    return instance_total(layout, ir.zones[static_cast<std::size_t>(d.zone)].first_instance + static_cast<std::int32_t>(p), x);
  }
  const ir::VarInfo& info = ir.vars[static_cast<std::size_t>(d.var)];
  return x[static_cast<std::size_t>(layout.var_index[static_cast<std::size_t>(info.first_slot + p)])];
}

std::vector<std::int64_t> project(const ir::Ir& ir, const Layout& layout, const CardClasses& classes,
                                  const ri::State& state) {
  std::vector<std::int64_t> x(static_cast<std::size_t>(layout.size()), 0);
  for (std::size_t i = 0; i < state.zones.size(); ++i) {
    for (const ri::CardId c : state.zones[i]) {
      ++x[static_cast<std::size_t>(layout.count_index(static_cast<std::int32_t>(i),
                                                      classes.class_of[static_cast<std::size_t>(c)]))];
    }
  }
  for (std::size_t s = 0; s < layout.var_index.size(); ++s) {
    if (layout.var_index[s] >= 0) x[static_cast<std::size_t>(layout.var_index[s])] = state.vars[s].scalar;
  }
  for (std::size_t p = 0; p < layout.seat_index.size(); ++p) {
    x[static_cast<std::size_t>(layout.seat_index[p])] = state.seat_of[p];
  }
  for (std::size_t s = 0; s < layout.local_shape.size(); ++s) {
    const auto at = static_cast<std::size_t>(layout.local_index[s]);
    const Value& v = state.locals[s];
    switch (layout.local_shape[s]) {
      case SlotShape::kUntracked: break;
      case SlotShape::kScalar: x[at] = v.kind == Kind::kNone ? -1 : v.scalar; break;
      case SlotShape::kCard:
        if (v.kind == Kind::kCard && v.scalar >= 0) {
          x[at] = state.card_zone[static_cast<std::size_t>(v.scalar)];
          x[at + 1] = classes.class_of[static_cast<std::size_t>(v.scalar)];
        } else {
          x[at] = -1;
          x[at + 1] = -1;
        }
        break;
      case SlotShape::kPlayerList:
      case SlotShape::kCountList: {
        const std::int64_t position =
            state.locals[static_cast<std::size_t>(layout.list_position[s])].scalar;
        const bool started = v.kind == Kind::kSet && position >= 0;
        if (layout.local_shape[s] == SlotShape::kCountList) {
          x[at] = started ? static_cast<std::int64_t>(v.items.size()) - position : 0;
        } else if (started) {
          for (std::size_t i = static_cast<std::size_t>(position); i < v.items.size(); ++i) {
            x[at + static_cast<std::size_t>(v.items[i])] = 1;
          }
          // The seat the walk started from; where seats move inside the walk (direction 0) the
          // encoding follows no order and keeps no start (0), as a swap would move it.
          if (!v.items.empty() && layout.list_direction[s] != 0) {
            x[at + static_cast<std::size_t>(layout.seats)] = state.seat_of[static_cast<std::size_t>(v.items[0])];
          }
        }
        break;
      }
    }
  }
  for (std::size_t i = 0; i < layout.derived.size(); ++i) {
    x[static_cast<std::size_t>(layout.base_size) + i] = derived_value(ir, layout, layout.derived[i], x);
  }
  return x;
}

}  // namespace rulebook::verifier
