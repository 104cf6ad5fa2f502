// The soundness oracle (verifier/src/oracle.hpp) on every rule file the project has: every
// concrete step of the interpreter from a cut point, on states from random games and on
// mutated states no game need reach, must be a step the verifier's fused block allows,
// and every rule fault must be an obligation the verifier checks on that path. One failure
// is a soundness bug: a `proved` over the abstraction would not hold of the game.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "oracle.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for_file;

namespace verifier_oracle_test {  // this file's own names (unity builds put several files in one)
namespace {

void check_file(const std::string& relative, std::int64_t players, const rv::OracleOptions& options) {
  const auto machine = machine_for_file(relative);
  ri::GameConfig config;
  // A count the ruleset does not allow (War is for two) becomes the nearest it does.
  config.players = players == 0 ? 0 : std::clamp(players, machine->ir().players_min, machine->ir().players_max);
  const rv::OracleReport report = rv::check_abstraction(*machine, config, options);
  INFO(fmt::format("{} at {} players: {} steps ({} from mutated states, {} faults)", relative, players, report.steps,
                   report.mutated, report.faults));
  CHECK(report.steps > 0);
  for (const std::string& f : report.failures) UNSCOPED_INFO(f);
  CHECK(report.failures.empty());
  for (const std::string& u : report.undecided) UNSCOPED_INFO("undecided: " + u);
  CHECK(report.undecided.empty());
}

std::vector<std::string> files_under(const std::string& folder) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(rulebook::test::source_path(folder))) return out;
  for (const std::string& path : rulebook::test::rule_files(rulebook::test::source_path(folder))) {
    out.push_back(path.substr(rulebook::test::source_path("").size()));
  }
  return out;
}

}  // namespace

TEST_CASE("oracle: every step of the shipped rulesets and variants is allowed by the abstraction", "[verifier][oracle][long]") {
  rv::OracleOptions options;
  options.games = rulebook::test::games(20);
  options.per_cut = static_cast<std::int32_t>(std::max<std::int64_t>(2, rulebook::test::games(3)));
  options.mutations = static_cast<std::int32_t>(std::max<std::int64_t>(2, rulebook::test::games(3)));
  options.choices = 2;
  for (const std::string& file : files_under("rulesets")) {
    const std::int64_t players = file.find("molestation") != std::string::npos ? 2 : 4;
    check_file(file, players, options);
  }
  check_file("rulesets/molestation-game.rules", 3, options);
  check_file("rulesets/clusterfk.rules", 6, options);
}

TEST_CASE("oracle: every step of the verifier's test rule files is allowed by the abstraction", "[verifier][oracle][long]") {
  rv::OracleOptions options;
  options.games = rulebook::test::games(30);
  // Under the sanitizers (RULEBOOK_TEST_DIVISOR) fewer states per cut point, at least two.
  options.per_cut = static_cast<std::int32_t>(std::max<std::int64_t>(2, rulebook::test::games(6)));
  options.mutations = static_cast<std::int32_t>(std::max<std::int64_t>(2, rulebook::test::games(8)));
  for (const char* folder : {"tests/verifier/cases", "tests/verifier/corpus", "tests/verifier/probes", "tests/golden/fmt"}) {
    for (const std::string& file : files_under(folder)) check_file(file, 0, options);
  }
}

}  // namespace verifier_oracle_test
