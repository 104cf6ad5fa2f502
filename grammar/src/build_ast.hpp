// The second half of parsing: the PEGTL parse tree, built by the selector in parse.cpp, to
// the AST, with trimmed source spans on every node. Private to the grammar library. The
// builder is declared here and defined by part: build_ast.cpp (the file, spans, leaves,
// types), build_expr.cpp, build_stmt.cpp and build_decl.cpp.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "expression_depth.hpp"
#include "grammar.hpp"
#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::grammar::detail {

namespace pegtl = tao::pegtl;
namespace peg = rulebook::grammar::peg;
using Node = pegtl::parse_tree::node;

inline bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// ---- parse tree to AST -------------------------------------------------------------------

class Builder {
 public:
  Builder(const SourceFile& file, FileId id, Diagnostics& diagnostics);

  ast::RulesFile file(const Node& root);

  SourceSpan span_of(std::size_t begin, std::size_t end) const;

  ast::Expr expr(const Node& n);

 private:
  static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

  // ---- spans (build_ast.cpp) ----

  std::size_t trim_end(std::size_t begin, std::size_t end) const;
  std::pair<std::uint32_t, std::uint32_t> line_column(std::size_t offset) const;
  SourceSpan span(const Node& n) const { return span_of(n.begin().byte, n.end().byte); }

  // ---- leaves (build_ast.cpp) ----

  ast::Ident ident(const Node& n) const;
  // The string's text, unescaped; "" and an error where it holds a control character, or a
  // `\n` line break unless `newlines`.
  std::string string_of(const Node& string_node, bool newlines);
  std::int64_t integer(const Node& n);

  static constexpr std::int64_t kMaxLiteral = 1'000'000'000;

  // The word a keyword node starts with (its text also holds the layout after it).
  static std::string_view trimmed(std::string_view s);

  // ---- types (build_ast.cpp) ----

  ast::TypeExpr type(const Node& n);

  // ---- expressions (build_expr.cpp) ----

  static bool is_operator(const Node& n);
  static ast::BinaryOp binary_op(const Node& n);
  ast::Expr make(ast::Expr::Node node, SourceSpan s) { return ast::Expr{std::move(node), s}; }
  ast::Order order(const Node& n, const Node* start);
  static bool is_order(const Node& n);
  static bool is_seat_order(const Node& n);
  // Reads an optional order starting at children[i]; advances i past it.
  std::optional<ast::Order> maybe_order(const Node& n, std::size_t& i);

  // ---- statements (build_stmt.cpp) ----

  ast::Block block(const Node& n);
  std::optional<ast::Face> maybe_face(const Node& n, std::size_t i);
  ast::Stmt stmt(const Node& n);

  // ---- declarations (build_decl.cpp) ----

  void listed_twice(const SourceSpan& here, std::string_view item, const SourceSpan& first);
  ast::DefDecl def(const Node& n);
  ast::Decl decl(const Node& n);
  ast::PayoffValue payoff_value(const Node& n);

  const SourceFile& file_;
  FileId id_;
  Diagnostics& diagnostics_;
  std::vector<std::size_t> comment_start_;
  std::unordered_set<const Node*> too_deep_;  // expressions past kMaxExpressionDepth
};

}  // namespace rulebook::grammar::detail
