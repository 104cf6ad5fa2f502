// Which locals are live at each control position: read before they are written again.
// Stale locals are left out of invariants and of the states a lasso compares.
#include "liveness.hpp"

namespace rulebook::verifier {

namespace {

void expression_locals(const ir::Ir& ir, ir::ExprId id, std::set<ir::Slot>& out) {
  if (id < 0) return;
  const ir::ExprNode& n = ir.exprs[static_cast<std::size_t>(id)];
  if (n.op == ir::ExprOp::kLocal) out.insert(n.index);
  for (const ir::ExprId k : n.kids) expression_locals(ir, k, out);
}

}  // namespace

std::vector<std::vector<std::int32_t>> static_successors(const ir::Ir& ir) {
  std::vector<std::vector<std::int32_t>> succ(ir.code.size());
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ir::Instr& in = ir.code[i];
    const auto next = static_cast<std::int32_t>(i + 1);
    switch (in.code) {
      case ir::OpCode::kEndGame: break;
      case ir::OpCode::kJump: succ[i] = {in.target}; break;
      case ir::OpCode::kJumpIfFalse:
      case ir::OpCode::kRepeatNext:
      case ir::OpCode::kForNext: succ[i] = {next, in.target}; break;
      default: succ[i] = {next}; break;
    }
  }
  return succ;
}

std::set<ir::Slot> expression_slots(const ir::Ir& ir) {
  std::set<ir::Slot> bound{ir::Ir::kChooserSlot, ir::Ir::kLegalSlot};
  for (const ir::ExprNode& n : ir.exprs) {
    if (n.op == ir::ExprOp::kComprehension || n.op == ir::ExprOp::kQuant || n.op == ir::ExprOp::kExtremum ||
        n.op == ir::ExprOp::kFirst) {
      bound.insert(n.index);
    }
  }
  for (const ir::DefInfo& d : ir.defs) bound.insert(d.params.begin(), d.params.end());
  for (const ir::VarInfo& v : ir.vars) {
    if (v.param >= 0) bound.insert(v.param);
  }
  for (const ir::ScoreInfo& s : ir.scores) bound.insert(s.param);
  for (const ir::PayoffInfo& p : ir.payoffs) bound.insert(p.param);
  return bound;
}

std::vector<std::set<ir::Slot>> live_locals(const ir::Ir& ir) {
  const auto succ = static_successors(ir);
  const std::set<ir::Slot> bound = expression_slots(ir);
  std::vector<std::set<ir::Slot>> use(ir.code.size()), def(ir.code.size()), live(ir.code.size());
  for (std::size_t i = 0; i < ir.code.size(); ++i) {
    const ir::Instr& in = ir.code[i];
    std::set<ir::Slot> reads;
    switch (in.code) {
      case ir::OpCode::kLet: expression_locals(ir, in.b, reads); def[i] = {in.a}; break;
      case ir::OpCode::kChoose:
        for (const ir::ExprId e : {in.b, in.c, in.d}) expression_locals(ir, e, reads);
        def[i] = {in.a};
        break;
      case ir::OpCode::kChooseMixed:
        expression_locals(ir, in.c, reads);
        def[i] = {in.a};
        for (const ir::AlternativeInfo& a : ir.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
          expression_locals(ir, a.domain, reads);
          // The guard reads the alternative's element, which the decision itself binds (each
          // member in turn): not a read of the slot's old value. Counted as one, the element
          // slot was live around the whole enclosing loop, so the state compared at the loop
          // head held the element the interpreter left there (the last member it tried, or a
          // stale card from an earlier turn), which no encoding of the decision can know.
          std::set<ir::Slot> guard_reads;
          expression_locals(ir, a.guard, guard_reads);
          if (a.slot >= 0) guard_reads.erase(a.slot);
          reads.insert(guard_reads.begin(), guard_reads.end());
          if (a.slot >= 0) def[i].insert(a.slot);
        }
        break;
      case ir::OpCode::kMove:
      case ir::OpCode::kSwapSeats: expression_locals(ir, in.a, reads); expression_locals(ir, in.b, reads); break;
      case ir::OpCode::kDeal: for (const ir::ExprId e : {in.a, in.b, in.c}) expression_locals(ir, e, reads); break;
      case ir::OpCode::kShuffle:
      case ir::OpCode::kFlip:
      case ir::OpCode::kEndGame:
      case ir::OpCode::kJumpIfFalse: expression_locals(ir, in.a, reads); break;
      case ir::OpCode::kSet:
      case ir::OpCode::kAdd: expression_locals(ir, in.b, reads); expression_locals(ir, in.c, reads); break;
      case ir::OpCode::kRepeatInit: expression_locals(ir, in.b, reads); def[i] = {in.a}; break;
      case ir::OpCode::kRepeatNext: reads.insert(in.a); break;
      case ir::OpCode::kForInit:
        expression_locals(ir, in.b, reads);
        expression_locals(ir, in.d, reads);
        def[i] = {in.a, in.e};
        break;
      case ir::OpCode::kForNext: reads = {in.a, in.e}; def[i] = {in.b}; break;
      default: break;
    }
    for (const ir::Slot s : reads) {
      if (bound.count(s) == 0) use[i].insert(s);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t k = ir.code.size(); k-- > 0;) {
      std::set<ir::Slot> out;
      for (const std::int32_t s : succ[k]) out.insert(live[static_cast<std::size_t>(s)].begin(), live[static_cast<std::size_t>(s)].end());
      for (const ir::Slot d : def[k]) out.erase(d);
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
