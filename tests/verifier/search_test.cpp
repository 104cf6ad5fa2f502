// The explicit-state search on small inline games, each hiding what random play misses: a
// fault behind 21 `true`s in a row, a rule behind 15 exact choices, a loop the players can
// keep going forever. Every hit is played again from the start, move by move, and must show
// what the search reported; an exhausted search of a sound game reports nothing.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/simulate.hpp"
#include "search.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for;
using rulebook::test::machine_for_file;

namespace verifier_search_test {  // this file's own names (unity builds put several files in one)
namespace {

// Twenty alike chips: only a player who says `true` 21 times in a row reaches the empty hand.
const char* const kRareEmptyHand = R"(game "Rare empty hand"
players 2
cards { chip: 20 }
zone hand(p): set owner
zone table: pile public
setup { move box to hand(seat 0) }
round {
  rule keep_going: choose go in {true, false} by seat 0
  if not go { end game winners players }
  rule play: choose c in hand(seat 0) by seat 0
  move c to table
}
)";

// The lock opens on 0, 1, 2, 0, 1, 2, ... fifteen times; a wrong digit starts over, and the
// game ends after 40 turns.
const char* const kCombinationLock = R"(game "Combination lock"
players 2
cards { chip: 1 }
var progress: int = 0
var turns: int = 0
round {
  rule dial: choose d in {0, 1, 2} by seat 0
  if d == progress % 3 { add 1 to progress } else { set progress := 0 }
  add 1 to turns
  if progress >= 15 {
    rule open: end game winners {seat 1}
  }
  if turns >= 40 { end game winners {seat 0} }
}
)";

// Sound: the total only grows by 1 or 2 and the game ends at 10, so it never passes 11.
const char* const kCountToTen = R"(game "Count to ten"
players 2
cards { chip: 1 }
var total: int = 0
var turn: player = seat 0
invariant bounded: total <= 11
round {
  rule step: choose n in {1, 2} by turn
  add n to total
  set turn := left_of(turn)
  if total >= 10 { end game winners players }
}
)";

// The token goes round while nobody keeps it: the players may pass it forever.
const char* const kEndlessPassing = R"(game "Endless passing"
players 2
cards { token: 1 }
zone hand(p): pile owner
var kept: bool = false
var turn: player = seat 0
setup { move box to hand(seat 0) }
round {
  rule pass_around: while not kept {
    rule keep_or_pass: choose keep in {true, false} by turn
    if keep {
      set kept := true
    } else {
      move top(hand(turn)) to hand(left_of(turn))
      set turn := left_of(turn)
    }
  }
  end game winners {turn}
}
)";

std::int32_t label_of(const ri::Machine& machine, const std::string& name) {
  const auto& labels = machine.ir().labels;
  const auto it = std::find(labels.begin(), labels.end(), name);
  REQUIRE(it != labels.end());
  return static_cast<std::int32_t>(it - labels.begin());
}

// Plays `moves` from the start of the game with the configuration's seed.
ri::State play(const ri::Machine& machine, const ri::GameConfig& config, const std::vector<std::size_t>& moves,
               std::size_t count) {
  ri::State state = machine.start(config);
  for (std::size_t i = 0; i < count; ++i) {
    REQUIRE(state.decision);
    REQUIRE(moves[i] < machine.legal_moves(state).size());
    machine.apply(state, moves[i]);
  }
  return state;
}

// Plays every hit again and checks that it shows what it claims.
void require_hits_replay(const ri::Machine& machine, const ri::GameConfig& config, const rv::SearchGoal& goal,
                         const rv::SearchResult& result) {
  for (const rv::SearchHit& hit : result.hits) {
    const ri::State end = play(machine, config, hit.moves, hit.moves.size());
    switch (hit.what) {
      case rv::SearchHit::What::kFault:
        REQUIRE(end.fault);
        CHECK(end.fault->rule == hit.index);
        break;
      case rv::SearchHit::What::kFired:
        CHECK(end.reached[static_cast<std::size_t>(hit.index)] > 0);
        break;
      case rv::SearchHit::What::kWon:
        CHECK(end.finished);
        CHECK(std::find(end.winners.begin(), end.winners.end(), hit.index) != end.winners.end());
        break;
      case rv::SearchHit::What::kInvariant: {
        const auto holds = machine.evaluate(end, goal.invariants[static_cast<std::size_t>(hit.index)]);
        REQUIRE(holds);
        CHECK_FALSE(holds->truthy());
        break;
      }
      case rv::SearchHit::What::kLasso: {
        // The cycle comes back to the very state it left: same control, cards and variables.
        const auto cycle_start = static_cast<std::size_t>(hit.index);
        REQUIRE(cycle_start < hit.moves.size());
        const ri::State entry = play(machine, config, hit.moves, cycle_start);
        CHECK(end.pc == entry.pc);
        CHECK(end.zones == entry.zones);
        CHECK(end.moves > entry.moves);
        REQUIRE(end.vars.size() == entry.vars.size());
        for (std::size_t i = 0; i < end.vars.size(); ++i) CHECK(ri::equal(end.vars[i], entry.vars[i]));
        REQUIRE(end.decision);
        REQUIRE(entry.decision);
        CHECK(end.decision->instr == entry.decision->instr);
        CHECK(end.decision->player == entry.decision->player);
        std::vector<std::uint64_t> a;
        std::vector<std::uint64_t> b;
        rv::state_words(end, goal, rv::SearchSymmetry::kExact, a);
        rv::state_words(entry, goal, rv::SearchSymmetry::kExact, b);
        CHECK(a == b);
        break;
      }
    }
  }
}

