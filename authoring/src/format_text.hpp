// Small text pieces of the formatter (format.cpp): string literals, facings, payoff values.
// Kept apart so that format.cpp stays one readable file.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "expr_printer.hpp"
#include "rulebook/grammar/ast.hpp"

namespace rulebook::authoring::detail {

inline std::string quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

inline std::string_view face_text(grammar::ast::Face f) { return f == grammar::ast::Face::kUp ? "face up" : "face down"; }

// On one line. A conditional numerator of `N over D` keeps its parentheses: without them
// `over D` would go into its else branch.
template <typename Printer>
std::string payoff_text(Printer& exprs, const grammar::ast::PayoffValue& v) {
  if (v.condition) {
    return "if " + exprs.print(*v.condition) + " then " + payoff_text(exprs, v.branches.at(0)) + " else " +
           payoff_text(exprs, v.branches.at(1));
  }
  std::string num = exprs.print(*v.numerator);
  if (!v.denominator) return num;
  if (std::holds_alternative<grammar::ast::Conditional>(v.numerator->node)) num = "(" + num + ")";
  return num + " over " + exprs.print(*v.denominator);
}

}  // namespace rulebook::authoring::detail
