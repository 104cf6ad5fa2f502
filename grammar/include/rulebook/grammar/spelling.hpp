// How AST alternatives are written in rule text: one table for the checker's messages, the
// formatter and the tree dump.
#pragma once

#include <string>
#include <string_view>

#include "rulebook/grammar/ast.hpp"

namespace rulebook::grammar {

std::string_view spelling(ast::BinaryOp op);       // `and`, `==`, `not in`, ...
std::string_view spelling(ast::QuantKind kind);    // `exists`, `all`, `count`, `sum`
std::string_view spelling(ast::Visibility visibility);  // `hidden`, `owner`, `public`
std::string spelling(const ast::TypeExpr& type);   // `int`, `set of player`, an enum's name

}  // namespace rulebook::grammar
