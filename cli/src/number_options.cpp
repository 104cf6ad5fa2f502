// Numeric options: strict decimal syntax and a range, checked before CLI11 converts.
#include "number_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "rulebook/grammar/printable.hpp"

namespace rulebook::cli {

namespace {

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A bound as people write it: 1000000, not 1e+06.
std::string bound_text(double bound) {
  if (bound == std::floor(bound) && std::abs(bound) < 1e15) return fmt::format("{}", static_cast<std::int64_t>(bound));
  return fmt::format("{}", bound);
}

}  // namespace

std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t min, std::uint64_t max) {
  // Digits only: no sign, no 0x or 0o prefix, no point, no exponent, no spaces.
  if (!all_digits(text)) return std::nullopt;
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (error != std::errc() || stop != end) return std::nullopt;  // too large for 64 bits
  if (value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> parse_decimal_number(const std::string& text, double min, double max) {
  // Digits with at most one point, and a digit on some side of it: no nan, inf or exponent.
  const std::size_t point = text.find('.');
  const std::string_view whole = std::string_view(text).substr(0, point);
  const std::string_view fraction =
      point == std::string::npos ? std::string_view() : std::string_view(text).substr(point + 1);
  if ((!whole.empty() && !all_digits(whole)) || (!fraction.empty() && !all_digits(fraction)) ||
      (whole.empty() && fraction.empty())) {
    return std::nullopt;
  }
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  if (error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
  if (value < min || value > max) return std::nullopt;
  return value;
}

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        const std::optional<std::uint64_t> value = parse_whole_number(text, min, max);
        if (!value) return fmt::format("takes a whole number from {} to {}, not '{}'", min, max, grammar::printable_short(text));
        text = std::to_string(*value);  // without leading zeros, which CLI11 would read as octal
        return {};
      },
      fmt::format("from {} to {}", min, max), "whole number");
}

CLI::Validator decimal_number(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        if (!parse_decimal_number(text, min, max)) {
          return fmt::format("takes a number from {} to {}, not '{}'", bound_text(min), bound_text(max), grammar::printable_short(text));
        }
        return {};
      },
      fmt::format("from {} to {}", bound_text(min), bound_text(max)), "decimal number");
}

}  // namespace rulebook::cli
