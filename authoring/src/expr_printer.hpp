// Printing expressions for the formatter: the fewest parentheses that keep the meaning,
// and a multi-line layout for expressions too wide for one line.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "rulebook/grammar/ast.hpp"
#include "rulebook/grammar/spelling.hpp"

namespace rulebook::authoring::detail {

namespace ast = grammar::ast;
using grammar::spelling;

// Binding strength, loosest first, as in the grammar.
enum Precedence : int {
  kPrecOr = 1,
  kPrecAnd,
  kPrecNot,
  kPrecCmp,
  kPrecAdd,
  kPrecMul,
  kPrecUnary,
  kPrecPrimary,
};

inline int precedence_of(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kOr: return kPrecOr;
    case ast::BinaryOp::kAnd: return kPrecAnd;
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub: return kPrecAdd;
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod: return kPrecMul;
    default: return kPrecCmp;
  }
}

inline int precedence_of(const ast::Expr& e) {
  if (const auto* b = std::get_if<ast::Binary>(&e.node)) return precedence_of(b->op);
  if (const auto* u = std::get_if<ast::Unary>(&e.node)) {
    return u->op == ast::UnaryOp::kNot ? kPrecNot : kPrecUnary;
  }
  return kPrecPrimary;
}

// Binders whose last part is an expression that would swallow a following operator:
// inside a larger expression they keep their parentheses.
inline bool is_open_ended(const ast::Expr& e) {
  if (std::holds_alternative<ast::Quantifier>(e.node) ||
      std::holds_alternative<ast::Conditional>(e.node)) {
    return true;
  }
  if (const auto* m = std::get_if<ast::Extremum>(&e.node)) return m->value || m->keys.size() == 1;
  if (const auto* f = std::get_if<ast::First>(&e.node)) return f->filter.has_value() || f->order.has_value();
  return false;
}

class ExprPrinter {
 public:
  // `min_prec`: the loosest expression allowed here without parentheses.
  std::string print(const ast::Expr& e, int min_prec) const {
    const bool parens = needs_parens(e, min_prec);
    std::string body = std::visit([&](const auto& n) { return node(n); }, e.node);
    return parens ? "(" + body + ")" : body;
  }
  std::string print(const ast::Expr& e) const { return print(e, kPrecOr); }

  // An expression over several lines: each line with its indentation in steps relative to
  // the first. Long `and`/`or` chains put one operand on a line, led by the operator; long
  // conditionals put `if`, `then` and `else` on lines of their own; long quantifiers put
  // their body one step in. Anything else stays on one line.
  using Lines = std::vector<std::pair<int, std::string>>;
  Lines layout(const ast::Expr& e, int min_prec, std::size_t width) const {
    std::string flat = print(e, min_prec);
    if (flat.size() <= width) return {{0, std::move(flat)}};
    const bool parens = needs_parens(e, min_prec);
    Lines out = layout_inner(e, parens ? width - 2 : width);
    if (parens) {
      out.front().second = "(" + out.front().second;
      out.back().second += ")";
    }
    return out;
  }

  std::string order(const ast::Order& o) const {
    switch (o.kind) {
      case ast::OrderKind::kClockwise: return "clockwise from " + print(o.from.at(0), kPrecAdd);
      case ast::OrderKind::kCounterclockwise:
        return "counterclockwise from " + print(o.from.at(0), kPrecAdd);
      case ast::OrderKind::kBottomToTop: return "bottom to top";
      case ast::OrderKind::kTopToBottom: return "top to bottom";
    }
    return "?";
  }

 private:
  static bool needs_parens(const ast::Expr& e, int min_prec) {
    return precedence_of(e) < min_prec || (min_prec > kPrecOr && is_open_ended(e));
  }

  // `prefix` goes before the first line; the lines after it move one step in.
  static void append(Lines& out, const std::string& prefix, Lines part) {
    part.front().second = prefix + part.front().second;
    if (!prefix.empty()) {
      for (std::size_t i = 1; i < part.size(); ++i) part[i].first += 1;
    }
    out.insert(out.end(), part.begin(), part.end());
  }

  static void collect_chain(const ast::Expr& e, ast::BinaryOp op, std::vector<const ast::Expr*>& out) {
    const auto* b = std::get_if<ast::Binary>(&e.node);
    if (b != nullptr && b->op == op) {
      collect_chain(*b->lhs, op, out);
      out.push_back(&*b->rhs);
    } else {
      out.push_back(&e);
    }
  }

