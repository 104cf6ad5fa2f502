#include "knowable_by_rule.hpp"

#include <algorithm>

namespace rulebook::verifier {

KnownByRule::KnownByRule(const ir::Ir& ir) : ir_(ir), choices_in_rule_(ir.labels.size(), 0) {
  for (const ir::Instr& in : ir.code) {
    const bool choice = in.code == ir::OpCode::kChoose || in.code == ir::OpCode::kChooseMixed;
    if (choice && in.c >= 0 && in.rule >= 0 && static_cast<std::size_t>(in.rule) < choices_in_rule_.size()) {
      ++choices_in_rule_[static_cast<std::size_t>(in.rule)];
    }
  }
}

std::optional<grammar::SourceSpan> KnownByRule::not_known(std::int32_t pc) const {
  const ir::Instr& in = ir_.code[static_cast<std::size_t>(pc)];
  if (in.rule < 0 || choices_in_rule_[static_cast<std::size_t>(in.rule)] != 1) return ir_.span_of(in);
  std::vector<std::pair<ir::ExprId, ir::Slot>> sources{{in.b, -1}, {in.d, in.a}};
  if (in.code == ir::OpCode::kChooseMixed) {
    sources.clear();
    for (const ir::AlternativeInfo& a : ir_.mixed_choices[static_cast<std::size_t>(in.b)].alternatives) {
      sources.emplace_back(a.domain, -1);
      sources.emplace_back(a.guard, a.slot);
    }
  }
  for (const auto& [e, element] : sources) {
    std::vector<bool> seen_defs(ir_.defs.size(), false);
    std::vector<ir::Slot> bound;
    if (auto where = reads_value(e, in.c, element, false, seen_defs, bound)) return where;
  }
  return std::nullopt;
}

std::optional<grammar::SourceSpan> KnownByRule::reads_value(ir::ExprId id, ir::ExprId chooser, ir::Slot element, bool in_def,
                                                            std::vector<bool>& seen_defs, std::vector<ir::Slot>& bound) const {
  if (id < 0) return std::nullopt;
  const ir::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
  const ir::ExprNode* who = chooser >= 0 ? &ir_.exprs[static_cast<std::size_t>(chooser)] : nullptr;
  switch (n.op) {
    case ir::ExprOp::kVar:
      // The chooser's own identity held in a variable (`by turn`) is known to it.
      if (who != nullptr && who->op == ir::ExprOp::kVar && who->kids.empty() && who->index == n.index && n.kids.empty()) break;
      return ir_.span_of(n);
    case ir::ExprOp::kLocal:
      // Inside a definition every local is a parameter (its argument is read where it is
      // called) or an element the body binds.
      if (in_def || n.index == element || std::find(bound.begin(), bound.end(), n.index) != bound.end()) break;
      if (who != nullptr && who->op == ir::ExprOp::kLocal && who->index == n.index) break;
      return ir_.span_of(n);
    case ir::ExprOp::kDef: {
      const auto d = static_cast<std::size_t>(n.index);
      if (!seen_defs[d]) {
        seen_defs[d] = true;
        if (auto r = reads_value(ir_.defs[d].body, chooser, element, true, seen_defs, bound)) return r;
      }
      break;
    }
    case ir::ExprOp::kComprehension:
    case ir::ExprOp::kQuant:
    case ir::ExprOp::kExtremum:
    case ir::ExprOp::kFirst: bound.push_back(n.index); break;
    default: break;
  }
  for (const ir::ExprId k : n.kids) {
    if (auto r = reads_value(k, chooser, element, in_def, seen_defs, bound)) return r;
  }
  return std::nullopt;
}

}  // namespace rulebook::verifier
