// Helpers of the library's sources: sums that must not wrap, and JSON text.
#pragma once

#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "rulebook/stats/simulation_stats.hpp"

namespace rulebook::stats::detail {

// Adds `more` to `total`, or says whose sum passed the largest value of its type. Counts of a
// file that was read are checked against its own games, but a made-up file can hold rule
// firings near 2^64, so sums are checked too.
template <typename Count>
void add_count(Count& total, Count more, const std::string& what) {
  if (__builtin_add_overflow(total, more, &total)) {
    throw StatsError(fmt::format("{}: the sum passes {}", what, std::numeric_limits<Count>::max()));
  }
}

// JSON as text, as the command line's json_text writes it: each byte that is not UTF-8 (a
// file name is any bytes; so may a title be) becomes U+FFFD, where nlohmann's dump would throw.
inline std::string json_text(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace rulebook::stats::detail
