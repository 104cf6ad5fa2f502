// Both shipped rulesets play 1,000 random games for every player count without a rule fault,
// and every game ends (none reaches the move cap).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "support.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace ri = rulebook::interpreter;

namespace interpreter_random_games_test {  // this file's own names (unity builds put several files in one)
namespace {

void run_games(const std::string& ruleset, std::int64_t players, std::map<std::string, std::string> options = {}) {
  const auto machine = rulebook::test::machine_for_file(ruleset);
  ri::GameConfig config;
  config.players = players;
  config.seed = 2026;
  config.options = std::move(options);
  const std::int64_t games = rulebook::test::games(1000);
  const auto results = ri::simulate(*machine, config, games, 1'000'000, 2);
  REQUIRE(static_cast<std::int64_t>(results.size()) == games);
  std::size_t faults = 0, capped = 0;
  for (const ri::GameResult& r : results) {
    if (r.fault) {
      ++faults;
      FAIL_CHECK(fmt::format("seed {}: {} ({})", r.seed, r.fault->message, machine->where(r.fault->span)));
    }
    if (r.capped) ++capped;
  }
  CHECK(faults == 0);
  CHECK(capped == 0);
}

}  // namespace

TEST_CASE("random games: Molestation Game, 2 players", "[random-games]") { run_games("rulesets/molestation-game.rules", 2); }
TEST_CASE("random games: Molestation Game, 3 players", "[random-games]") { run_games("rulesets/molestation-game.rules", 3); }
TEST_CASE("random games: Molestation Game, 4 players", "[random-games]") { run_games("rulesets/molestation-game.rules", 4); }
TEST_CASE("random games: Clusterfk, 4 players", "[random-games]") { run_games("rulesets/clusterfk.rules", 4); }
TEST_CASE("random games: Clusterfk, 5 players", "[random-games]") { run_games("rulesets/clusterfk.rules", 5); }
TEST_CASE("random games: Clusterfk, 6 players with Chlamydia and Ogling", "[random-games][long]") {
  run_games("rulesets/clusterfk.rules", 6, {{"chlamydia", "true"}, {"ogling", "true"}});
}
TEST_CASE("random games: Clusterfk, 7 players", "[random-games][long]") { run_games("rulesets/clusterfk.rules", 7); }
TEST_CASE("random games: Clusterfk, 8 players with Chlamydia", "[random-games][long]") {
  run_games("rulesets/clusterfk.rules", 8, {{"chlamydia", "true"}});
}

}  // namespace interpreter_random_games_test
