// A span-free dump of the AST: part of the front end because the grammar's own tests compare
// it, and the formatter (authoring/) checks its round trip with it.
#pragma once

#include <string>

#include "rulebook/grammar/ast.hpp"

namespace rulebook::grammar {

// A one-line-per-node S-expression of the tree without source spans: what the grammar
// tests compare, and how "parses to the same tree" is checked.
std::string dump_ast(const ast::RulesFile& file);
std::string dump_expr(const ast::Expr& expr);
std::string dump_stmt(const ast::Stmt& stmt);

}  // namespace rulebook::grammar
