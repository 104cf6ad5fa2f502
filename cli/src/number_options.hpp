// The one parser for every numeric option of every command. CLI11 alone reads numbers with
// strtoll(..., 0): `0x10` is 16 and `010` is 8; an unsigned option wraps `-1` to 2^64 - 1,
// clamps a number too large, and a decimal one takes `nan`. Here a whole number is decimal
// digits only and a decimal number digits with at most one point; anything else, or a value
// out of the option's range, is refused with a message that names the option and the range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace rulebook::cli {

// Checks a whole number in [min, max] and rewrites it without leading zeros, so that CLI11's
// own conversion afterwards reads exactly the decimal number that was typed. Works on
// repeatable options too (each value is checked). The message, after CLI11's "--name: ", is
// "takes a whole number from MIN to MAX, not 'TEXT'".
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max);

// The same for a decimal number in [min, max]: "takes a number from MIN to MAX, not 'TEXT'".
CLI::Validator decimal_number(double min, double max);

// The checks themselves: the number, or nullopt when `text` is not one in the range.
std::optional<std::uint64_t> parse_whole_number(const std::string& text, std::uint64_t min, std::uint64_t max);
std::optional<double> parse_decimal_number(const std::string& text, double min, double max);

}  // namespace rulebook::cli
