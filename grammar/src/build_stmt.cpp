// The parse tree to the AST: statements and blocks.
#include "build_ast.hpp"

namespace rulebook::grammar::detail {

ast::Block Builder::block(const Node& n) {
  ast::Block b;
  b.span = span(n);
  for (const auto& c : n.children) b.stmts.push_back(stmt(*c));
  return b;
}

std::optional<ast::Face> Builder::maybe_face(const Node& n, std::size_t i) {
  if (i >= n.children.size()) return std::nullopt;
  if (n.children[i]->is_type<peg::face_up>()) return ast::Face::kUp;
  if (n.children[i]->is_type<peg::face_down>()) return ast::Face::kDown;
  return std::nullopt;
}

ast::Stmt Builder::stmt(const Node& n) {
  const SourceSpan s = span(n);
  auto make_stmt = [&](ast::Stmt::Node node) { return ast::Stmt{std::move(node), s}; };
  const auto& c = n.children;
  if (n.is_type<peg::rule_stmt>()) {
    return make_stmt(ast::RuleStmt{ident(*c.at(0)), stmt(*c.at(1))});
  }
  if (n.is_type<peg::phase_stmt>()) return make_stmt(ast::PhaseStmt{ident(*c.at(0)), block(*c.at(1))});
  if (n.is_type<peg::repeat_stmt>()) return make_stmt(ast::RepeatStmt{expr(*c.at(0)), block(*c.at(1))});
  if (n.is_type<peg::while_stmt>()) return make_stmt(ast::WhileStmt{false, expr(*c.at(0)), block(*c.at(1))});
  if (n.is_type<peg::until_stmt>()) return make_stmt(ast::WhileStmt{true, expr(*c.at(0)), block(*c.at(1))});
  if (n.is_type<peg::for_stmt>()) {
    ast::ForEachStmt f{ident(*c.at(0)), expr(*c.at(1)), std::nullopt, {}};
    std::size_t i = 2;
    f.order = maybe_order(n, i);
    f.body = block(*c.at(i));
    return make_stmt(std::move(f));
  }
  if (n.is_type<peg::if_stmt>()) {
    ast::IfStmt f;
    f.branches.push_back(ast::IfBranch{expr(*c.at(0)), block(*c.at(1))});
    for (std::size_t i = 2; i < c.size(); ++i) {
      if (c[i]->is_type<peg::else_if>()) {
        f.branches.push_back(ast::IfBranch{expr(*c[i]->children.at(0)), block(*c[i]->children.at(1))});
      } else {
        f.else_body = block(*c[i]->children.at(0));
      }
    }
    return make_stmt(std::move(f));
  }
  if (n.is_type<peg::simultaneous_stmt>()) {
    return make_stmt(ast::SimultaneousStmt{ident(*c.at(0)), expr(*c.at(1)), block(*c.at(2))});
  }
  if (n.is_type<peg::choose_stmt>()) {
    const bool at_random = c.at(2)->is_type<peg::at_random>();
    ast::ChooseStmt ch{ident(*c.at(0)), expr(*c.at(1)), at_random ? ast::Expr{} : expr(*c.at(2)), std::nullopt, at_random};
    if (c.size() > 3) ch.filter = expr(*c[3]);
    return make_stmt(std::move(ch));
  }
  if (n.is_type<peg::mixed_choose_stmt>()) {
    ast::MixedChooseStmt m{expr(*c.at(0)), {}};
    for (std::size_t i = 1; i < c.size(); ++i) {
      const Node& a = *c[i];
      ast::Alternative alt;
      alt.span = span(a);
      alt.name = ident(*a.children.at(0));
      for (std::size_t k = 1; k < a.children.size(); ++k) {
        const Node& part = *a.children[k];
        if (part.is_type<peg::alt_var>()) {
          alt.var = ident(part);
          alt.domain = expr(*a.children.at(++k));
        } else if (part.is_type<peg::alt_guard>()) {
          alt.guard = expr(*part.children.at(0));
        } else if (part.is_type<peg::block>()) {
          alt.body = block(part);
        }
      }
      m.alternatives.push_back(std::move(alt));
    }
    return make_stmt(std::move(m));
  }
  if (n.is_type<peg::let_stmt>()) return make_stmt(ast::LetStmt{ident(*c.at(0)), expr(*c.at(1))});
  if (n.is_type<peg::move_stmt>()) {
    ast::MoveStmt m{expr(*c.at(0)), expr(*c.at(1)), std::nullopt, std::nullopt};
    for (std::size_t i = 2; i < c.size(); ++i) {
      if (c[i]->is_type<peg::at_top>()) m.placement = ast::Placement::kTop;
      else if (c[i]->is_type<peg::at_bottom>()) m.placement = ast::Placement::kBottom;
      else m.face = maybe_face(n, i);
    }
    return make_stmt(std::move(m));
  }
  if (n.is_type<peg::deal_stmt>()) {
    return make_stmt(ast::DealStmt{expr(*c.at(0)), expr(*c.at(1)), expr(*c.at(2)), maybe_face(n, 3)});
  }
  if (n.is_type<peg::shuffle_stmt>()) return make_stmt(ast::ShuffleStmt{expr(*c.at(0))});
  if (n.is_type<peg::flip_stmt>()) {
    return make_stmt(ast::FlipStmt{expr(*c.at(0)), maybe_face(n, 1).value_or(ast::Face::kUp)});
  }
  if (n.is_type<peg::set_stmt>()) return make_stmt(ast::SetStmt{expr(*c.at(0)), expr(*c.at(1))});
  if (n.is_type<peg::add_stmt>()) return make_stmt(ast::AddStmt{expr(*c.at(0)), expr(*c.at(1))});
  if (n.is_type<peg::swap_stmt>()) return make_stmt(ast::SwapSeatsStmt{expr(*c.at(0)), expr(*c.at(1))});
  if (n.is_type<peg::end_stmt>()) {
    ast::EndGameStmt e;
    if (!c.empty()) e.winners = expr(*c[0]);
    return make_stmt(std::move(e));
  }
  diagnostics_.error(Code::kInternal, s, fmt::format("internal error: unexpected statement node {}", n.type));
  return make_stmt(ast::EndGameStmt{});
}

}  // namespace rulebook::grammar::detail
