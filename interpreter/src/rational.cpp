// Exact payoff values (see rational.hpp).
#include "rulebook/interpreter/rational.hpp"

#include <charconv>
#include <limits>
#include <numeric>

#include <fmt/format.h>

namespace rulebook::interpreter {

std::optional<Rational> make_rational(std::int64_t num, std::int64_t den) {
  if (den == 0) return std::nullopt;
  // On magnitudes, so that INT64_MIN (whose magnitude an int64 cannot hold) reduces too.
  const auto magnitude = [](std::int64_t x) {
    return x < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
  };
  const bool negative = (num < 0) != (den < 0) && num != 0;
  std::uint64_t n = magnitude(num), d = magnitude(den);
  const std::uint64_t g = std::gcd(n, d);
  n /= g;
  d /= g;
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (d > kMax) return std::nullopt;
  if (!negative) {
    if (n > kMax) return std::nullopt;
    return Rational{static_cast<std::int64_t>(n), static_cast<std::int64_t>(d)};
  }
  if (n > kMax + 1) return std::nullopt;
  return Rational{static_cast<std::int64_t>(std::uint64_t{0} - n), static_cast<std::int64_t>(d)};
}

std::string to_string(const Rational& r) {
  return r.den == 1 ? fmt::format("{}", r.num) : fmt::format("{}/{}", r.num, r.den);
}

std::optional<Rational> parse_rational(std::string_view text) {
  const auto slash = text.find('/');
  const std::string_view a = text.substr(0, slash);
  std::int64_t num = 0, den = 1;
  auto read = [](std::string_view s, std::int64_t& out) {
    if (s.empty()) return false;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
  };
  if (!read(a, num)) return std::nullopt;
  if (slash != std::string_view::npos && (!read(text.substr(slash + 1), den) || den <= 0)) return std::nullopt;
  return make_rational(num, den);
}

}  // namespace rulebook::interpreter
