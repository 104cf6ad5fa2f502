// The types of IR values, as the checker gave them: every expression, local slot, variable,
// option and definition of an Ir carries one. Players, cards, zones, enums (which one) and
// integers are distinct kinds, and a set says what it holds, so a back end never guesses
// what a slot holds from the values it happened to see.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace rulebook::ir {

using TypeId = std::int32_t;  // index into TypeTable; kNoType: not typed (see kUnknown)

enum class TypeKind : std::uint8_t {
  kUnknown,  // the slot holds values of different types (the policy's `legal` set) or none at all
  kInt,
  kBool,
  kPlayer,
  kCard,
  kEnum,     // enum_id says which
  kZone,     // a zone instance, usable where a set of cards is
  kSet,      // element says of what
  kNone,     // the literal `none` before it meets a player, card or enum
};

struct TypeInfo {
  TypeKind kind = TypeKind::kUnknown;
  std::int32_t enum_id = -1;  // kEnum: index into Ir::enums
  TypeId element = -1;        // kSet: the element type (kUnknown for an empty literal `{}`)
  friend bool operator==(const TypeInfo&, const TypeInfo&) = default;
};

// Interned types: equal types have equal ids, so a back end compares ids.
class TypeTable {
 public:
  TypeTable();
  TypeId intern(const TypeInfo& info);
  TypeId set_of(TypeId element) { return intern(TypeInfo{TypeKind::kSet, -1, element}); }
  [[nodiscard]] const TypeInfo& operator[](TypeId id) const { return types_[static_cast<std::size_t>(id)]; }
  [[nodiscard]] std::size_t size() const { return types_.size(); }

  // Fixed ids of the scalar types.
  static constexpr TypeId kUnknownType = 0;
  static constexpr TypeId kIntType = 1;
  static constexpr TypeId kBoolType = 2;
  static constexpr TypeId kPlayerType = 3;
  static constexpr TypeId kCardType = 4;
  static constexpr TypeId kZoneType = 5;
  static constexpr TypeId kNoneType = 6;

 private:
  std::vector<TypeInfo> types_;
  // The id of each type by value: a program of many enum types has as many types, and a
  // search of types_ for each would make lowering quadratic in them.
  std::map<std::tuple<TypeKind, std::int32_t, TypeId>, TypeId> ids_;
};

// How the language writes the type: `int`, `set of player`, `suit` (enum names by id).
std::string type_name(const TypeTable& types, TypeId id, const std::vector<std::string>& enum_names);

}  // namespace rulebook::ir
