// The public evaluator (evaluator.hpp): the executor with no sink, faults as nothing.
#include "rulebook/interpreter/evaluator.hpp"

#include "executor.hpp"

namespace rulebook::interpreter {

Evaluator::Evaluator(const Ir& ir, State& state) : exec_(std::make_unique<detail::Executor>(ir, state, nullptr)) {}

Evaluator::~Evaluator() = default;

std::optional<Value> Evaluator::eval(ExprId expr) {
  try {
    return exec_->eval(expr);
  } catch (const detail::FaultSignal&) {
    return std::nullopt;
  }
}

std::optional<std::int64_t> Evaluator::mask_of(const Value& set) {
  try {
    return exec_->mask_of(set, grammar::SourceSpan{});
  } catch (const detail::FaultSignal&) {
    return std::nullopt;
  }
}

Value players_in_mask(std::int64_t mask) { return detail::players_of_mask(mask); }

}  // namespace rulebook::interpreter
