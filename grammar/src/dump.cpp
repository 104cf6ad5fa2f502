// A span-free S-expression of the tree: the grammar tests compare it, and the formatter's
// round-trip test checks that formatted text parses to the same tree.
#include <string>

#include <fmt/format.h>

#include "rulebook/grammar/dump.hpp"
#include "rulebook/grammar/spelling.hpp"

namespace rulebook::grammar {

namespace {

std::string type_dump(const ast::TypeExpr& t) {
  switch (t.kind) {
    case ast::TypeExpr::Kind::kInt: return "int";
    case ast::TypeExpr::Kind::kBool: return "bool";
    case ast::TypeExpr::Kind::kPlayer: return "player";
    case ast::TypeExpr::Kind::kCard: return "card";
    case ast::TypeExpr::Kind::kNamed: return t.name;
    case ast::TypeExpr::Kind::kSetOf: return "(set " + type_dump(t.element.at(0)) + ")";
  }
  return "?";
}

constexpr std::string_view kBinaryNames[] = {"or", "and", "==", "!=", "<", "<=", ">", ">=",
                                             "in", "not-in", "+", "-", "*", "/", "%"};
constexpr std::string_view kOrderNames[] = {"clockwise", "counterclockwise", "bottom-to-top",
                                            "top-to-bottom"};

std::string exprs(const std::vector<ast::Expr>& items) {
  std::string out;
  for (const ast::Expr& e : items) out += fmt::format(" {}", dump_expr(e));
  return out;
}

std::string order_dump(const std::optional<ast::Order>& o) {
  if (!o) return "";
  return fmt::format(" ({}{})", kOrderNames[static_cast<int>(o->kind)], exprs(o->from));
}

struct ExprDump {
  std::string operator()(const ast::IntLit& n) const { return std::to_string(n.value); }
  std::string operator()(const ast::BoolLit& n) const { return n.value ? "true" : "false"; }
  std::string operator()(const ast::NoneLit&) const { return "none"; }
  std::string operator()(const ast::PlayersLit&) const { return "players"; }
  std::string operator()(const ast::NameRef& n) const { return n.name; }
  std::string operator()(const ast::SeatLit& n) const { return fmt::format("(seat {})", dump_expr(*n.index)); }
  std::string operator()(const ast::Call& n) const { return fmt::format("({}{})", n.callee.text, exprs(n.args)); }
  std::string operator()(const ast::Unary& n) const {
    return fmt::format("({} {})", n.op == ast::UnaryOp::kNot ? "not" : "neg", dump_expr(*n.operand));
  }
  std::string operator()(const ast::Binary& n) const {
    return fmt::format("({} {} {})", kBinaryNames[static_cast<int>(n.op)], dump_expr(*n.lhs),
                       dump_expr(*n.rhs));
  }
  std::string operator()(const ast::SetLit& n) const { return fmt::format("{{{} }}", exprs(n.elements)); }
  std::string operator()(const ast::Comprehension& n) const {
    return fmt::format("{{{} in {} where {}}}", n.var.text, dump_expr(*n.domain), dump_expr(*n.filter));
  }
  std::string operator()(const ast::Quantifier& n) const {
    return fmt::format("({} {} {} {})", spelling(n.kind), n.var.text,
                       dump_expr(*n.domain), dump_expr(*n.body));
  }
  std::string operator()(const ast::Extremum& n) const {
    if (n.value) {
      return fmt::format("({} {} {} : {})", n.is_max ? "max" : "min", n.var.text, dump_expr(*n.domain),
                         dump_expr(n.keys.front()));
    }
    return fmt::format("({} {} {} by{})", n.is_max ? "max" : "min", n.var.text, dump_expr(*n.domain),
                       exprs(n.keys));
  }
  std::string operator()(const ast::First& n) const {
    return fmt::format("(first {} {}{}{})", n.var.text, dump_expr(*n.domain), order_dump(n.order),
                       n.filter ? " where " + dump_expr(**n.filter) : "");
  }
  std::string operator()(const ast::Conditional& n) const {
    return fmt::format("(if {} {} {})", dump_expr(*n.condition), dump_expr(*n.then_value),
                       dump_expr(*n.else_value));
  }
};

std::string block_dump(const ast::Block& b) {
  std::string out = "{";
  for (const ast::Stmt& s : b.stmts) out += fmt::format(" {}", dump_stmt(s));
  return out + " }";
}

std::string face_dump(const std::optional<ast::Face>& f) {
  if (!f) return "";
  return *f == ast::Face::kUp ? " up" : " down";
}

struct StmtDump {
  std::string operator()(const ast::RuleStmt& n) const {
    return fmt::format("(rule {} {})", n.label.text, dump_stmt(*n.body));
  }
  std::string operator()(const ast::PhaseStmt& n) const {
    return fmt::format("(phase {} {})", n.name.text, block_dump(n.body));
  }
  std::string operator()(const ast::RepeatStmt& n) const {
    return fmt::format("(repeat {} {})", dump_expr(n.count), block_dump(n.body));
  }
  std::string operator()(const ast::WhileStmt& n) const {
    return fmt::format("({} {} {})", n.until ? "until" : "while", dump_expr(n.condition), block_dump(n.body));
  }
  std::string operator()(const ast::ForEachStmt& n) const {
    return fmt::format("(for {} {}{} {})", n.var.text, dump_expr(n.domain), order_dump(n.order),
                       block_dump(n.body));
  }
  std::string operator()(const ast::IfStmt& n) const {
    std::string out = "(if";
    for (const ast::IfBranch& b : n.branches) out += fmt::format(" {} {}", dump_expr(b.condition), block_dump(b.body));
    if (n.else_body) out += fmt::format(" else {}", block_dump(*n.else_body));
    return out + ")";
  }
  std::string operator()(const ast::SimultaneousStmt& n) const {
    return fmt::format("(simultaneous {} {} {})", n.var.text, dump_expr(n.domain), block_dump(n.body));
  }
  std::string operator()(const ast::ChooseStmt& n) const {
    return fmt::format("(choose {} {} {}{})", n.var.text, dump_expr(n.domain),
                       n.at_random ? std::string("at random") : "by " + dump_expr(n.chooser),
                       n.filter ? " where " + dump_expr(*n.filter) : "");
  }
  std::string operator()(const ast::MixedChooseStmt& n) const {
    std::string out = fmt::format("(choose by {}", dump_expr(n.chooser));
    for (const ast::Alternative& a : n.alternatives) {
      out += " (" + a.name.text;
      if (a.var && a.domain) out += fmt::format(" {} {}", a.var->text, dump_expr(*a.domain));
      if (a.guard) out += " where " + dump_expr(*a.guard);
      if (a.body) out += " " + block_dump(*a.body);
      out += ")";
    }
    return out + ")";
  }
  std::string operator()(const ast::LetStmt& n) const {
    return fmt::format("(let {} {})", n.name.text, dump_expr(n.value));
  }
  std::string operator()(const ast::MoveStmt& n) const {
    std::string placement;
    if (n.placement) placement = *n.placement == ast::Placement::kTop ? " top" : " bottom";
    return fmt::format("(move {} {}{}{})", dump_expr(n.cards), dump_expr(n.target), placement,
                       face_dump(n.face));
  }
  std::string operator()(const ast::DealStmt& n) const {
    return fmt::format("(deal {} {} {}{})", dump_expr(n.count), dump_expr(n.source), dump_expr(n.target),
                       face_dump(n.face));
  }
  std::string operator()(const ast::ShuffleStmt& n) const { return fmt::format("(shuffle {})", dump_expr(n.zone)); }
  std::string operator()(const ast::FlipStmt& n) const {
    return fmt::format("(flip {}{})", dump_expr(n.cards), face_dump(n.face));
  }
  std::string operator()(const ast::SetStmt& n) const {
    return fmt::format("(set {} {})", dump_expr(n.target), dump_expr(n.value));
  }
  std::string operator()(const ast::AddStmt& n) const {
    return fmt::format("(add {} {})", dump_expr(n.amount), dump_expr(n.target));
  }
  std::string operator()(const ast::SwapSeatsStmt& n) const {
    return fmt::format("(swap {} {})", dump_expr(n.first), dump_expr(n.second));
  }
  std::string operator()(const ast::EndGameStmt& n) const {
    return n.winners ? fmt::format("(end-game {})", dump_expr(*n.winners)) : "(end-game)";
  }
};

std::string param_dump(const std::optional<ast::Ident>& p) { return p ? fmt::format("({})", p->text) : ""; }

std::string def_dump(const ast::DefDecl& n) {
  std::string params;
  for (const ast::Param& p : n.params) params += fmt::format(" ({} {})", p.name.text, type_dump(p.type));
  return fmt::format("(def {}{}{} : {} {})", n.name.text, n.has_params ? " params" : "", params,
                     n.result ? type_dump(*n.result) : "_", dump_expr(n.body));
}

struct DeclDump {
  std::string operator()(const ast::PlayersDecl& n) const {
    if (n.default_count) return fmt::format("(players {} {} default {})", n.min, n.max, *n.default_count);
    return fmt::format("(players {} {})", n.min, n.max);
  }
  std::string payoff(const ast::PayoffValue& v) const {
    if (v.condition) return fmt::format("(if {} {} {})", dump_expr(*v.condition), payoff(v.branches.at(0)), payoff(v.branches.at(1)));
    if (v.denominator) return fmt::format("(over {} {})", dump_expr(*v.numerator), dump_expr(*v.denominator));
    return dump_expr(*v.numerator);
  }
  std::string operator()(const ast::PayoffDecl& n) const {
    return fmt::format("(payoff {} {} {})", n.name.text, n.param.text, payoff(n.value));
  }
  std::string operator()(const ast::SeatsDecl& n) const { return fmt::format("(seats {})", n.count); }
  std::string operator()(const ast::CardsDecl& n) const {
    std::string out = "(cards";
    if (n.standard52) out += " standard52";
    if (n.jokers) out += fmt::format(" (jokers {})", *n.jokers);
    for (const ast::CardKindItem& k : n.kinds) out += fmt::format(" ({} {})", k.name.text, dump_expr(k.count));
    return out + ")";
  }
  std::string operator()(const ast::EnumDecl& n) const {
    std::string out = "(enum " + n.name.text;
    for (const ast::Ident& v : n.values) out += fmt::format(" {}", v.text);
    return out + ")";
  }
  std::string operator()(const ast::ZoneDecl& n) const {
    return fmt::format("(zone {}{} {} {})", n.name.text, param_dump(n.param),
                       n.shape == ast::ZoneShape::kPile ? "pile" : "set",
                       spelling(n.visibility));
  }
  std::string operator()(const ast::VarDecl& n) const {
    return fmt::format("(var {}{} {} {}{})", n.name.text, param_dump(n.param), type_dump(n.type),
                       dump_expr(n.init), n.per_round ? " per-round" : "");
  }
  std::string operator()(const ast::OptionDecl& n) const {
    return fmt::format("(option {} {} {}{} {:?})", n.name.text, type_dump(n.type), dump_expr(n.default_value),
                       n.range ? fmt::format(" {}..{}", n.range->first, n.range->second) : "", n.doc);
  }
  std::string operator()(const ast::DefDecl& n) const { return def_dump(n); }
  std::string operator()(const ast::ScoreDecl& n) const {
    return fmt::format("(score {}({}) {})", n.name.text, n.param.text, dump_expr(n.value));
  }
  std::string operator()(const ast::SetupDecl& n) const { return fmt::format("(setup {})", block_dump(n.body)); }
  std::string operator()(const ast::RoundDecl& n) const { return fmt::format("(round {})", block_dump(n.body)); }
  std::string operator()(const ast::PolicyDecl& n) const {
    std::string out = "(policy " + n.name.text;
    for (const ast::PolicyEntry& e : n.entries) out += fmt::format(" ({} {})", e.rule.text, dump_expr(e.choice));
    return out + ")";
  }
  std::string operator()(const ast::InvariantDecl& n) const {
    return fmt::format("(invariant {} {})", n.name.text, dump_expr(n.condition));
  }
  std::string operator()(const ast::TerminatesDecl& n) const {
    return fmt::format("(terminates {}{})", n.target.text, n.measure ? " by " + dump_expr(*n.measure) : "");
  }
  std::string operator()(const ast::OptionOverride& n) const {
    return fmt::format("(override-option {} {})", n.name.text, dump_expr(n.value));
  }
  std::string operator()(const ast::RuleOverride& n) const { return fmt::format("(override {})", dump_stmt(n.rule)); }
  std::string operator()(const ast::DefOverride& n) const { return fmt::format("(override {})", def_dump(n.def)); }
};

}  // namespace

std::string dump_expr(const ast::Expr& expr) { return std::visit(ExprDump{}, expr.node); }

std::string dump_stmt(const ast::Stmt& stmt) { return std::visit(StmtDump{}, stmt.node); }

std::string dump_ast(const ast::RulesFile& file) {
  std::string out = file.kind == ast::FileKind::kGame
                        ? fmt::format("(game {:?})\n", file.title)
                        : fmt::format("(variant {:?} of {:?})\n", file.title, file.base_path);
  for (const ast::Decl& d : file.decls) out += std::visit(DeclDump{}, d.node) + "\n";
  return out;
}

}  // namespace rulebook::grammar
