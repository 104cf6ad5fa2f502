#include "rulebook/ir/types.hpp"

namespace rulebook::ir {

TypeTable::TypeTable() {
  // In the order of the fixed ids.
  for (const TypeKind kind : {TypeKind::kUnknown, TypeKind::kInt, TypeKind::kBool, TypeKind::kPlayer, TypeKind::kCard,
                              TypeKind::kZone, TypeKind::kNone}) {
    intern(TypeInfo{kind, -1, -1});
  }
}

TypeId TypeTable::intern(const TypeInfo& info) {
  const auto [it, added] = ids_.try_emplace(std::tuple{info.kind, info.enum_id, info.element}, static_cast<TypeId>(types_.size()));
  if (added) types_.push_back(info);
  return it->second;
}

std::string type_name(const TypeTable& types, TypeId id, const std::vector<std::string>& enum_names) {
  if (id < 0 || static_cast<std::size_t>(id) >= types.size()) return "?";
  const TypeInfo& t = types[id];
  switch (t.kind) {
    case TypeKind::kUnknown: return "unknown";
    case TypeKind::kInt: return "int";
    case TypeKind::kBool: return "bool";
    case TypeKind::kPlayer: return "player";
    case TypeKind::kCard: return "card";
    case TypeKind::kZone: return "zone";
    case TypeKind::kNone: return "none";
    case TypeKind::kEnum:
      return t.enum_id >= 0 && static_cast<std::size_t>(t.enum_id) < enum_names.size()
                 ? enum_names[static_cast<std::size_t>(t.enum_id)]
                 : "enum?";
    case TypeKind::kSet: return "set of " + type_name(types, t.element, enum_names);
  }
  return "?";
}

}  // namespace rulebook::ir
