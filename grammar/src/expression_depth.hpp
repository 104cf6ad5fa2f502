// The depth limit on expressions, measured on the parse tree before the AST is built.
//
// nested<> bounds how deep the parser recurses, but an operator chain `1 + 1 + ... + 1` is
// flat for the parser (one star<>) and left-deep in the AST: n operands make n - 1 levels, and
// every pass after the parser (checker, formatter, lowering, evaluation, the verifier's
// encoder, even the AST's destructor) recurses through them. This pass computes how deep each
// expression's AST will be and reports the first place that takes it past
// kMaxExpressionDepth; the builder puts a placeholder there instead of building the tree.
// Private to the grammar library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <unordered_set>

#include <fmt/format.h>
#include <tao/pegtl/contrib/parse_tree.hpp>

#include "grammar.hpp"
#include "rulebook/grammar/parse.hpp"

namespace rulebook::grammar::detail {

class ExpressionDepth {
 public:
  using Node = tao::pegtl::parse_tree::node;

  // Where an expression goes past the limit: the operator of a chain, or the node itself.
  struct Excess {
    const Node* node;  // the node to replace with a placeholder
    const Node* at;    // where to report it
  };

  // Walks the whole tree once; recursion follows the parse tree, whose depth nested<> bounds.
  std::vector<Excess> find(const Node& root) {
    excesses_.clear();
    depth(root);
    return std::move(excesses_);
  }

  static std::string message() {
    return fmt::format("expression more than {} levels deep: each operator of a chain like "
                       "'a + b + c' is a level, as is each nested expression; split it with 'def'",
                       kMaxExpressionDepth);
  }

 private:
  static bool is_chain(const Node& n) {
    return n.children.size() >= 3 &&
           (n.is_type<peg::or_expr>() || n.is_type<peg::and_expr>() || n.is_type<peg::cmp_expr>() ||
            n.is_type<peg::add_expr>() || n.is_type<peg::mul_expr>());
  }

  // The expression nodes that have expressions inside them; any other node with children is
  // a statement, a declaration or a type, whose expressions are measured each on its own.
  static bool is_compound_expression(const Node& n) {
    return n.is_type<peg::not_expr>() || n.is_type<peg::negate_expr>() || n.is_type<peg::seat_lit>() ||
           n.is_type<peg::call>() || n.is_type<peg::set_literal>() || n.is_type<peg::comprehension>() ||
           n.is_type<peg::quantifier>() || n.is_type<peg::extremum>() || n.is_type<peg::key_list>() ||
           n.is_type<peg::first_expr>() || n.is_type<peg::conditional>() || n.is_type<peg::name_ref>();
  }

  // How deep the AST of `n` will be (0 for a node that is not part of an expression).
  std::size_t depth(const Node& n) {
    if (is_chain(n)) {
      // Left-associative: the chain so far becomes the left operand of the next operator.
      std::size_t so_far = depth(*n.children[0]);
      for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
        so_far = std::max(so_far, depth(*n.children[i + 1])) + 1;
        if (so_far > kMaxExpressionDepth) {
          excesses_.push_back(Excess{&n, n.children[i].get()});
          return 1;  // the placeholder
        }
      }
      return so_far;
    }
    if (n.children.empty()) return 1;
    std::size_t deepest = 0;
    for (const auto& child : n.children) deepest = std::max(deepest, depth(*child));
    if (!is_compound_expression(n)) return 0;
    if (deepest + 1 > kMaxExpressionDepth) {
      excesses_.push_back(Excess{&n, &n});
      return 1;
    }
    return deepest + 1;
  }

  std::vector<Excess> excesses_;
};

}  // namespace rulebook::grammar::detail
