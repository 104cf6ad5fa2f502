// The parse tree to the AST: expressions (operator chains folded left-associative, literals,
// calls, quantifiers, extrema, `first`, conditionals) and the orders of walks.
#include "build_ast.hpp"

namespace rulebook::grammar::detail {

bool Builder::is_operator(const Node& n) {
  return n.is_type<peg::op_or>() || n.is_type<peg::op_and>() || n.is_type<peg::op_eq>() ||
         n.is_type<peg::op_ne>() || n.is_type<peg::op_le>() || n.is_type<peg::op_ge>() ||
         n.is_type<peg::op_lt>() || n.is_type<peg::op_gt>() || n.is_type<peg::op_not_in>() ||
         n.is_type<peg::op_in>() || n.is_type<peg::op_plus>() || n.is_type<peg::op_minus>() ||
         n.is_type<peg::op_times>() || n.is_type<peg::op_divide>() ||
         n.is_type<peg::op_modulo>();
}

ast::BinaryOp Builder::binary_op(const Node& n) {
  if (n.is_type<peg::op_or>()) return ast::BinaryOp::kOr;
  if (n.is_type<peg::op_and>()) return ast::BinaryOp::kAnd;
  if (n.is_type<peg::op_eq>()) return ast::BinaryOp::kEq;
  if (n.is_type<peg::op_ne>()) return ast::BinaryOp::kNe;
  if (n.is_type<peg::op_le>()) return ast::BinaryOp::kLe;
  if (n.is_type<peg::op_ge>()) return ast::BinaryOp::kGe;
  if (n.is_type<peg::op_lt>()) return ast::BinaryOp::kLt;
  if (n.is_type<peg::op_gt>()) return ast::BinaryOp::kGt;
  if (n.is_type<peg::op_not_in>()) return ast::BinaryOp::kNotIn;
  if (n.is_type<peg::op_in>()) return ast::BinaryOp::kIn;
  if (n.is_type<peg::op_plus>()) return ast::BinaryOp::kAdd;
  if (n.is_type<peg::op_minus>()) return ast::BinaryOp::kSub;
  if (n.is_type<peg::op_times>()) return ast::BinaryOp::kMul;
  if (n.is_type<peg::op_divide>()) return ast::BinaryOp::kDiv;
  return ast::BinaryOp::kMod;
}

ast::Order Builder::order(const Node& n, const Node* start) {
  ast::Order o;
  o.span = span(n);
  if (n.is_type<peg::order_cw>()) o.kind = ast::OrderKind::kClockwise;
  else if (n.is_type<peg::order_ccw>()) o.kind = ast::OrderKind::kCounterclockwise;
  else if (n.is_type<peg::order_up>()) o.kind = ast::OrderKind::kBottomToTop;
  else o.kind = ast::OrderKind::kTopToBottom;
  if (start != nullptr) {
    o.from.push_back(expr(*start));
    o.span = span_of(n.begin().byte, start->end().byte);
  }
  return o;
}

bool Builder::is_order(const Node& n) {
  return n.is_type<peg::order_cw>() || n.is_type<peg::order_ccw>() ||
         n.is_type<peg::order_up>() || n.is_type<peg::order_down>();
}

bool Builder::is_seat_order(const Node& n) {
  return n.is_type<peg::order_cw>() || n.is_type<peg::order_ccw>();
}

std::optional<ast::Order> Builder::maybe_order(const Node& n, std::size_t& i) {
  if (i >= n.children.size() || !is_order(*n.children[i])) return std::nullopt;
  const Node& word = *n.children[i];
  const Node* start = nullptr;
  ++i;
  if (is_seat_order(word)) start = n.children.at(i++).get();
  return order(word, start);
}

ast::Expr Builder::expr(const Node& n) {
  const SourceSpan s = span(n);
  // Too deep to build (reported in file()): a placeholder keeps every later pass bounded.
  if (too_deep_.count(&n) != 0) return make(ast::IntLit{0}, s);
  // Operator chains (folded when there is no operator): left-associative.
  if (n.children.size() >= 3 && is_operator(*n.children[1]) &&
      (n.is_type<peg::or_expr>() || n.is_type<peg::and_expr>() || n.is_type<peg::cmp_expr>() ||
       n.is_type<peg::add_expr>() || n.is_type<peg::mul_expr>())) {
    ast::Expr lhs = expr(*n.children[0]);
    for (std::size_t i = 1; i + 1 < n.children.size(); i += 2) {
      ast::Expr rhs = expr(*n.children[i + 1]);
      SourceSpan joined = span_of(lhs.span.begin, n.children[i + 1]->end().byte);
      lhs = make(ast::Binary{binary_op(*n.children[i]), std::move(lhs), std::move(rhs)}, joined);
    }
    return lhs;
  }
  if (n.is_type<peg::not_expr>()) {
    return make(ast::Unary{ast::UnaryOp::kNot, expr(*n.children.at(1))}, s);
  }
  if (n.is_type<peg::negate_expr>()) {
    return make(ast::Unary{ast::UnaryOp::kNegate, expr(*n.children.at(1))}, s);
  }
  if (n.is_type<peg::integer>()) return make(ast::IntLit{integer(n)}, s);
  if (n.is_type<peg::true_lit>()) return make(ast::BoolLit{true}, s);
  if (n.is_type<peg::false_lit>()) return make(ast::BoolLit{false}, s);
  if (n.is_type<peg::none_lit>()) return make(ast::NoneLit{}, s);
  if (n.is_type<peg::players_lit>()) return make(ast::PlayersLit{}, s);
  if (n.is_type<peg::seat_lit>()) return make(ast::SeatLit{expr(*n.children.at(0))}, s);
  if (n.is_type<peg::name_ref>()) return make(ast::NameRef{ident(n).text}, s);
  if (n.is_type<peg::call>()) {
    ast::Call call;
    const Node& callee = *n.children.at(0);
    call.callee = ast::Ident{std::string(trimmed(callee.string_view())), span(callee)};
    for (std::size_t i = 1; i < n.children.size(); ++i) call.args.push_back(expr(*n.children[i]));
    return make(std::move(call), s);
  }
  if (n.is_type<peg::set_literal>()) {
    ast::SetLit set;
    for (const auto& c : n.children) set.elements.push_back(expr(*c));
    return make(std::move(set), s);
  }
  if (n.is_type<peg::comprehension>()) {
    return make(ast::Comprehension{ident(*n.children.at(0)), expr(*n.children.at(1)),
                                   expr(*n.children.at(2))},
                s);
  }
  if (n.is_type<peg::quantifier>()) {
    const std::string_view word = trimmed(n.children.at(0)->string_view());
    ast::QuantKind kind = ast::QuantKind::kExists;
    if (word == "all") kind = ast::QuantKind::kAll;
    else if (word == "count") kind = ast::QuantKind::kCount;
    else if (word == "sum") kind = ast::QuantKind::kSum;
    return make(ast::Quantifier{kind, ident(*n.children.at(1)), expr(*n.children.at(2)),
                                expr(*n.children.at(3))},
                s);
  }
  if (n.is_type<peg::extremum>()) {
    ast::Extremum e;
    e.is_max = trimmed(n.children.at(0)->string_view()) == "max";
    e.var = ident(*n.children.at(1));
    e.domain = expr(*n.children.at(2));
    const Node& key = *n.children.at(3);
    if (key.is_type<peg::extremum_value>()) {
      e.value = true;
      e.keys.push_back(expr(*key.children.at(0)));
    } else if (key.is_type<peg::key_list>()) {
      for (const auto& k : key.children) e.keys.push_back(expr(*k));
    } else {
      e.keys.push_back(expr(key));
    }
    return make(std::move(e), s);
  }
  if (n.is_type<peg::first_expr>()) {
    ast::First f;
    f.var = ident(*n.children.at(0));
    f.domain = expr(*n.children.at(1));
    std::size_t i = 2;
    f.order = maybe_order(n, i);
    if (i < n.children.size()) f.filter = ast::Box<ast::Expr>(expr(*n.children[i]));
    return make(std::move(f), s);
  }
  if (n.is_type<peg::conditional>()) {
    return make(ast::Conditional{expr(*n.children.at(0)), expr(*n.children.at(1)),
                                 expr(*n.children.at(2))},
                s);
  }
  // Folded chains keep the single child's node; anything else is a bug in the selector.
  if (n.children.size() == 1) return expr(*n.children[0]);
  diagnostics_.error(Code::kInternal, s, fmt::format("internal error: unexpected parse node {}", n.type));
  return make(ast::IntLit{0}, s);
}

}  // namespace rulebook::grammar::detail
