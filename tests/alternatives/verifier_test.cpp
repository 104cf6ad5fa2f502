// The soundness oracle (verifier/src/oracle.hpp) on the rule files with decisions with
// alternatives: every concrete step from a decision with alternatives, on sampled and mutated
// states, is a step the verifier's encoding allows, and its faults (no legal move, a deal from
// a short deck in a rarely legal alternative) are obligations it checks.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "oracle.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;

TEST_CASE("alternatives: the oracle allows every step of a decision with alternatives", "[alternatives][verifier][oracle]") {
  rv::OracleOptions options;
  options.games = rulebook::test::games(30);
  options.per_cut = 4;
  options.mutations = 6;
  for (const char* file : {"tests/alternatives/alternatives.rules",
                           "tests/verifier/corpus/95-alternative-rare-bonus.rules",
                           "tests/verifier/corpus/95-alternative-rare-bonus.fixed.rules"}) {
    const auto machine = rulebook::test::machine_for_file(file);
    ri::GameConfig config;
    config.players = 2;
    const rv::OracleReport report = rv::check_abstraction(*machine, config, options);
    INFO(fmt::format("{}: {} steps ({} from mutated states, {} faults)", file, report.steps, report.mutated, report.faults));
    CHECK(report.steps > 0);
    for (const std::string& f : report.failures) UNSCOPED_INFO(f);
    CHECK(report.failures.empty());
    for (const std::string& u : report.undecided) UNSCOPED_INFO("undecided: " + u);
    CHECK(report.undecided.empty());
  }
}
