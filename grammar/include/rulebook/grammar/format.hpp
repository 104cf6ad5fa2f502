// The canonical layout of a rule file (`rulebook fmt`), and a span-free dump of the AST.
#pragma once

#include <string>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/source.hpp"

namespace rulebook::grammar {

// Lines wider than this are wrapped where the formatter knows how: long `and`/`or` chains.
inline constexpr std::size_t kFormatWidth = 100;

// Prints `file` in canonical layout: two-space indentation, one statement or declaration
// per line, the fewest parentheses that keep the meaning, at most one blank line where the
// source had any. Comments of `source` (the text `file` was parsed from) are kept: each
// goes before the node that follows it, or stays at the end of the line it ended.
// Formatting is idempotent, and the result parses to the same tree as the input.
std::string format_rules(const ast::RulesFile& file, const SourceFile& source);

// A one-line-per-node S-expression of the tree without source spans: what the grammar
// tests compare, and how "parses to the same tree" is checked.
std::string dump_ast(const ast::RulesFile& file);
std::string dump_expr(const ast::Expr& expr);
std::string dump_stmt(const ast::Stmt& stmt);

}  // namespace rulebook::grammar
