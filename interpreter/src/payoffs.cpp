// Payoffs at the game's end: exact rationals, evaluated once when `end game` runs. A
// conditional node picks a branch; a ratio evaluates its numerator, then its denominator
// (so a fault in either is found in that order), and reduces.
#include <fmt/format.h>

#include "executor.hpp"

namespace rulebook::interpreter::detail {

std::vector<std::vector<Rational>> Executor::eval_payoffs() {
  std::vector<std::vector<Rational>> out;
  out.reserve(ir_.payoffs.size());
  for (const ir::PayoffInfo& payoff : ir_.payoffs) {
    std::vector<Rational> row;
    for (std::int64_t p = 0; p < s_.num_seats; ++p) {
      s_.locals[static_cast<std::size_t>(payoff.param)] = Value::player(p);
      row.push_back(eval_payoff(payoff, 0, p));
    }
    out.push_back(std::move(row));
  }
  return out;
}

Rational Executor::eval_payoff(const ir::PayoffInfo& payoff, std::int32_t node, std::int64_t player) {
  // Nesting is bounded by the parser's depth limit, so this recursion is too.
  const ir::PayoffNode& n = payoff.nodes[static_cast<std::size_t>(node)];
  if (n.condition >= 0) {
    return eval_payoff(payoff, eval(n.condition).truthy() ? n.then_node : n.else_node, player);
  }
  const std::int64_t num = eval(n.numerator).scalar;
  const std::int64_t den = n.denominator >= 0 ? eval(n.denominator).scalar : 1;
  const grammar::SourceSpan& where = ir_.span_of(n.denominator >= 0 ? n.denominator : n.numerator);
  if (den == 0) {
    fault(FaultKind::kDivisionByZero, where,
          fmt::format("payoff '{}' of seat {}: {} over 0 (a zero denominator)", payoff.name, player, num));
  }
  const auto value = make_rational(num, den);
  if (!value) {
    fault(FaultKind::kIntegerOverflow, where,
          fmt::format("payoff '{}' of seat {}: {} over {} does not fit in 64 bits", payoff.name, player, num, den));
  }
  return *value;
}

}  // namespace rulebook::interpreter::detail
