#include "rulebook/grammar/spelling.hpp"

namespace rulebook::grammar {

std::string_view spelling(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kOr: return "or";
    case ast::BinaryOp::kAnd: return "and";
    case ast::BinaryOp::kEq: return "==";
    case ast::BinaryOp::kNe: return "!=";
    case ast::BinaryOp::kLt: return "<";
    case ast::BinaryOp::kLe: return "<=";
    case ast::BinaryOp::kGt: return ">";
    case ast::BinaryOp::kGe: return ">=";
    case ast::BinaryOp::kIn: return "in";
    case ast::BinaryOp::kNotIn: return "not in";
    case ast::BinaryOp::kAdd: return "+";
    case ast::BinaryOp::kSub: return "-";
    case ast::BinaryOp::kMul: return "*";
    case ast::BinaryOp::kDiv: return "/";
    case ast::BinaryOp::kMod: return "%";
  }
  return "?";
}

std::string_view spelling(ast::QuantKind kind) {
  switch (kind) {
    case ast::QuantKind::kExists: return "exists";
    case ast::QuantKind::kAll: return "all";
    case ast::QuantKind::kCount: return "count";
    case ast::QuantKind::kSum: return "sum";
  }
  return "?";
}

std::string_view spelling(ast::Visibility visibility) {
  switch (visibility) {
    case ast::Visibility::kHidden: return "hidden";
    case ast::Visibility::kOwner: return "owner";
    case ast::Visibility::kPublic: return "public";
  }
  return "?";
}

std::string spelling(const ast::TypeExpr& type) {
  switch (type.kind) {
    case ast::TypeExpr::Kind::kInt: return "int";
    case ast::TypeExpr::Kind::kBool: return "bool";
    case ast::TypeExpr::Kind::kPlayer: return "player";
    case ast::TypeExpr::Kind::kCard: return "card";
    case ast::TypeExpr::Kind::kNamed: return type.name;
    case ast::TypeExpr::Kind::kSetOf: return "set of " + spelling(type.element.at(0));
  }
  return "?";
}

}  // namespace rulebook::grammar
