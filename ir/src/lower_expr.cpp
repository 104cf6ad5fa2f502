// Lowering, part two: expressions. Each node takes its type from the checker; a local name
// takes its slot from the binder the checker resolved it to.
#include <stdexcept>

#include <fmt/format.h>

#include "lowerer.hpp"

namespace rulebook::ir::detail {

ExprId Lowerer::add(ExprNode node, const grammar::SourceSpan& span) { return ir_.add_expr(std::move(node), span); }

ExprId Lowerer::node(ExprOp op, const ast::Expr& e, std::vector<ExprId> kids, std::int32_t index, std::uint8_t sub) {
  ExprNode n;
  n.op = op;
  n.sub = sub;
  n.index = index;
  n.type = type_id(facts(e).type);
  n.kids = std::move(kids);
  return add(std::move(n), e.span);
}

ExprId Lowerer::constant(Value v, const ast::Expr& e) {
  ExprNode n;
  n.op = ExprOp::kConst;
  n.constant = std::move(v);
  n.type = type_id(facts(e).type);
  return add(std::move(n), e.span);
}

ExprId Lowerer::expr(const ast::Expr& e) {
  return std::visit([&](const auto& n) { return lower(n, e); }, e.node);
}

ExprId Lowerer::lower(const ast::IntLit& n, const ast::Expr& e) { return constant(Value::integer(n.value), e); }
ExprId Lowerer::lower(const ast::BoolLit& n, const ast::Expr& e) { return constant(Value::boolean(n.value), e); }
ExprId Lowerer::lower(const ast::NoneLit&, const ast::Expr& e) { return constant(Value::none(), e); }
ExprId Lowerer::lower(const ast::PlayersLit&, const ast::Expr& e) { return node(ExprOp::kPlayers, e); }
ExprId Lowerer::lower(const ast::SeatLit& n, const ast::Expr& e) { return node(ExprOp::kSeat, e, {expr(*n.index)}); }

ExprId Lowerer::lower(const ast::NameRef& n, const ast::Expr& e) {
  const grammar::LocalRef& local = facts(e).local;
  if (local.policy_slot >= 0) return node(ExprOp::kLocal, e, {}, local.policy_slot == 0 ? Ir::kChooserSlot : Ir::kLegalSlot);
  if (local.binder != nullptr) return node(ExprOp::kLocal, e, {}, slots_.at(local.binder));
  const auto it = program_.globals.find(n.name);
  if (it == program_.globals.end()) {
    // An enum type's name: the set literal of its values, in declaration order, so that
    // every later pass sees the same thing as `{rock, paper, scissors}`.
    if (const std::int32_t id = enum_id(n.name); id >= 0) {
      const grammar::EnumInfo& info = program_.enums[static_cast<std::size_t>(id)];
      std::vector<ExprId> kids;
      const TypeId element_type = type_id(grammar::Type::enumeration(info.name));
      for (std::size_t i = 0; i < info.values.size(); ++i) {
        ExprNode value;
        value.op = ExprOp::kConst;
        value.constant = Value::enumeration(id, static_cast<std::int64_t>(i));
        value.type = element_type;
        kids.push_back(add(std::move(value), e.span));
      }
      return node(ExprOp::kSetLit, e, std::move(kids));
    }
    throw std::runtime_error("unresolved name " + n.name);
  }
  const grammar::Symbol& sym = it->second;
  switch (sym.kind) {
    case grammar::Symbol::Kind::kOption: return node(ExprOp::kOption, e, {}, option_ids_.at(n.name));
    case grammar::Symbol::Kind::kVar: return node(ExprOp::kVar, e, {}, var_ids_.at(n.name));
    case grammar::Symbol::Kind::kZone: return node(ExprOp::kZone, e, {}, zone_ids_.at(n.name));
    case grammar::Symbol::Kind::kDef: return node(ExprOp::kDef, e, {}, def_ids_.at(n.name));
    case grammar::Symbol::Kind::kEnumValue:
    case grammar::Symbol::Kind::kCardKind:
      return constant(Value::enumeration(enum_id(sym.type.enum_name), sym.value), e);
    case grammar::Symbol::Kind::kConstant:
      if (n.name == "num_players") return node(ExprOp::kNumPlayers, e);
      if (n.name == "num_seats") return node(ExprOp::kNumSeats, e);
      if (n.name == "all_cards") return node(ExprOp::kAllCards, e);
      return constant(Value::integer(sym.value), e);
    case grammar::Symbol::Kind::kScore: break;
  }
  throw std::runtime_error("cannot lower name " + n.name);
}

ExprId Lowerer::lower(const ast::Call& n, const ast::Expr& e) {
  std::vector<ExprId> args;
  for (const ast::Expr& a : n.args) args.push_back(expr(a));
  const std::string& name = n.callee.text;
  if (const auto b = builtin_by_name(name)) {
    return node(ExprOp::kBuiltin, e, std::move(args), -1, static_cast<std::uint8_t>(*b));
  }
  if (const auto v = var_ids_.find(name); v != var_ids_.end()) return node(ExprOp::kVar, e, std::move(args), v->second);
  if (const auto z = zone_ids_.find(name); z != zone_ids_.end()) return node(ExprOp::kZone, e, std::move(args), z->second);
  if (const auto d = def_ids_.find(name); d != def_ids_.end()) return node(ExprOp::kDef, e, std::move(args), d->second);
  throw std::runtime_error("cannot lower call of " + name);
}

ExprId Lowerer::lower(const ast::Unary& n, const ast::Expr& e) {
  return node(n.op == ast::UnaryOp::kNot ? ExprOp::kNot : ExprOp::kNeg, e, {expr(*n.operand)});
}

ExprId Lowerer::lower(const ast::Binary& n, const ast::Expr& e) {
  const ExprId lhs = expr(*n.lhs);
  const ExprId rhs = expr(*n.rhs);
  return node(ExprOp::kBinary, e, {lhs, rhs}, -1, static_cast<std::uint8_t>(binary_op(n.op)));
}

ExprId Lowerer::lower(const ast::SetLit& n, const ast::Expr& e) {
  std::vector<ExprId> kids;
  for (const ast::Expr& element : n.elements) kids.push_back(expr(element));
  return node(ExprOp::kSetLit, e, std::move(kids));
}

ExprId Lowerer::lower(const ast::Comprehension& n, const ast::Expr& e) {
  const ExprId domain = expr(*n.domain);
  const Slot slot = bind(n.var);
  const ExprId filter = expr(*n.filter);
  return node(ExprOp::kComprehension, e, {domain, filter}, slot);
}

ExprId Lowerer::lower(const ast::Quantifier& n, const ast::Expr& e) {
  const ExprId domain = expr(*n.domain);
  const Slot slot = bind(n.var);
  const ExprId body = expr(*n.body);
  return node(ExprOp::kQuant, e, {domain, body}, slot, static_cast<std::uint8_t>(quant_kind(n.kind)));
}

ExprId Lowerer::lower(const ast::Extremum& n, const ast::Expr& e) {
  std::vector<ExprId> kids{expr(*n.domain)};
  const Slot slot = bind(n.var);
  for (const ast::Expr& k : n.keys) kids.push_back(expr(k));
  const auto sub = static_cast<std::uint8_t>((n.is_max ? ir::kExtremumMax : 0) | (n.value ? ir::kExtremumValue : 0));
  return node(ExprOp::kExtremum, e, std::move(kids), slot, sub);
}

ExprId Lowerer::lower(const ast::First& n, const ast::Expr& e) {
  const ExprId domain = expr(*n.domain);
  ExprId from = -1;
  std::uint8_t order = 0;
  if (n.order) {
    order = static_cast<std::uint8_t>(static_cast<int>(order_kind(n.order->kind)) + 1);
    if (!n.order->from.empty()) from = expr(n.order->from.front());
  }
  const Slot slot = bind(n.var);
  const ExprId filter = n.filter ? expr(**n.filter) : -1;
  return node(ExprOp::kFirst, e, {domain, from, filter}, slot, order);
}

ExprId Lowerer::lower(const ast::Conditional& n, const ast::Expr& e) {
  const ExprId c = expr(*n.condition);
  const ExprId t = expr(*n.then_value);
  const ExprId f = expr(*n.else_value);
  return node(ExprOp::kCond, e, {c, t, f});
}

}  // namespace rulebook::ir::detail
