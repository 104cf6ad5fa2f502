// Every fault kind the interpreter can raise (rulebook/ir/fault_kinds.hpp) is an
// obligation the verifier checks, or says why it cannot happen in a checked program. For
// each kind a small rule file raises it in the interpreter (the exhaustive search finds the
// game), and the verifier's blocks of that file hold an obligation of the same kind.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "oracle.hpp"
#include "search.hpp"

namespace ri = rulebook::interpreter;
namespace rv = rulebook::verifier;
using rulebook::test::machine_for;

namespace verifier_fault_kinds_test {  // this file's own names (unity builds put several files in one)
namespace {

// A game (two players unless `players` says otherwise) that goes on while seat 0 says so;
// `body` runs every round after n has counted it, `after` follows the round (a policy).
std::string game(const std::string& body, const std::string& extra = "", const std::string& players = "players 2",
                 const std::string& after = "") {
  return fmt::format(R"(game "Fault kind"
{}
cards {{
  chip: 3
}}
zone deck: pile hidden
zone hand(p): set owner
enum shade {{ amber, blue }}
var n: int = 0
var m: int = 0
var who: player = seat 0
var last: shade = amber
{}
setup {{ move box to deck }}
round {{
  rule go_on: choose go in {{true, false}} by seat 0
  if not go {{ end game winners players }}
  add 1 to n
  {}
}}
{}
)", players, extra, body, after);
}

// The rule file that raises each kind.
const std::map<ri::FaultKind, std::string>& raising() {
  static const std::map<ri::FaultKind, std::string> files = {
      {ri::FaultKind::kTakeFromEmpty, game("rule draw: deal 2 from deck to hand(seat 0)")},
      {ri::FaultKind::kNoLegalChoice, game("rule take: choose c in deck by seat 0\n  move c to hand(seat 0)")},
      {ri::FaultKind::kIllegalPolicyChoice,
       game("rule bid: choose b in {1, 2, 3} by seat 2 where b != n", "", "players 2\nseats 3", "policy dummy {\n  bid: 2\n}")},
      {ri::FaultKind::kNonePlayer, game("if n == 2 { set who := none }\n  set m := count(hand(who))")},
      {ri::FaultKind::kNoneCard, game("if n == 2 { move held to hand(seat 0) }", "var held: card = none")},
      {ri::FaultKind::kNoOppositeSeat, game("if n == 2 { set who := opposite(seat 0) }", "", "players 3")},
      {ri::FaultKind::kTooManySubsets,
       game("if n == 2 {\n    rule pick: choose t in subsets(players, 1, 1) by seat 0\n  }", "", "players 21")},
      {ri::FaultKind::kNoSeat, game("set m := count(hand(seat n))")},
      {ri::FaultKind::kNoneInSet, game("if n == 2 { set last := none }\n  set m := count({blue, last})")},
      {ri::FaultKind::kEmptyExtremum, game("set who := max p in {q in players where n < 3} by count(hand(p))")},
      {ri::FaultKind::kFirstNotFound, game("set who := first p in players where count(hand(p)) > n")},
      {ri::FaultKind::kDivisionByZero, game("set m := 6 / (2 - n)")},
      {ri::FaultKind::kIntegerOverflow, game("set m := m * 1000000000 + 1")},
      {ri::FaultKind::kNegativeRepeat, game("repeat 1 - n { set m := m + 1 }")},
      {ri::FaultKind::kEndlessLoop, game("while n >= 2 { set m := 1 - m }")},
  };
  return files;
}

// The kind of the first fault the exhaustive search finds in the game (nothing: none).
std::optional<ri::FaultKind> first_fault(const ri::Machine& machine) {
  ri::GameConfig config;
  config.seed = 1;
  rv::SearchGoal goal;
  goal.lassos = false;
  const rv::SearchResult found = rv::search_states(machine, config, goal, 20000, 10, 60);
  for (const rv::SearchHit& hit : found.hits) {
    if (hit.what != rv::SearchHit::What::kFault) continue;
    ri::State s = machine.start(config);
    for (const std::size_t move : hit.moves) {
      if (!s.finished) machine.apply(s, move);
    }
    if (s.fault) return s.fault->kind;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("fault kinds: every kind the interpreter raises is an obligation the verifier checks", "[verifier][faults]") {
  for (std::size_t k = 0; k < ri::kFaultKinds.size(); ++k) {
    const auto kind = static_cast<ri::FaultKind>(k);
    const ri::FaultKindInfo& info = ri::kFaultKinds[k];
    INFO(fmt::format("{} ({}): {}", info.name, info.property, info.what));
    if (info.property.starts_with("none:")) continue;  // the table says why it cannot happen
    CHECK((info.property == "conservation" || info.property == "playability" || info.property == "well-defined" ||
           info.property == "game-termination"));
    const auto file = raising().find(kind);
    REQUIRE(file != raising().end());
    const auto machine = machine_for(file->second);
    ri::GameConfig config;
    config.seed = 1;
    // The interpreter raises it.
    if (kind == ri::FaultKind::kEndlessLoop) {
      // Go on twice: at n = 2 the loop spins (50,000,000 steps, a few seconds).
      ri::State s = machine->start(config);
      for (int round = 0; round < 2 && !s.finished; ++round) {
        const auto& legal = machine->legal_moves(s);
        const auto go = std::find_if(legal.begin(), legal.end(), [](const ri::Value& v) { return v.truthy(); });
        REQUIRE(go != legal.end());
        machine->apply(s, static_cast<std::size_t>(go - legal.begin()));
      }
      REQUIRE(s.fault);
      CHECK(s.fault->kind == kind);
      continue;  // game-termination: the termination check takes it
    }
    CHECK(first_fault(*machine) == kind);
    // The verifier checks an obligation of that kind.
    const std::vector<ri::FaultKind> kinds = rv::obligation_kinds(*machine, config);
    CHECK(std::find(kinds.begin(), kinds.end(), kind) != kinds.end());
  }
}

TEST_CASE("fault kinds: a card that is none is an obligation wherever a card is needed", "[verifier][faults]") {
  for (const std::string body : {"if n == 2 { move held to hand(seat 0) }", "if n == 2 { set m := rank(held) }",
                                 "if n == 2 { flip held face up }", "if n == 2 { set m := index(held) }"}) {
    INFO(body);
    const auto machine = machine_for(game(body, "var held: card = none"));
    CHECK(first_fault(*machine) == ri::FaultKind::kNoneCard);
    ri::GameConfig config;
    const std::vector<ri::FaultKind> kinds = rv::obligation_kinds(*machine, config);
    CHECK(std::find(kinds.begin(), kinds.end(), ri::FaultKind::kNoneCard) != kinds.end());
  }
}

}  // namespace verifier_fault_kinds_test