std::size_t count_hits(const rv::SearchResult& result, rv::SearchHit::What what) {
  return static_cast<std::size_t>(std::count_if(result.hits.begin(), result.hits.end(),
                                                 [&](const rv::SearchHit& h) { return h.what == what; }));
}

// Runs a search and prints its figures (states, seconds), for the record of what it costs.
rv::SearchResult timed_search(const std::string& name, const ri::Machine& machine, const ri::GameConfig& config,
                              const rv::SearchGoal& goal, std::int64_t max_states, std::int64_t max_depth,
                              rv::SearchSymmetry symmetry = rv::SearchSymmetry::kExact) {
  const auto started = std::chrono::steady_clock::now();
  rv::SearchResult result = rv::search_states(machine, config, goal, max_states, 120.0, max_depth, symmetry);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << "search " << name << ": " << result.states << " states, " << seconds << " s, "
            << result.hits.size() << " hits" << (result.exhausted ? ", exhausted" : "")
            << (result.cut ? ", cut" : "") << '\n';
  return result;
}

}  // namespace

TEST_CASE("search: the empty hand behind 21 trues is found, where 300 random games fault nowhere",
          "[verifier][search]") {
  const auto machine = machine_for(kRareEmptyHand);
  ri::GameConfig config;
  config.seed = 7;
  for (const ri::GameResult& game : ri::simulate(*machine, config, 300, 1000, 1)) CHECK_FALSE(game.fault.has_value());

  const rv::SearchGoal goal;
  const rv::SearchResult result = timed_search("rare empty hand (alike chips)", *machine, config, goal, 200'000, 100,
                                               rv::SearchSymmetry::kAlikeCards);
  REQUIRE(count_hits(result, rv::SearchHit::What::kFault) == 1);
  const rv::SearchHit& fault = result.hits.front();
  CHECK(fault.index == label_of(*machine, "play"));
  CHECK(fault.moves.size() == 41);  // 20 times `true` and a chip, then `true` with no chip
  CHECK(count_hits(result, rv::SearchHit::What::kLasso) == 0);
  CHECK(result.exhausted);
  require_hits_replay(*machine, config, goal, result);
}

