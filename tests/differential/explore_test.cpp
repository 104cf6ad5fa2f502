// Exhaustive play, the differential check's ground truth: scenarios with known answers, each
// rule file's comment says what a game of it does.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/differential/explore.hpp"

namespace rd = rulebook::differential;
namespace ri = rulebook::interpreter;
using rulebook::test::machine_for;
using rulebook::test::machine_for_file;

namespace differential_explore_test {  // this file's own names (unity builds put several files in one)
namespace {

rd::Truth explore_text(const std::string& text, std::int64_t players = 2) {
  const auto machine = machine_for(text);
  ri::GameConfig config;
  config.players = players;
  return rd::explore(*machine, config);
}

// The same for a rule file of the source tree.
rd::Truth explore_file(const std::string& path, std::int64_t players = 2) {
  const auto machine = machine_for_file(path);
  ri::GameConfig config;
  config.players = players;
  return rd::explore(*machine, config);
}

}  // namespace

TEST_CASE("exhaustive play: a rare fault, a rule that fires once and the seat that wins are all found", "[differential]") {
  // The deal of 3 from a deck of 2 happens only after 12 true choices in a row.
  const rd::Truth t = explore_text(R"(game "t"
players 2
cards { chip: 2 }
zone deck: pile hidden
zone hand(p): set owner
var n: int = 0
setup { move box to deck }
round {
  rule go_on: choose go in {true, false} by seat 0
  if not go { end game winners {seat 1} }
  add 1 to n
  if n == 12 { rule bonus: deal 3 from deck to hand(seat 0) }
}
)");
  CHECK(t.complete);
  CHECK(t.has_fault_of("conservation"));
  CHECK_FALSE(t.has_fault_of("well-defined"));
  CHECK_FALSE(t.game_cycle);  // n grows until the fault: no state comes back
  REQUIRE(t.won.size() >= 2);
  CHECK_FALSE(t.won[0]);
  CHECK(t.won[1]);
}

TEST_CASE("exhaustive play: every draw and every shuffle order is a game", "[differential]") {
  // Seat 1 wins only when the draw gives 2 and the shuffled deck has kb on top.
  const rd::Truth t = explore_text(R"(game "t"
players 2
cards { ka: 2 kb: 1 }
zone deck: pile hidden
setup {
  move box to deck
  shuffle deck
}
round {
  choose d in {0, 1, 2} at random
  if d == 2 and kind(top(deck)) == kb { end game winners {seat 1} }
  end game winners {seat 0}
}
)");
  CHECK(t.complete);
  REQUIRE(t.won.size() >= 2);
  CHECK(t.won[0]);
  CHECK(t.won[1]);
  CHECK(t.states >= 2);
}

TEST_CASE("exhaustive play: a state that comes back is a cycle, within a round or across rounds", "[differential]") {
  const rd::Truth across = explore_text(R"(game "t"
players 2
cards { chip: 1 }
round {
  rule go_on: choose go in {true, false} by seat 0
  if not go { end game }
}
)");
  CHECK(across.complete);
  CHECK(across.game_cycle);
  CHECK_FALSE(across.round_cycle);
  const rd::Truth within = explore_text(R"(game "t"
players 2
cards { chip: 1 }
var done: bool = false
round {
  while not done {
    rule again: choose d in {true, false} by seat 0
    set done := d
  }
  end game
}
)");
  CHECK(within.complete);
  CHECK(within.round_cycle);
  CHECK(within.game_cycle);
  CHECK(within.looping == std::vector<std::string>{"test.rules:6"});
  // The cycle's one decision lies inside the `repeat`, but each time round it is the `while`
  // that goes round and the `repeat` that starts afresh: the `while` is the looping one (found
  // by the differential check, seed 101543: the `repeat`'s proof was taken for wrong).
  const rd::Truth nested = explore_text(R"(game "t"
players 2
cards { chip: 1 }
var n: int = 0
round {
  while n < 3 {
    add 0 to n
    repeat 1 {
      rule pick: choose x in {1, 2} by seat 0
    }
  }
}
)");
  CHECK(nested.complete);
  CHECK(nested.round_cycle);
  CHECK(nested.looping == std::vector<std::string>{"test.rules:6"});  // the while, not the repeat (line 8)
}

TEST_CASE("exhaustive play: invariants are checked where the game waits and at its end only", "[differential]") {
  const rd::Truth a = explore_file("tests/verifier/probes/invariant-policy-choice.rules", 1);
  CHECK(a.complete);
  REQUIRE(a.invariant_broken.size() == 1);
  CHECK_FALSE(a.invariant_broken[0]);
  const rd::Truth b = explore_file("tests/verifier/probes/invariant-faulting-choice.rules");
  CHECK(b.complete);
  CHECK(b.has_fault_of("playability"));
  REQUIRE(b.invariant_broken.size() == 1);
  CHECK_FALSE(b.invariant_broken[0]);
  // And an invariant that is false at a decision is broken.
  const rd::Truth c = explore_text(R"(game "t"
players 2
cards { chip: 1 }
var n: int = 0
invariant small: n < 2
round {
  add 1 to n
  rule go_on: choose go in {true, false} by seat 0
  if not go { end game }
}
)");
  REQUIRE(c.invariant_broken.size() == 1);
  CHECK(c.invariant_broken[0]);
}

TEST_CASE("exhaustive play: an endless loop without decisions is found, a long finite one is not", "[differential][long]") {
  const rd::Truth endless = explore_text(R"(game "t"
players 2
cards { chip: 1 }
var n: int = 0
round {
  rule go_on: choose go in {true, false} by seat 0
  while n < 1 { add 0 to n }
  end game
}
)");
  CHECK(endless.endless_loop);
  CHECK(endless.endless_in_round);
  CHECK(endless.has_fault_of("game-termination"));
  const rd::Truth finite = explore_file("tests/verifier/probes/long-finite-loop.rules");
  CHECK(finite.complete);
  CHECK_FALSE(finite.endless_loop);
  CHECK_FALSE(finite.game_cycle);
}


TEST_CASE("exhaustive play: options that depend on a hidden card are a conflict, options from what is seen are not", "[differential]") {
  // Seat 0 may pick 2 only when the top of the shuffled hidden deck is an apple: the same
  // view, different options.
  const rd::Truth a = explore_file("tests/verifier/probes/per-round-hidden-init.rules");
  CHECK(a.knowable_conflict);
  // The same, with the deck public: the chooser sees the top card, so no conflict.
  const rd::Truth b = explore_text(R"(game "t"
players 2
cards { apple: 2 pear: 2 }
zone deck: pile public
var peek: bool = count(deck) > 0 and kind(top(deck)) == apple per round
setup {
  move box to deck
  shuffle deck
}
round {
  rule pick: choose x in {1, 2, 3} by seat 0 where peek or x == 1
  end game winners players
}
)");
  CHECK(b.complete);
  CHECK_FALSE(b.knowable_conflict);
}

}  // namespace differential_explore_test
