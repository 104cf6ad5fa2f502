// Expressions evaluated one at a time, outside a run, for tools that explain a state (why a
// move is illegal, a narrator). The IR is the one given (Machine::ir(): definitions are
// calls, not inlined, so a definition's body can be evaluated with its parameters bound).
// The state is the caller's: it binds parameters and locals in it between evaluations.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

namespace detail {
class Executor;
}

class Evaluator {
 public:
  Evaluator(const Ir& ir, State& state);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // The value of `expr` in the state; nothing if the rules fault evaluating it.
  [[nodiscard]] std::optional<Value> eval(ExprId expr);
  // The key of a set of players in a set of sets (a bit per player); nothing if `set` is
  // not a set of players.
  [[nodiscard]] std::optional<std::int64_t> mask_of(const Value& set);

 private:
  std::unique_ptr<detail::Executor> exec_;
};

// The set of players whose bits are set in `mask` (the items of a set of sets of players).
[[nodiscard]] Value players_in_mask(std::int64_t mask);

}  // namespace rulebook::interpreter