  Lines layout_inner(const ast::Expr& e, std::size_t width) const {
    if (const auto* b = std::get_if<ast::Binary>(&e.node);
        b != nullptr && (b->op == ast::BinaryOp::kAnd || b->op == ast::BinaryOp::kOr)) {
      std::vector<const ast::Expr*> operands;
      collect_chain(e, b->op, operands);
      const std::string word = std::string(spelling(b->op)) + " ";
      const int prec = precedence_of(b->op) + 1;
      Lines out;
      append(out, "", layout(*operands.front(), prec, width));
      for (std::size_t i = 1; i < operands.size(); ++i) {
        append(out, word, layout(*operands[i], prec, width - word.size()));
      }
      return out;
    }
    if (const auto* c = std::get_if<ast::Conditional>(&e.node)) {
      Lines out;
      append(out, "if ", layout(*c->condition, kPrecOr, width - 3));
      append(out, "then ", layout(*c->then_value, kPrecOr, width - 5));
      if (std::holds_alternative<ast::Conditional>(c->else_value->node)) {
        Lines rest = layout_inner(*c->else_value, width);
        rest.front().second = "else " + rest.front().second;
        out.insert(out.end(), rest.begin(), rest.end());
      } else {
        append(out, "else ", layout(*c->else_value, kPrecOr, width - 5));
      }
      return out;
    }
    if (const auto* q = std::get_if<ast::Quantifier>(&e.node)) {
      Lines out{{0, fmt::format("{} {} in {}:", spelling(q->kind), q->var.text,
                                print(*q->domain, kPrecAdd))}};
      for (auto& [depth, text] : layout(*q->body, kPrecOr, width - 2)) out.emplace_back(depth + 1, text);
      return out;
    }
    return {{0, std::visit([&](const auto& n) { return node(n); }, e.node)}};
  }

  std::string list(const std::vector<ast::Expr>& items) const {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i != 0) out += ", ";
      out += print(items[i]);
    }
    return out;
  }

  std::string node(const ast::IntLit& n) const { return std::to_string(n.value); }
  std::string node(const ast::BoolLit& n) const { return n.value ? "true" : "false"; }
  std::string node(const ast::NoneLit&) const { return "none"; }
  std::string node(const ast::PlayersLit&) const { return "players"; }
  std::string node(const ast::NameRef& n) const { return n.name; }
  std::string node(const ast::SeatLit& n) const { return "seat " + print(*n.index, kPrecUnary); }
  std::string node(const ast::Call& n) const { return n.callee.text + "(" + list(n.args) + ")"; }
  std::string node(const ast::Unary& n) const {
    if (n.op == ast::UnaryOp::kNot) return "not " + print(*n.operand, kPrecNot);
    return "-" + print(*n.operand, kPrecUnary);
  }
  std::string node(const ast::Binary& n) const {
    const int prec = precedence_of(n.op);
    // Comparisons do not chain; the others associate to the left.
    const int lhs_prec = prec == kPrecCmp ? kPrecCmp + 1 : prec;
    return fmt::format("{} {} {}", print(*n.lhs, lhs_prec), spelling(n.op), print(*n.rhs, prec + 1));
  }
  std::string node(const ast::SetLit& n) const { return "{" + list(n.elements) + "}"; }
  std::string node(const ast::Comprehension& n) const {
    return fmt::format("{{{} in {} where {}}}", n.var.text, print(*n.domain, kPrecAdd), print(*n.filter));
  }
  std::string node(const ast::Quantifier& n) const {
    return fmt::format("{} {} in {}: {}", spelling(n.kind), n.var.text,
                       print(*n.domain, kPrecAdd), print(*n.body));
  }
  std::string node(const ast::Extremum& n) const {
    if (n.value) {
      return fmt::format("{} {} in {}: {}", n.is_max ? "max" : "min", n.var.text, print(*n.domain, kPrecAdd),
                         print(n.keys.front()));
    }
    std::string keys = n.keys.size() == 1 ? print(n.keys[0], kPrecAdd) : "(" + list(n.keys) + ")";
    return fmt::format("{} {} in {} by {}", n.is_max ? "max" : "min", n.var.text,
                       print(*n.domain, kPrecAdd), keys);
  }
  std::string node(const ast::First& n) const {
    std::string out = fmt::format("first {} in {}", n.var.text, print(*n.domain, kPrecAdd));
    if (n.order) out += " " + order(*n.order);
    if (n.filter) out += " where " + print(**n.filter);
    return out;
  }
  std::string node(const ast::Conditional& n) const {
    return fmt::format("if {} then {} else {}", print(*n.condition), print(*n.then_value),
                       print(*n.else_value));
  }
};

}  // namespace rulebook::authoring::detail
