// The obligations that guard against the interpreter's faults where they are not part of one
// instruction's or expression's own encoding: which property a fault kind belongs to, an
// automated seat's policy picking a legal option, integer results within 64 bits, and a
// card that may be none where the card is not kept.
#include <limits>

#include "symbolic_run.hpp"

namespace rulebook::verifier {

ObligationKind obligation_kind(ir::FaultKind fault) {
  const std::string_view property = ir::fault_kind_info(fault).property;
  if (property == "conservation") return ObligationKind::kTakeFromEmpty;
  if (property == "playability") return ObligationKind::kLegalChoice;
  return ObligationKind::kDefined;
}

void Encoder::Run::check_policy(const ir::Instr& in, const z3::expr& chooser, const Sym& legal) {
  using S = Sym::Shape;
  // The policy runs only for an automated chooser.
  const ir::VarInfo& automated = ir_.vars[0];
  std::vector<z3::expr> flags;
  for (std::int64_t p = 0; p < seats(); ++p) {
    const std::int32_t index = layout_.var_index[static_cast<std::size_t>(automated.first_slot + p)];
    flags.push_back(index >= 0 ? at(index) != num(0) : fresh_bool());
  }
  const z3::expr runs = select(flags, chooser);
  path_.push_back(runs);
  const auto old_chooser = bind(ir::Ir::kChooserSlot, make_int(chooser, Kind::kPlayer));
  const auto old_legal = bind(ir::Ir::kLegalSlot, legal);
  const Sym picked = eval(in.e);
  unbind(ir::Ir::kLegalSlot, old_legal);
  unbind(ir::Ir::kChooserSlot, old_chooser);
  z3::expr member = fresh_bool();  // unknown unless the shapes say
  if ((legal.shape == S::kPlayers || legal.shape == S::kValues) && legal.kind != Kind::kBool && picked.shape == S::kInt) {
    std::vector<z3::expr> bits = legal.e;
    const auto size = static_cast<std::int64_t>(bits.size());
    bits.push_back(ctx_.bool_val(false));  // none or out of range: not an option
    member = select(bits, z3::ite(picked.e[0] < num(0) || picked.e[0] >= num(size), num(size), picked.e[0]));
  } else if (legal.shape == S::kValues && legal.kind == Kind::kBool && picked.shape == S::kBool) {
    member = z3::ite(picked.e[0], legal.e[1], legal.e[0]);
  } else if (legal.shape == S::kCards && !legal.varies && picked.shape == S::kCard) {
    std::vector<z3::expr> counts(legal.e.begin() + 1, legal.e.end());
    member = picked.e[0] >= num(0) && picked.e[0] == legal.e[0] && picked.e[1] >= num(0) &&
             picked.e[1] < num(classes()) && select(counts, picked.e[1]) > num(0);
  }
  oblige(ir::FaultKind::kIllegalPolicyChoice, member, ir_.span_of(in), "the policy's choice is a legal option");
  path_.pop_back();
}

bool Encoder::Run::may_be_none_card(ir::ExprId id) const {
  const ir::ExprNode& n = ir_.exprs[static_cast<std::size_t>(id)];
  auto card_or_unseen = [](Kind k) { return k == Kind::kCard || k == Kind::kNone; };
  switch (n.op) {
    case ExprOp::kZone:
    case ExprOp::kComprehension:
    case ExprOp::kAllCards:
    case ExprOp::kSetLit:
    case ExprOp::kBinary: return false;  // sets of cards
    case ExprOp::kVar: {
      const auto slot = static_cast<std::size_t>(ir_.vars[static_cast<std::size_t>(n.index)].first_slot);
      return slot >= enc_.kinds_.var.size() || card_or_unseen(enc_.kinds_.var[slot]);
    }
    case ExprOp::kLocal: {
      const auto slot = static_cast<std::size_t>(n.index);
      return slot >= enc_.kinds_.local.size() || card_or_unseen(enc_.kinds_.local[slot]);
    }
    case ExprOp::kBuiltin:
      return !((static_cast<Builtin>(n.sub) == Builtin::kTop || static_cast<Builtin>(n.sub) == Builtin::kBottom) &&
               n.kids.size() == 2);
    default: return true;
  }
}

Encoder::Sym Encoder::Run::checked(const Sym& v, const grammar::SourceSpan& span) {
  if (v.shape != Sym::Shape::kInt) return v;
  const z3::expr x = v.e[0];
  if (x.simplify().is_numeral()) {
    const z3::expr s = x.simplify();
    std::int64_t value = 0;
    if (s.is_numeral_i64(value)) return v;
  }
  oblige(ir::FaultKind::kIntegerOverflow,
         x >= ctx_.int_val(std::numeric_limits<int64_t>::min()) && x <= ctx_.int_val(std::numeric_limits<int64_t>::max()),
         span, "an integer result within 64 bits");
  return v;
}

}  // namespace rulebook::verifier
