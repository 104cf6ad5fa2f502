// Verifying one property of a small test ruleset, quickly: two players, 60 sampled games, a
// short Z3 budget and a small exhaustive search (enough for the scenario files of the tests,
// whose defects sit behind at most a few dozen moves).
#pragma once

#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "rulebook/interpreter/machine.hpp"
#include "rulebook/verifier/verify.hpp"

namespace rulebook::test {

inline verifier::VerifyOptions quick_options(const std::string& property) {
  verifier::VerifyOptions options;
  options.players = 2;
  options.properties = {property};
  options.games = 60;
  options.timeout_seconds = 20;
  options.search_states = 20000;
  options.search_seconds = 5;
  return options;
}

// The one finding of `property` (its status, message and details logged for a failing check).
inline verifier::Finding only_finding(const interpreter::Machine& machine, const std::string& property) {
  const verifier::VerifyReport report = verifier::verify(machine, quick_options(property));
  REQUIRE(report.findings.size() == 1);
  const verifier::Finding& f = report.findings.front();
  UNSCOPED_INFO(fmt::format("{}: {}\n{}", verifier::status_name(f.status), f.message, fmt::join(f.details, "\n")));
  CHECK(f.property == property);
  return f;
}

}  // namespace rulebook::test
