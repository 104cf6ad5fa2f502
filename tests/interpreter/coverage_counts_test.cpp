// Rule coverage counts starts ("reached") and starts that acted ("fired") apart: a labelled
// `if` whose test is false is reached, not fired, and a rule whose only effect faults has
// not acted either.
#include <algorithm>
#include <string>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/simulate.hpp"

namespace ri = rulebook::interpreter;

namespace interpreter_coverage_counts_test {  // this file's own names (unity builds put several files in one)
namespace {

std::size_t label_index(const ri::Machine& machine, const std::string& name) {
  const auto& labels = machine.ir().labels;
  const auto it = std::find(labels.begin(), labels.end(), name);
  REQUIRE(it != labels.end());
  return static_cast<std::size_t>(it - labels.begin());
}

}  // namespace

TEST_CASE("coverage: a labelled if whose test is false is reached, not fired", "[interpreter][coverage]") {
  const auto machine = rulebook::test::machine_for(R"(game "t"
players 2
cards { standard52 }
var n: int = 0
round {
  rule never: if n > 100 {
    set n := 0
  }
  rule count_up: add 1 to n
  rule stop: if n >= 3 {
    end game
  }
}
)");
  ri::GameConfig config;
  config.players = 2;
  const ri::GameResult r = ri::play_random_game(*machine, config, 100);
  REQUIRE_FALSE(r.fault.has_value());
  const std::size_t never = label_index(*machine, "never");
  const std::size_t count_up = label_index(*machine, "count_up");
  const std::size_t stop = label_index(*machine, "stop");
  CHECK(r.reached[never] == 3);
  CHECK(r.fired[never] == 0);
  CHECK(r.reached[count_up] == 3);
  CHECK(r.fired[count_up] == 3);
  CHECK(r.reached[stop] == 3);
  CHECK(r.fired[stop] == 1);
}

TEST_CASE("coverage: a rule whose only effect faults is reached, not fired", "[interpreter][coverage]") {
  const auto machine = rulebook::test::machine_for(R"(game "t"
players 2
cards { standard52 }
zone deck: pile hidden
zone table: pile public
round {
  rule outer: phase draw {
    rule take: move top(deck) to table
  }
  end game
}
)");
  ri::GameConfig config;
  config.players = 2;
  const ri::GameResult r = ri::play_random_game(*machine, config, 100);
  REQUIRE(r.fault.has_value());
  const std::size_t take = label_index(*machine, "take");
  const std::size_t outer = label_index(*machine, "outer");
  CHECK(r.reached[take] == 1);
  CHECK(r.fired[take] == 0);
  CHECK(r.reached[outer] == 1);
  CHECK(r.fired[outer] == 0);
}

}  // namespace interpreter_coverage_counts_test
