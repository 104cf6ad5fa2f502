// The verifier's encoding of payoffs (verifier/src/symbolic_payoffs.cpp): `end game` evaluates
// every payoff for every seat, and a zero denominator or a ratio that does not fit in 64 bits
// is a `well-defined` obligation. Defects in rare states are refuted by games that replay to
// the fault; their fixed twins are proved (before the encoding every proof of well-defined was
// turned into unknown for rules with payoffs); the soundness oracle checks the end-game step
// against the interpreter, faults included.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "oracle.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "rulebook/logs/replay.hpp"
#include "rulebook/verifier/verify.hpp"
#include "support.hpp"
#include "verifier/quick_verify.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for_file;

namespace verifier_payoff_encoding_test {  // this file's own names (unity builds put several files in one)
namespace {

const std::string kCases = "tests/verifier/cases/";


// The counterexample replayed by the interpreter: the fault it ends with.
std::optional<ri::Fault> replayed_fault(const ri::Machine& machine, const std::string& log) {
  rulebook::grammar::SourceManager sources;
  const auto id = sources.add("counterexample.jsonl", log);
  ri::ReplayOptions options;
  options.partial = true;
  const ri::ReplayResult r = ri::replay(machine, sources, id, options);
  CHECK(r.outcome == ri::ReplayOutcome::kFault);
  if (!r.final_state) return std::nullopt;
  return r.final_state->fault;
}

// A main file: well-defined refuted by a game whose replay ends in the payoff's fault.
void check_refuted(const std::string& file, ri::FaultKind kind, const std::string& message) {
  INFO(file);
  const auto machine = machine_for_file(kCases + file);
  const rv::Finding f = rulebook::test::only_finding(*machine, "well-defined");
  INFO(fmt::format("{}: {}", rv::status_name(f.status), f.message));
  REQUIRE(f.status == rv::Status::kRefuted);
  REQUIRE(f.counterexample.has_value());
  const std::optional<ri::Fault> fault = replayed_fault(*machine, f.counterexample->log);
  REQUIRE(fault.has_value());
  CHECK(fault->kind == kind);
  CHECK(fault->message.find(message) != std::string::npos);
}

void check_proved(const std::string& file, const std::string& property) {
  INFO(file << " " << property);
  const auto machine = machine_for_file(kCases + file);
  const rv::Finding f = rulebook::test::only_finding(*machine, property);
  INFO(fmt::format("{}: {} ({})", rv::status_name(f.status), f.message, f.method));
  CHECK(f.status == rv::Status::kProved);
}

}  // namespace

TEST_CASE("payoffverify: a zero denominator reached only in a rare state is refuted by a replayed game", "[payoffverify]") {
  check_refuted("payoff-zero-denominator.rules", ri::FaultKind::kDivisionByZero, "payoff 'share' of seat 0: 1 over 0");
}

TEST_CASE("payoffverify: a ratio that does not fit only in a rare state is refuted by a replayed game", "[payoffverify]") {
  check_refuted("payoff-overflow-numerator.rules", ri::FaultKind::kIntegerOverflow,
                "-9223372036854775808 over -1 does not fit");
  check_refuted("payoff-overflow-denominator.rules", ri::FaultKind::kIntegerOverflow,
                "3 over -9223372036854775808 does not fit");
}

TEST_CASE("payoffverify: the fixed twins are proved well-defined with their payoffs", "[payoffverify]") {
  // Before the encoding, a proof of well-defined for rules with payoffs became unknown.
  check_proved("payoff-zero-denominator-fixed.rules", "well-defined");
  // -2^63 over 1 and 2 over -2^63 fit: the encoding fails exactly where make_rational does.
  check_proved("payoff-overflow-numerator-fixed.rules", "well-defined");
  check_proved("payoff-overflow-denominator-fixed.rules", "well-defined");
}

TEST_CASE("payoffverify: a conditional payoff faults only in the branch it takes", "[payoffverify]") {
  // The branch that divides by 0 is taken by seat 1 after twelve go's in a row.
  check_refuted("payoff-conditional-branch.rules", ri::FaultKind::kDivisionByZero, "payoff 'bonus' of seat 1: 1 over 0");
  // The branch `1 over d` sits under `d == 0` being false: never evaluated, so proved.
  check_proved("payoff-conditional-branch-fixed.rules", "well-defined");
}

TEST_CASE("payoffverify: winnability and well-defined are both proved for rules with payoffs where they hold", "[payoffverify]") {
  const auto machine = machine_for_file(kCases + "payoff-zero-denominator-fixed.rules");
  rv::VerifyOptions options;
  options.players = 2;
  options.properties = {"well-defined", "winnability"};
  options.games = 60;
  const rv::VerifyReport report = rv::verify(*machine, options);
  REQUIRE(report.findings.size() == 2);
  for (const rv::Finding& f : report.findings) {
    INFO(fmt::format("{} {}: {}", f.property, rv::status_name(f.status), f.message));
    CHECK(f.status == rv::Status::kProved);
    CHECK(f.message.find("payoffs") == std::string::npos);  // no downgrade left
  }
}

TEST_CASE("payoffverify: the oracle checks the end-game step with payoffs, faults included", "[payoffverify][long]") {
  // Under the sanitizers (RULEBOOK_TEST_DIVISOR) fewer games and states, at least four each:
  // the full run takes two minutes in a release build.
  const auto scaled = [](std::int64_t n) { return static_cast<std::int32_t>(std::max<std::int64_t>(4, rulebook::test::games(n))); };
  rv::OracleOptions options;
  options.games = scaled(60);
  options.per_cut = scaled(20);
  options.mutations = scaled(20);
  options.choices = 7;  // every option of the boundary file's decisions
  const std::vector<std::string> files = {"payoff-zero-denominator.rules",      "payoff-zero-denominator-fixed.rules",
                                          "payoff-overflow-numerator.rules",    "payoff-overflow-numerator-fixed.rules",
                                          "payoff-overflow-denominator.rules",  "payoff-overflow-denominator-fixed.rules",
                                          "payoff-conditional-branch.rules",    "payoff-conditional-branch-fixed.rules",
                                          "payoff-boundaries.rules"};
  for (const std::string& file : files) {
    const auto machine = machine_for_file(kCases + file);
    ri::GameConfig config;
    config.players = 2;
    rv::OracleOptions these = options;
    if (file == "payoff-boundaries.rules") {
      // The states at its last decision come from random games: enough of them that each of
      // the 49 pairs of numerator and denominator is among the kept ones (about 8 times).
      these.games = scaled(800);
      these.per_cut = scaled(400);
      these.mutations = 0;
    }
    const rv::OracleReport report = rv::check_abstraction(*machine, config, these);
    INFO(fmt::format("{}: {} steps ({} from mutated states, {} faults)", file, report.steps, report.mutated, report.faults));
    for (const std::string& failure : report.failures) UNSCOPED_INFO(failure);
    CHECK(report.failures.empty());
    CHECK(report.undecided.empty());
    // The main files' payoff faults lie in states that mutation reaches (a flipped bool): the
    // faulting end-game step is checked, not only the normal one.
    if (file.find("-fixed") == std::string::npos) CHECK(report.faults > 0);
  }
}

TEST_CASE("payoffverify: ten thousand random games of each twin proved well-defined end without a fault", "[payoffverify]") {
  for (const char* file : {"payoff-zero-denominator-fixed.rules", "payoff-overflow-numerator-fixed.rules",
                           "payoff-overflow-denominator-fixed.rules", "payoff-conditional-branch-fixed.rules"}) {
    INFO(file);
    const auto machine = machine_for_file(kCases + file);
    std::int64_t rare = 0;  // games that reached the rare state (twelve go's in a row)
    const std::int64_t games = rulebook::test::games(10000);
    for (std::int64_t g = 0; g < games; ++g) {
      ri::GameConfig config;
      config.players = 2;
      config.seed = ri::game_seed(7, static_cast<std::uint64_t>(g));
      const ri::GameResult r = ri::play_random_game(*machine, config, 600, nullptr);
      CHECK(!r.fault.has_value());
      if (r.moves > 12) ++rare;
    }
    // At 1 in 4096 a game, the rare state is reached a few times in 10,000.
    if (games == 10000) CHECK(rare > 0);
  }
}

}  // namespace verifier_payoff_encoding_test
