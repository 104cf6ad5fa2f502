// The types of the rules language, as the checker computes them.
#pragma once

#include <string>
#include <vector>

namespace rulebook::grammar {

struct Type {
  enum class Kind {
    kError,   // already reported; compatible with everything to avoid cascades
    kInt,
    kBool,
    kPlayer,
    kCard,
    kEnum,    // enum_name says which; `none` belongs to every enum
    kNone,    // the literal `none` before it meets an enum
    kSet,     // element holds the element type; an empty literal has element kError
    kZone,    // a zone, usable wherever a set of cards is
  };
  Kind kind = Kind::kError;
  std::string enum_name;
  std::vector<Type> element;  // kSet only: exactly one

  static Type error() { return Type{}; }
  static Type integer() { return Type{Kind::kInt, {}, {}}; }
  static Type boolean() { return Type{Kind::kBool, {}, {}}; }
  static Type player() { return Type{Kind::kPlayer, {}, {}}; }
  static Type card() { return Type{Kind::kCard, {}, {}}; }
  static Type zone() { return Type{Kind::kZone, {}, {}}; }
  static Type none() { return Type{Kind::kNone, {}, {}}; }
  static Type enumeration(std::string name) { return Type{Kind::kEnum, std::move(name), {}}; }
  static Type set_of(Type element) { return Type{Kind::kSet, {}, {std::move(element)}}; }

  [[nodiscard]] bool is(Kind k) const { return kind == k; }
  [[nodiscard]] bool is_error() const { return kind == Kind::kError; }
  // The element type of a set, or card for a zone; error otherwise.
  [[nodiscard]] Type element_type() const;
  [[nodiscard]] bool is_collection() const { return kind == Kind::kSet || kind == Kind::kZone; }
};

// How the type is written in the language: `int`, `set of player`, `suit`.
std::string to_string(const Type& type);

// True when a value of type `actual` may be used where `expected` is required
// (errors match anything, `none` fits any enum, player or card, a zone fits `set of card`).
bool assignable(const Type& expected, const Type& actual);

// The common type of two branches or set elements, or nullopt-like error when none.
bool unify(const Type& a, const Type& b, Type& out);

}  // namespace rulebook::grammar
