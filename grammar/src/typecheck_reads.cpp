// Which variables an initial value reads (E0307: an initial value may read only variables
// declared before it), through the definitions it calls. Apart from typecheck.cpp for size.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "checker.hpp"

namespace rulebook::grammar {

void Checker::variables_read(const ast::Expr& e, std::vector<std::string>& bound, std::set<std::string>& defs_seen,
                             std::vector<std::pair<std::string, SourceSpan>>& out) const {
  auto walk = [&](const ast::Expr& x) { variables_read(x, bound, defs_seen, out); };
  // A global name: a variable is read; a definition's body is read with its parameters bound.
  auto global = [&](const std::string& name, SourceSpan span) {
    if (std::find(bound.begin(), bound.end(), name) != bound.end()) return;
    const Symbol* symbol = find_global(name);
    if (symbol == nullptr || symbol->builtin) return;
    if (symbol->kind == Symbol::Kind::kVar) out.emplace_back(name, span);
    if (symbol->kind != Symbol::Kind::kDef || !defs_seen.insert(name).second) return;
    const auto* def = std::get_if<ast::DefDecl>(&program_.file.decls[symbol->decl_index].node);
    if (def == nullptr) return;
    std::vector<std::string> inner;
    for (const ast::Param& p : def->params) inner.push_back(p.name.text);
    // What the definition reads is read where it is used.
    std::vector<std::pair<std::string, SourceSpan>> through;
    variables_read(def->body, inner, defs_seen, through);
    for (auto& read : through) out.emplace_back(std::move(read.first), span);
  };
  auto binding = [&](const ast::Ident& var, auto&& body) {
    bound.push_back(var.text);
    body();
    bound.pop_back();
  };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::NameRef>) {
          global(n.name, e.span);
        } else if constexpr (std::is_same_v<T, ast::SeatLit>) {
          walk(*n.index);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          global(n.callee.text, n.callee.span);
          for (const ast::Expr& a : n.args) walk(a);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          walk(*n.operand);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          walk(*n.lhs);
          walk(*n.rhs);
        } else if constexpr (std::is_same_v<T, ast::SetLit>) {
          for (const ast::Expr& a : n.elements) walk(a);
        } else if constexpr (std::is_same_v<T, ast::Comprehension>) {
          walk(*n.domain);
          binding(n.var, [&] { walk(*n.filter); });
        } else if constexpr (std::is_same_v<T, ast::Quantifier>) {
          walk(*n.domain);
          binding(n.var, [&] { walk(*n.body); });
        } else if constexpr (std::is_same_v<T, ast::Extremum>) {
          walk(*n.domain);
          binding(n.var, [&] {
            for (const ast::Expr& k : n.keys) walk(k);
          });
        } else if constexpr (std::is_same_v<T, ast::First>) {
          walk(*n.domain);
          if (n.order) {
            for (const ast::Expr& f : n.order->from) walk(f);
          }
          binding(n.var, [&] {
            if (n.filter) walk(**n.filter);
          });
        } else if constexpr (std::is_same_v<T, ast::Conditional>) {
          walk(*n.condition);
          walk(*n.then_value);
          walk(*n.else_value);
        }
      },
      e.node);
}

}  // namespace rulebook::grammar
