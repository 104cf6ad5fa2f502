// Runtime values. A value knows its own kind, so the interpreter needs no type table; sets
// are sorted vectors of scalars (player ids, card ids, enum ordinals, ints, or bit masks of
// players for sets of sets).
#pragma once

#include <cstdint>
#include <vector>

namespace rulebook::ir {

enum class Kind : std::uint8_t { kNone, kInt, kBool, kPlayer, kCard, kEnum, kZone, kSet, kPlayerSet };

struct Value {
  Kind kind = Kind::kNone;
  Kind element = Kind::kNone;  // sets: the kind of the elements (kPlayerSet: masks of players)
  std::int32_t enum_id = -1;   // kEnum, or a set of enum values: which enum
  std::int64_t scalar = -1;    // int, bool (0/1), player, card, enum ordinal, zone instance; -1 is none
  std::vector<std::int64_t> items;  // sets, sorted and unique

  Value() = default;
  Value(Kind kind_, Kind element_, std::int32_t enum_id_, std::int64_t scalar_, std::vector<std::int64_t> items_)
      : kind(kind_), element(element_), enum_id(enum_id_), scalar(scalar_), items(std::move(items_)) {}
  // Most values are scalars, copied in every read of a variable or a local: the copy of an
  // empty set stays inline (std::vector's own copy is a call, a tenth of the instructions).
  Value(const Value& other)
      : kind(other.kind), element(other.element), enum_id(other.enum_id), scalar(other.scalar) {
    if (!other.items.empty()) items = other.items;
  }
  Value& operator=(const Value& other) {
    kind = other.kind;
    element = other.element;
    enum_id = other.enum_id;
    scalar = other.scalar;
    if (!other.items.empty() || !items.empty()) items = other.items;
    return *this;
  }
  Value(Value&&) noexcept = default;
  Value& operator=(Value&&) noexcept = default;
  ~Value() = default;

  static Value none() { return Value{}; }
  static Value integer(std::int64_t v) { return Value{Kind::kInt, Kind::kNone, -1, v, {}}; }
  static Value boolean(bool v) { return Value{Kind::kBool, Kind::kNone, -1, v ? 1 : 0, {}}; }
  static Value player(std::int64_t p) { return Value{Kind::kPlayer, Kind::kNone, -1, p, {}}; }
  static Value card(std::int64_t c) { return Value{Kind::kCard, Kind::kNone, -1, c, {}}; }
  static Value enumeration(std::int32_t id, std::int64_t ordinal) {
    return Value{Kind::kEnum, Kind::kNone, id, ordinal, {}};
  }
  static Value zone(std::int64_t instance) { return Value{Kind::kZone, Kind::kNone, -1, instance, {}}; }
  static Value set(Kind element, std::vector<std::int64_t> sorted_items, std::int32_t enum_id = -1) {
    return Value{Kind::kSet, element, enum_id, -1, std::move(sorted_items)};
  }

  [[nodiscard]] bool truthy() const { return scalar != 0; }
  [[nodiscard]] bool is_none() const { return scalar == -1 && kind != Kind::kInt && kind != Kind::kSet; }
};

// Equality as the language defines it: scalars by value (`none` equals an absent player,
// card or enum value), sets by their elements.
bool equal(const Value& a, const Value& b);

}  // namespace rulebook::ir
