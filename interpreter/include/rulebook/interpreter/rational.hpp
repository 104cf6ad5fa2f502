// An exact payoff value: a fraction of two 64-bit ints, in lowest terms, its denominator
// above zero. Payoffs are the only rationals in the language (`N over D`); everything else
// is an int, so this is a value type of its own and not a kind of Value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rulebook::interpreter {

struct Rational {
  std::int64_t num = 0;
  std::int64_t den = 1;
  friend bool operator==(const Rational&, const Rational&) = default;
};

// num/den in lowest terms, or nothing when den is 0 or the result does not fit (only
// INT64_MIN over a negative denominator: the sign moves to the numerator).
[[nodiscard]] std::optional<Rational> make_rational(std::int64_t num, std::int64_t den);

// `3/2`, `-1/3`, `2` (an integer has no `/1`): how logs and reports write a payoff.
[[nodiscard]] std::string to_string(const Rational& r);

// Reads what to_string writes (also `6/4`, which is then reduced); nothing for anything else.
[[nodiscard]] std::optional<Rational> parse_rational(std::string_view text);

// The value as a long double, for means and intervals.
[[nodiscard]] inline long double to_long_double(const Rational& r) {
  return static_cast<long double>(r.num) / static_cast<long double>(r.den);
}

}  // namespace rulebook::interpreter
