// Choices the chooser tells apart by their rule. A view names who decides and by which rule,
// so a choice that is the only one of its rule is known to its chooser as the one that asks.
// That it is asked under a test on hidden cards (or not asked, or asked at one pass of a loop
// and not another) then tells nothing about its options, provided the options are a function
// of what the chooser sees at that moment: the zones (checked by Z3 as for every choice), the
// options of the game and the chooser itself, and no variable or local, whose value at the
// moment of asking the hidden test may have picked (a loop's element, a counter of passes).
#pragma once

#include <optional>

#include "rulebook/ir/ir.hpp"

namespace rulebook::verifier {

class KnownByRule {
 public:
  explicit KnownByRule(const ir::Ir& ir);
  // Whether the choice at `pc` (a Choose or ChooseMixed with a chooser) is alone in its rule
  // and its options read no variable or local but the chooser, the element its filter or
  // guard asks about, and what the options bind themselves; else where it reads one, or the
  // choice's own place when it shares its rule.
  [[nodiscard]] std::optional<grammar::SourceSpan> not_known(std::int32_t pc) const;

 private:
  std::optional<grammar::SourceSpan> reads_value(ir::ExprId id, ir::ExprId chooser, ir::Slot element, bool in_def,
                                                 std::vector<bool>& seen_defs, std::vector<ir::Slot>& bound) const;
  const ir::Ir& ir_;
  std::vector<std::int32_t> choices_in_rule_;  // by label
};

}  // namespace rulebook::verifier
