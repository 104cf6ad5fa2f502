// The kind of value each local slot and variable holds, read from the IR's types (the
// checker's). It used to be guessed from 40 sampled games, so that a slot no game reached was
// left out of the proof state and the precision of a proof depended on the seed.
#include "layout.hpp"

namespace rulebook::verifier {

namespace {

using ir::Kind;
using ir::TypeKind;

// The runtime kind of a value of `type` (value.hpp); kZone for what the layout does not keep
// (zones, sets of sets other than of players, a slot of no one type), kNone for `none`.
Kind kind_of(const ir::TypeTable& types, ir::TypeId type) {
  switch (types[type].kind) {
    case TypeKind::kInt: return Kind::kInt;
    case TypeKind::kBool: return Kind::kBool;
    case TypeKind::kPlayer: return Kind::kPlayer;
    case TypeKind::kCard: return Kind::kCard;
    case TypeKind::kEnum: return Kind::kEnum;
    case TypeKind::kSet: return Kind::kSet;
    case TypeKind::kNone: return Kind::kNone;
    case TypeKind::kZone:
    case TypeKind::kUnknown: return Kind::kZone;
  }
  return Kind::kZone;
}

// The kind of the elements of a set of `type`, as a set value records it.
Kind element_kind_of(const ir::TypeTable& types, ir::TypeId type) {
  const ir::TypeInfo& set = types[type];
  if (set.kind != TypeKind::kSet) return Kind::kNone;
  const ir::TypeInfo& element = types[set.element];
  if (element.kind == TypeKind::kSet) {
    return types[element.element].kind == TypeKind::kPlayer ? Kind::kPlayerSet : Kind::kZone;
  }
  if (element.kind == TypeKind::kUnknown) return Kind::kNone;  // the empty literal `{}`
  return kind_of(types, set.element);
}

}  // namespace

SlotKinds slot_kinds(const ir::Ir& ir) {
  SlotKinds kinds;
  for (const ir::TypeId type : ir.local_types) {
    kinds.local.push_back(kind_of(ir.types, type));
    kinds.local_element.push_back(element_kind_of(ir.types, type));
  }
  kinds.var.resize(static_cast<std::size_t>(ir.var_slots), Kind::kNone);
  for (const ir::VarInfo& var : ir.vars) {
    const std::int64_t width = var.per_player ? ir.seats : 1;
    for (std::int64_t i = 0; i < width; ++i) {
      kinds.var[static_cast<std::size_t>(var.first_slot + i)] = kind_of(ir.types, var.type);
    }
  }
  return kinds;
}

}  // namespace rulebook::verifier
