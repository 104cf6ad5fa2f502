// Lowering, part three: statements become instructions with explicit jumps; a labelled rule
// starts with kFire, and every instruction knows its innermost labelled rule.
#include "lowerer.hpp"

namespace rulebook::ir::detail {

namespace {
std::uint8_t face_flags(const std::optional<ast::Face>& f) {
  if (!f) return 0;
  return *f == ast::Face::kUp ? kFaceUp : kFaceDown;
}

}  // namespace

Lowerer::Pending Lowerer::make(OpCode code, const grammar::SourceSpan& span) {
  Pending instr;
  instr.code = code;
  instr.span = span;
  return instr;
}

std::int32_t Lowerer::emit(Pending instr) {
  instr.rule = current_rule_;
  return ir_.add_instr(static_cast<const Instr&>(instr), instr.span);
}
// Ends a loop whose test is at `top`: jump back to it, and let the test exit to here.
void Lowerer::close_loop(std::int32_t top) {
  auto back = make(OpCode::kJump);
  back.target = top;
  emit(back);
  patch(top);
}

void Lowerer::block(const ast::Block& b) {
  for (const ast::Stmt& s : b.stmts) stmt(s);
}

void Lowerer::stmt(const ast::Stmt& s) {
  std::visit([&](const auto& n) { lower_stmt(n, s.span); }, s.node);
}


void Lowerer::lower_stmt(const ast::RuleStmt& n, const grammar::SourceSpan& s) {
  const auto label = static_cast<std::int32_t>(ir_.labels.size());
  ir_.labels.push_back(n.label.text);
  ir_.label_spans.push_back(n.label.span);
  const std::int32_t saved = current_rule_;
  ir_.label_parents.push_back(saved);
  current_rule_ = label;
  auto fire = make(OpCode::kFire, s);
  fire.a = label;
  emit(fire);
  stmt(*n.body);
  current_rule_ = saved;
}
void Lowerer::lower_stmt(const ast::PhaseStmt& n, const grammar::SourceSpan&) { block(n.body); }
void Lowerer::lower_stmt(const ast::RepeatStmt& n, const grammar::SourceSpan& s) {
  auto init = make(OpCode::kRepeatInit, s);
  init.a = internal_slot(TypeTable::kIntType);  // the count left
  init.b = expr(n.count);
  emit(init);
  auto next = make(OpCode::kRepeatNext, s);
  next.a = init.a;
  const std::int32_t top = emit(next);
  block(n.body);
  close_loop(top);
}
void Lowerer::lower_stmt(const ast::WhileStmt& n, const grammar::SourceSpan& s) {
  ExprId cond = expr(n.condition);
  if (n.until) cond = node(ExprOp::kNot, n.condition, {cond});  // typed as the condition: bool
  auto test = make(OpCode::kJumpIfFalse, s);
  test.a = cond;
  const std::int32_t top = emit(test);
  block(n.body);
  close_loop(top);
}
void Lowerer::for_each(const ast::Ident& var, const ast::Expr& domain, const std::optional<ast::Order>& order,
              const ast::Block& body, const grammar::SourceSpan& s) {
  auto init = make(OpCode::kForInit, s);
  init.a = internal_slot(TypeTable::kUnknownType);  // the domain's elements in walk order
  init.b = expr(domain);
  const TypeId domain_type = ir_.exprs[static_cast<std::size_t>(init.b)].type;
  ir_.local_types[static_cast<std::size_t>(init.a)] =
      ir_.types[domain_type].kind == TypeKind::kZone ? ir_.types.set_of(TypeTable::kCardType) : domain_type;
  init.e = internal_slot(TypeTable::kIntType);  // the position in the list
  if (order) {
    init.c = static_cast<std::int32_t>(order_kind(order->kind)) + 1;
    if (!order->from.empty()) init.d = expr(order->from.front());
  } else {
    init.c = 0;
  }
  emit(init);
  auto next = make(OpCode::kForNext, s);
  next.a = init.a;
  next.e = init.e;
  next.b = bind(var);
  const std::int32_t top = emit(next);
  block(body);
  close_loop(top);
}
void Lowerer::lower_stmt(const ast::ForEachStmt& n, const grammar::SourceSpan& s) { for_each(n.var, n.domain, n.order, n.body, s); }
void Lowerer::lower_stmt(const ast::IfStmt& n, const grammar::SourceSpan& s) {
  std::vector<std::int32_t> to_end;
  for (const ast::IfBranch& branch : n.branches) {
    auto test = make(OpCode::kJumpIfFalse, s);
    test.a = expr(branch.condition);
      const std::int32_t at = emit(test);
    block(branch.body);
    auto skip = make(OpCode::kJump);
    to_end.push_back(emit(skip));
    patch(at);
  }
  if (n.else_body) block(*n.else_body);
  for (const std::int32_t at : to_end) patch(at);
}
void Lowerer::lower_stmt(const ast::SimultaneousStmt& n, const grammar::SourceSpan& s) {
  auto begin = make(OpCode::kBeginSecret, s);
  emit(begin);
  const bool saved = deferred_;
  deferred_ = true;
  for_each(n.var, n.domain, std::nullopt, n.body, s);
  deferred_ = saved;
  auto end = make(OpCode::kEndSecret, s);
  emit(end);
}
void Lowerer::lower_stmt(const ast::ChooseStmt& n, const grammar::SourceSpan& s) {
  auto choose = make(OpCode::kChoose, s);
  choose.b = expr(n.domain);
  // `at random`: no chooser (c = -1), no policy; the machine draws with the game's generator.
  choose.c = n.at_random ? -1 : expr(n.chooser);
  // The policy entry for this rule is lowered where the choice stands, with `chooser`
  // and `legal` at their fixed slots.
  if (current_rule_ >= 0 && !n.at_random) {
    const auto p = policy_.find(ir_.labels[static_cast<std::size_t>(current_rule_)]);
    if (p != policy_.end()) {
      choose.e = expr(*p->second);
    }
  }
  choose.a = bind(n.var);
  if (n.filter) choose.d = expr(*n.filter);
  emit(choose);
}
// `choose by p { ... }`: kChooseMixed stores the chosen alternative's index at slot a (and its
// element at the alternative's slot); a chain of tests then runs that alternative's block, as an
// `if` chain would, and every block ends after the whole decision.
void Lowerer::lower_stmt(const ast::MixedChooseStmt& n, const grammar::SourceSpan& s) {
  auto choose = make(OpCode::kChooseMixed, s);
  choose.a = internal_slot(TypeTable::kIntType);
  choose.b = static_cast<std::int32_t>(ir_.mixed_choices.size());
  choose.c = expr(n.chooser);
  MixedChoice table;
  for (const ast::Alternative& alt : n.alternatives) {
    AlternativeInfo info;
    info.name = alt.name.text;
    info.span = alt.span;
    if (alt.domain) info.domain = expr(*alt.domain);
    if (alt.var) info.slot = bind(*alt.var);
    if (alt.guard) info.guard = expr(*alt.guard);
    table.alternatives.push_back(std::move(info));
  }
  ir_.mixed_choices.push_back(std::move(table));
  emit(choose);
  std::vector<std::int32_t> to_end;
  for (std::size_t i = 0; i < n.alternatives.size(); ++i) {
    const ast::Alternative& alt = n.alternatives[i];
    if (!alt.body || alt.body->stmts.empty()) continue;
    ExprNode chosen;
    chosen.op = ExprOp::kLocal;
    chosen.index = choose.a;
    chosen.type = TypeTable::kIntType;
    const ExprId lhs = ir_.add_expr(std::move(chosen), alt.span);
    ExprNode index;
    index.op = ExprOp::kConst;
    index.type = TypeTable::kIntType;
    index.constant = Value::integer(static_cast<std::int64_t>(i));
    const ExprId rhs = ir_.add_expr(std::move(index), alt.span);
    ExprNode same;
    same.op = ExprOp::kBinary;
    same.sub = static_cast<std::uint8_t>(BinaryOp::kEq);
    same.type = TypeTable::kBoolType;
    same.kids = {lhs, rhs};
    auto test = make(OpCode::kJumpIfFalse, alt.span);
    test.a = ir_.add_expr(std::move(same), alt.span);
    const std::int32_t at = emit(test);
    block(*alt.body);
    auto skip = make(OpCode::kJump);
    to_end.push_back(emit(skip));
    patch(at);
  }
  for (const std::int32_t at : to_end) patch(at);
}
void Lowerer::lower_stmt(const ast::LetStmt& n, const grammar::SourceSpan& s) {
  auto let = make(OpCode::kLet, s);
  let.b = expr(n.value);
  let.a = bind(n.name);
  emit(let);
}
void Lowerer::lower_stmt(const ast::MoveStmt& n, const grammar::SourceSpan& s) {
  auto move = make(OpCode::kMove, s);
  move.a = expr(n.cards);
  move.b = expr(n.target);
  move.flags = face_flags(n.face);
  if (n.placement) move.flags |= *n.placement == ast::Placement::kTop ? kAtTop : kAtBottom;
  emit(move);
}
void Lowerer::lower_stmt(const ast::DealStmt& n, const grammar::SourceSpan& s) {
  auto deal = make(OpCode::kDeal, s);
  deal.a = expr(n.count);
  deal.b = expr(n.source);
  deal.c = expr(n.target);
  deal.flags = face_flags(n.face);
  emit(deal);
}
void Lowerer::lower_stmt(const ast::ShuffleStmt& n, const grammar::SourceSpan& s) {
  auto shuffle = make(OpCode::kShuffle, s);
  shuffle.a = expr(n.zone);
  emit(shuffle);
}
void Lowerer::lower_stmt(const ast::FlipStmt& n, const grammar::SourceSpan& s) {
  auto flip = make(OpCode::kFlip, s);
  flip.a = expr(n.cards);
  flip.flags = face_flags(n.face);
  emit(flip);
}
void Lowerer::assignment(OpCode code, const ast::Expr& target, const ast::Expr& value, const grammar::SourceSpan& s) {
  auto instr = make(code, s);
  if (const auto* ref = std::get_if<ast::NameRef>(&target.node)) {
    instr.a = var_ids_.at(ref->name);
  } else {
    const auto& call = std::get<ast::Call>(target.node);
    instr.a = var_ids_.at(call.callee.text);
    instr.b = expr(call.args.at(0));
  }
  instr.c = expr(value);
  if (deferred_) instr.flags |= kDeferred;
  emit(instr);
}
void Lowerer::lower_stmt(const ast::SetStmt& n, const grammar::SourceSpan& s) { assignment(OpCode::kSet, n.target, n.value, s); }
void Lowerer::lower_stmt(const ast::AddStmt& n, const grammar::SourceSpan& s) { assignment(OpCode::kAdd, n.target, n.amount, s); }
void Lowerer::lower_stmt(const ast::SwapSeatsStmt& n, const grammar::SourceSpan& s) {
  auto swap = make(OpCode::kSwapSeats, s);
  swap.a = expr(n.first);
  swap.b = expr(n.second);
  emit(swap);
}
void Lowerer::lower_stmt(const ast::EndGameStmt& n, const grammar::SourceSpan& s) {
  auto end = make(OpCode::kEndGame, s);
  if (n.winners) end.a = expr(*n.winners);
  emit(end);
}

}  // namespace rulebook::ir::detail
