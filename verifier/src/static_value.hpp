// Values a fixed setting decides: expressions that read only constants, options, the player
// count and locals the caller binds (a card, for the card predicates that define the card
// classes). The value is the interpreter's own (interpreter::Evaluator) on a state built for
// the setting, so the verifier and the game agree on every value and on every rule fault:
// an expression the interpreter faults on (an overflow, a division by zero) has no value.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "layout.hpp"
#include "rulebook/interpreter/state.hpp"
#include "rulebook/ir/ir.hpp"

namespace rulebook::verifier {

using StaticEnv = std::unordered_map<ir::Slot, ir::Value>;

class StaticValues {
 public:
  StaticValues(const ir::Ir& ir, const Setting& setting);
  // The value of `id` with the locals of `env` bound; nothing when it reads anything else
  // (a variable, a zone, a local not bound, a builtin that reads the game) or the rules
  // fault evaluating it.
  [[nodiscard]] std::optional<ir::Value> value(ir::ExprId id, const StaticEnv& env);

 private:
  const ir::Ir& ir_;
  interpreter::State state_;  // the setting: options, counts and cards; nothing else is read
};

}  // namespace rulebook::verifier