TEST_CASE("search: telling every chip apart, the same search runs out of states long before the empty hand",
          "[verifier][search]") {
  // Which chip lies where makes 20 * 19 * 18 * ... states a level: the reason for kAlikeCards.
  const auto machine = machine_for(kRareEmptyHand);
  const rv::SearchResult result =
      timed_search("rare empty hand (exact)", *machine, ri::GameConfig{}, rv::SearchGoal{}, 200'000, 100);
  CHECK(result.cut);
  CHECK_FALSE(result.exhausted);
  CHECK(result.states == 200'000);
  CHECK(count_hits(result, rv::SearchHit::What::kFault) == 0);
}

TEST_CASE("search: a rule behind 15 exact choices fires, by the shortest sequence", "[verifier][search]") {
  const auto machine = machine_for(kCombinationLock);
  ri::GameConfig config;
  for (const ri::GameResult& game : ri::simulate(*machine, config, 300, 1000, 1)) {
    CHECK(game.reached[static_cast<std::size_t>(label_of(*machine, "open"))] == 0);
  }

  rv::SearchGoal goal;
  goal.labels = {label_of(*machine, "open")};
  goal.winners = {0, 1};
  const rv::SearchResult result = timed_search("combination lock", *machine, config, goal, 200'000, 100);
  REQUIRE(count_hits(result, rv::SearchHit::What::kFired) == 1);
  REQUIRE(count_hits(result, rv::SearchHit::What::kWon) == 2);
  for (const rv::SearchHit& hit : result.hits) {
    if (hit.what == rv::SearchHit::What::kFired) CHECK(hit.moves.size() == 15);
    if (hit.what == rv::SearchHit::What::kWon && hit.index == 1) CHECK(hit.moves.size() == 15);
    if (hit.what == rv::SearchHit::What::kWon && hit.index == 0) CHECK(hit.moves.size() == 40);
  }
  CHECK(count_hits(result, rv::SearchHit::What::kFault) == 0);
  CHECK(count_hits(result, rv::SearchHit::What::kLasso) == 0);
  CHECK(result.exhausted);
  require_hits_replay(*machine, config, goal, result);
}

TEST_CASE("search: a sound game is searched to the end and shows nothing", "[verifier][search]") {
  const auto machine = machine_for(kCountToTen);
  rv::SearchGoal goal;
  REQUIRE(machine->ir().invariants.size() == 1);
  goal.invariants = {machine->ir().invariants[0].condition};
  goal.labels = {};
  const rv::SearchResult result = timed_search("count to ten", *machine, ri::GameConfig{}, goal, 200'000, 100);
  CHECK(result.exhausted);
  CHECK_FALSE(result.cut);
  CHECK_FALSE(result.depth_limited);
  CHECK(result.hits.empty());
  CHECK(result.states > 10);
}

TEST_CASE("search: an invariant broken at a decision is reported with the moves that break it",
          "[verifier][search]") {
  // The same game with a bound it breaks: 2 + 2 + 2 + 2 + 1 is 9 at a decision.
  std::string text = kCountToTen;
  text.replace(text.find("total <= 11"), 11, "total <= 8");
  const auto machine = machine_for(text);
  rv::SearchGoal goal;
  goal.invariants = {machine->ir().invariants[0].condition};
  const rv::SearchResult result = timed_search("count to ten, broken bound", *machine, ri::GameConfig{}, goal,
                                               200'000, 100);
  REQUIRE(count_hits(result, rv::SearchHit::What::kInvariant) == 1);
  CHECK(result.hits.front().moves.size() == 5);
  require_hits_replay(*machine, ri::GameConfig{}, goal, result);
}

TEST_CASE("search: players who may pass a token forever make a lasso", "[verifier][search]") {
  const auto machine = machine_for(kEndlessPassing);
  const rv::SearchGoal goal;
  const rv::SearchResult result = timed_search("endless passing", *machine, ri::GameConfig{}, goal, 200'000, 100);
  REQUIRE(count_hits(result, rv::SearchHit::What::kLasso) == 1);
  const rv::SearchHit& lasso = result.hits.back();
  CHECK(lasso.what == rv::SearchHit::What::kLasso);
  // One pass sets the local `keep` (unset at the start); from there two passes bring the
  // token, the turn and `keep` back as they were.
  CHECK(lasso.index == 1);
  CHECK(lasso.moves.size() == 3);
  CHECK(result.exhausted);
  require_hits_replay(*machine, ri::GameConfig{}, goal, result);
}

TEST_CASE("search: a small state budget cuts the search", "[verifier][search]") {
  const auto machine = machine_for(kRareEmptyHand);
  const rv::SearchResult result = rv::search_states(*machine, ri::GameConfig{}, rv::SearchGoal{}, 1000, 60.0, 100);
  CHECK(result.cut);
  CHECK_FALSE(result.exhausted);
  CHECK(result.states == 1000);

  const rv::SearchResult no_time = rv::search_states(*machine, ri::GameConfig{}, rv::SearchGoal{}, 200'000, 0.0, 100);
  CHECK(no_time.cut);
  CHECK_FALSE(no_time.exhausted);

  const rv::SearchResult shallow = rv::search_states(*machine, ri::GameConfig{}, rv::SearchGoal{}, 200'000, 60.0, 3,
                                                     rv::SearchSymmetry::kAlikeCards);
  CHECK(shallow.exhausted);  // within the depth
  CHECK(shallow.depth_limited);
  CHECK(shallow.hits.empty());
}

TEST_CASE("search: the verifier's broken cases show their flaw, and their fixed twins nothing", "[verifier][search]") {
  // Endless loop: the round loops while nobody keeps the token; the cycle is entered in the
  // second round too, so it need not close on the path that first reached it.
  for (const char* name : {"endless-loop", "no-legal-move", "draw-from-empty"}) {
    const auto machine = machine_for_file(std::string("tests/verifier/cases/") + name + ".rules");
    const rv::SearchGoal goal;
    const rv::SearchResult result = timed_search(name, *machine, ri::GameConfig{}, goal, 200'000, 100);
    INFO(name);
    CHECK_FALSE(result.hits.empty());
    CHECK(result.exhausted);
    require_hits_replay(*machine, ri::GameConfig{}, goal, result);
    const auto fixed = machine_for_file(std::string("tests/verifier/cases/") + name + "-fixed.rules");
    const rv::SearchResult sound =
        timed_search(std::string(name) + "-fixed", *fixed, ri::GameConfig{}, goal, 200'000, 100);
    CHECK(sound.hits.empty());
    CHECK(sound.exhausted);
  }
}

}  // namespace verifier_search_test
