// The payoffs of `end game` on a symbolic state: the counterpart of the interpreter's
// eval_payoffs (interpreter/src/payoffs.cpp). Each payoff for each seat in turn, its parameter
// bound to that seat; a conditional node evaluates its condition, then one branch only (each
// branch under its side of the condition); a ratio its numerator, then its denominator. The
// faults are obligations of the `well-defined` property: those of the expressions (their own
// encoding), a zero denominator, and a ratio that make_rational cannot hold in 64 bits. The
// game ends only where none of them fails.
#include <limits>

#include <fmt/format.h>

#include "symbolic_run.hpp"

namespace rulebook::verifier {

void Encoder::Run::payoffs() {
  for (const ir::PayoffInfo& payoff : ir_.payoffs) {
    for (std::int64_t p = 0; p < seats(); ++p) {
      const auto old = bind(payoff.param, make_int(num(p), Kind::kPlayer));
      payoff_node(payoff, 0, p);
      unbind(payoff.param, old);
    }
  }
}

void Encoder::Run::payoff_node(const ir::PayoffInfo& payoff, std::int32_t node, std::int64_t seat) {
  // Nesting is bounded by the parser's depth limit, so this recursion is too.
  const ir::PayoffNode& n = payoff.nodes[static_cast<std::size_t>(node)];
  if (n.condition >= 0) {
    const z3::expr c = as_bool(eval(n.condition));
    path_.push_back(c);
    payoff_node(payoff, n.then_node, seat);
    path_.pop_back();
    path_.push_back(!c);
    payoff_node(payoff, n.else_node, seat);
    path_.pop_back();
    return;
  }
  const z3::expr a = as_int(eval(n.numerator));
  // A whole number (no denominator) is itself over 1, which always fits.
  if (n.denominator < 0) return;
  const z3::expr d = as_int(eval(n.denominator));
  const grammar::SourceSpan& where = ir_.span_of(n.denominator);
  oblige(ir::FaultKind::kDivisionByZero, d != num(0), where,
         fmt::format("payoff '{}' of seat {}: a denominator other than 0", payoff.name, seat));
  // make_rational reduces on magnitudes and fails only where a magnitude of 2^63 stays after
  // the reduction: a denominator of INT64_MIN over an odd numerator (the gcd is 1, the
  // denominator cannot be positive), or a numerator of INT64_MIN over an odd negative
  // denominator (the sign moves to the numerator, +2^63). Odd: a remainder of 1 (Z3's mod is
  // never negative). Exactly these, so that the oracle can tell a missing or a spurious case.
  const z3::expr lowest = ctx_.int_val(std::numeric_limits<int64_t>::min());
  const auto odd = [&](const z3::expr& x) { return z3::mod(x, num(2)) == num(1); };
  const z3::expr fails = (d == lowest && odd(a)) || (a == lowest && d < num(0) && odd(d));
  oblige(ir::FaultKind::kIntegerOverflow, !fails, where,
         fmt::format("payoff '{}' of seat {}: a ratio that fits in 64 bits", payoff.name, seat));
}

}  // namespace rulebook::verifier
