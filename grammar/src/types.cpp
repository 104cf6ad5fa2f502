// Type helpers: printing, assignability and unification.
#include "rulebook/grammar/types.hpp"

namespace rulebook::grammar {

Type Type::element_type() const {
  if (kind == Kind::kSet && !element.empty()) return element.front();
  if (kind == Kind::kZone) return Type::card();
  return Type::error();
}

std::string to_string(const Type& type) {
  switch (type.kind) {
    case Type::Kind::kError:
      return "<error>";
    case Type::Kind::kInt:
      return "int";
    case Type::Kind::kBool:
      return "bool";
    case Type::Kind::kPlayer:
      return "player";
    case Type::Kind::kCard:
      return "card";
    case Type::Kind::kEnum:
      return type.enum_name;
    case Type::Kind::kNone:
      return "none";
    case Type::Kind::kZone:
      return "zone";
    case Type::Kind::kSet:
      if (type.element.empty() || type.element.front().is_error()) return "set";
      return "set of " + to_string(type.element.front());
  }
  return "<error>";
}

bool assignable(const Type& expected, const Type& actual) {
  if (expected.is_error() || actual.is_error()) return true;
  // `none`: no enum value, no player, no card.
  if ((expected.kind == Type::Kind::kEnum || expected.kind == Type::Kind::kPlayer || expected.kind == Type::Kind::kCard) &&
      actual.kind == Type::Kind::kNone) {
    return true;
  }
  if (expected.kind == Type::Kind::kSet && actual.kind == Type::Kind::kZone) {
    const Type element = expected.element_type();
    return element.is_error() || element.kind == Type::Kind::kCard;
  }
  if (expected.kind != actual.kind) return false;
  switch (expected.kind) {
    case Type::Kind::kEnum:
      return expected.enum_name == actual.enum_name;
    case Type::Kind::kSet:
      return assignable(expected.element_type(), actual.element_type());
    default:
      return true;
  }
}

bool unify(const Type& a, const Type& b, Type& out) {
  if (a.is_error()) {
    out = b;
    return true;
  }
  if (b.is_error()) {
    out = a;
    return true;
  }
  if (a.kind == Type::Kind::kNone && b.kind == Type::Kind::kEnum) {
    out = b;
    return true;
  }
  if (b.kind == Type::Kind::kNone && (a.kind == Type::Kind::kEnum || a.kind == Type::Kind::kNone)) {
    out = a;
    return true;
  }
  if (a.kind == Type::Kind::kZone && b.kind == Type::Kind::kZone) {
    out = Type::set_of(Type::card());
    return true;
  }
  if ((a.kind == Type::Kind::kZone && b.kind == Type::Kind::kSet) ||
      (a.kind == Type::Kind::kSet && b.kind == Type::Kind::kZone)) {
    const Type& set = a.kind == Type::Kind::kSet ? a : b;
    if (set.element_type().is_error() || set.element_type().kind == Type::Kind::kCard) {
      out = Type::set_of(Type::card());
      return true;
    }
    return false;
  }
  if (a.kind != b.kind) return false;
  if (a.kind == Type::Kind::kEnum) {
    out = a;
    return a.enum_name == b.enum_name;
  }
  if (a.kind == Type::Kind::kSet) {
    Type element;
    if (!unify(a.element_type(), b.element_type(), element)) return false;
    out = Type::set_of(element);
    return true;
  }
  out = a;
  return true;
}

}  // namespace rulebook::grammar
