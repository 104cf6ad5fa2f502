// Which locals are live at each control position: read before they are written again.
// Stale locals are left out of invariants and of the states a lasso compares.
#include "liveness.hpp"

namespace rulebook::verifier {

namespace {

void expression_locals(const ri::Ir& ir, ri::ExprId id, std::set<ri::Slot>& out) {
  if (id < 0) return;
  const ri::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  if (n.op == ri::ExprOp::kLocal) out.insert(n.index);
  for (const ri::ExprId k : n.kids) expression_locals(ir, k, out);
}

}  // namespace

std::vector<std::vector<std::int32_t>> static_successors(const ri::Ir& ir) {
  std::vector<std::vector<std::int32_t>> succ(ir.code.size());
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ri::Instr& in = ir.code[i];
    const auto next = static_cast<std::int32_t>(i + 1);
    switch (in.code) {
      case ri::OpCode::kEndGame: break;
      case ri::OpCode::kJump: succ[i] = {in.target}; break;
      case ri::OpCode::kJumpIfFalse:
      case ri::OpCode::kRepeatNext:
      case ri::OpCode::kForNext: succ[i] = {next, in.target}; break;
      default: succ[i] = {next}; break;
    }
  }
  return succ;
}

std::set<ri::Slot> expression_slots(const ri::Ir& ir) {
  std::set<ri::Slot> bound{ri::Ir::kChooserSlot, ri::Ir::kLegalSlot};
  for (const ri::ExprNode& n : ir.exprs) {
    if (n.op == ri::ExprOp::kComprehension || n.op == ri::ExprOp::kQuant || n.op == ri::ExprOp::kExtremum ||
        n.op == ri::ExprOp::kFirst) {
      bound.insert(n.index);
    }
  }
  for (const ri::DefInfo& d : ir.defs) bound.insert(d.params.begin(), d.params.end());
  for (const ri::VarInfo& v : ir.vars) {
    if (v.param >= 0) bound.insert(v.param);
  }
  for (const ri::ScoreInfo& s : ir.scores) bound.insert(s.param);
  return bound;
}

std::vector<std::set<ri::Slot>> live_locals(const ri::Ir& ir) {
  const auto succ = static_successors(ir);
  const std::set<ri::Slot> bound = expression_slots(ir);
  std::vector<std::set<ri::Slot>> use(ir.code.size()), def(ir.code.size()), live(ir.code.size());
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ri::Instr& in = ir.code[i];
    std::set<ri::Slot> reads;
    switch (in.code) {
      case ri::OpCode::kLet: expression_locals(ir, in.b, reads); def[i] = {in.a}; break;
      case ri::OpCode::kChoose:
        for (const ri::ExprId e : {in.b, in.c, in.d}) expression_locals(ir, e, reads);
        def[i] = {in.a};
        break;
      case ri::OpCode::kMove:
      case ri::OpCode::kSwapSeats: expression_locals(ir, in.a, reads); expression_locals(ir, in.b, reads); break;
      case ri::OpCode::kDeal: for (const ri::ExprId e : {in.a, in.b, in.c}) expression_locals(ir, e, reads); break;
      case ri::OpCode::kShuffle:
      case ri::OpCode::kFlip:
      case ri::OpCode::kEndGame:
      case ri::OpCode::kJumpIfFalse: expression_locals(ir, in.a, reads); break;
      case ri::OpCode::kSet:
      case ri::OpCode::kAdd: expression_locals(ir, in.b, reads); expression_locals(ir, in.c, reads); break;
      case ri::OpCode::kRepeatInit: expression_locals(ir, in.b, reads); def[i] = {in.a}; break;
      case ri::OpCode::kRepeatNext: reads.insert(in.a); break;
      case ri::OpCode::kForInit:
        expression_locals(ir, in.b, reads);
        expression_locals(ir, in.d, reads);
        def[i] = {in.a, in.e};
        break;
      case ri::OpCode::kForNext: reads = {in.a, in.e}; def[i] = {in.b}; break;
      default: break;
    }
    for (const ri::Slot s : reads) {
      if (bound.count(s) == 0) use[i].insert(s);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t k = ir.code.size(); k-- > 0;) {
      std::set<ri::Slot> out;
      for (const std::int32_t s : succ[k]) out.insert(live[static_cast<std::size_t>(s)].begin(), live[static_cast<std::size_t>(s)].end());
      for (const ri::Slot d : def[k]) out.erase(d);
      out.insert(use[k].begin(), use[k].end());
      if (out != live[k]) {
        live[k] = std::move(out);
        changed = true;
      }
    }
  }
  return live;
}

}  // namespace rulebook::verifier
