// Decisions with alternatives (`choose by p { ... }`) in the interpreter: the legal moves in
// order, guards, the element bound in the block, the fault when nothing is legal, and the
// random agent's uniform pick over every move.
#include <map>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/agent.hpp"
#include "support.hpp"

namespace ri = rulebook::interpreter;
using rulebook::test::Game;
using rulebook::test::start_game;

namespace alternatives_interpreter_test {  // this file's own names (unity builds put several files in one)
namespace {

std::string ruleset() { return rulebook::test::read_text(rulebook::test::source_path("tests/alternatives/alternatives.rules")); }

// The game at its first decision with an empty deck's worth of cards arranged by hand: seat 0
// holds `hand`, the deck keeps `deck_left` cards (the rest go back to the box).
Game arranged(const std::vector<std::string>& hand, std::size_t deck_left) {
  Game g = start_game(ruleset(), 2, 7);
  rulebook::test::empty_into(g, "hand", 0, "deck");
  rulebook::test::empty_into(g, "hand", 1, "deck");
  rulebook::test::stack(g, "hand", 0, hand);
  std::int32_t deck_instance = -1;
  for (std::size_t z = 0; z < g.machine->ir().zones.size(); ++z) {
    if (g.machine->ir().zones[z].name == "deck") deck_instance = g.machine->ir().zones[z].first_instance;
  }
  REQUIRE(deck_instance >= 0);
  auto& deck = g.state.zones[static_cast<std::size_t>(deck_instance)];
  const std::int32_t box = 0;  // the builtin zone `box`, instance 0
  while (deck.size() > deck_left) {
    const ri::CardId c = deck.back();
    deck.pop_back();
    g.state.zones[static_cast<std::size_t>(box)].push_back(c);
    g.state.card_zone[static_cast<std::size_t>(c)] = box;
  }
  g.refresh();
  return g;
}

}  // namespace

TEST_CASE("alternatives: the legal moves, alternative by alternative in the order written", "[alternatives]") {
  Game g = arranged({"7H", "2C", "QH"}, 10);
  // The hearts in hand (in card order), then draw; pass is hidden while the deck has cards.
  CHECK(g.legal() == std::vector<std::string>{"play 7H", "play QH", "draw"});
  REQUIRE(g.state.decision);
  CHECK(g.state.decision->alternatives == std::vector<std::int32_t>{0, 0, 1});
  CHECK(g.state.decision->options[2].kind == ri::Kind::kNone);
}

TEST_CASE("alternatives: a false guard hides its alternative", "[alternatives]") {
  Game g = arranged({"2C"}, 0);
  // The deck is empty: no draw, but pass; no heart: no play.
  CHECK(g.legal() == std::vector<std::string>{"pass"});
  g.choose("pass");
  CHECK(g.int_var("passes") == 1);
}

TEST_CASE("alternatives: the chosen element is bound in its block, and only that block runs", "[alternatives]") {
  Game g = arranged({"7H", "QH"}, 10);
  g.choose("play QH");
  CHECK(g.zone_text("trick", 0) == "QH");
  CHECK(g.zone_text("hand", 0) == "7H");
  CHECK(g.int_var("drawn") == 0);
  CHECK(g.int_var("passes") == 0);
  // Seat 1 draws: the draw block runs, nothing else.
  REQUIRE(g.state.decision);
  CHECK(g.state.decision->player == 1);
  g.choose("draw");
  CHECK(g.int_var("drawn") == 1);
  CHECK(g.zone("hand", 1).size() == 1);
  CHECK(g.zone_text("trick", 0) == "QH");
}

TEST_CASE("alternatives: no legal move at all is a NoLegalChoice fault", "[alternatives]") {
  Game g = start_game(ruleset(), 2, 7, {{"draws", "0"}});
  // Empty hands, a full deck, no draws allowed: nothing is legal.
  REQUIRE(g.state.fault);
  CHECK(g.state.fault->kind == ri::FaultKind::kNoLegalChoice);
  CHECK(g.fault_rule() == "turn");
  CHECK(g.state.fault->message.find("no legal move") != std::string::npos);
}

TEST_CASE("alternatives: move text, views and the last alternative taken", "[alternatives]") {
  Game g = arranged({"7H"}, 3);
  CHECK(g.machine->move_text(g.state, 0) == "play 7H");
  CHECK(g.machine->move_text(g.state, 1) == "draw");
  const ri::View v = g.machine->view(g.state, 0);
  CHECK(v.mixed == 0);
  CHECK(v.legal_alternatives == std::vector<std::int32_t>{0, 1});
  g.choose("draw");
  CHECK(g.state.last_alternative.mixed == 0);
  CHECK(g.state.last_alternative.alternative == 1);
}

TEST_CASE("alternatives: the random agent picks uniformly among all moves, not among alternatives", "[alternatives]") {
  // Four moves: three plays and a draw. Picking an alternative first would give the draw half.
  Game g = arranged({"2H", "7H", "QH"}, 10);
  REQUIRE(g.legal().size() == 4);
  ri::RandomAgent agent(12345);
  std::map<std::size_t, int> counts;
  const ri::View view = g.machine->view(g.state, 0, agent.detail());
  constexpr int kPicks = 8000;
  for (int i = 0; i < kPicks; ++i) ++counts[agent.choose(view)];
  REQUIRE(counts.size() == 4);
  for (const auto& [move, n] : counts) {
    INFO("move " << move << " picked " << n << " times");
    CHECK(n > kPicks / 4 - 200);
    CHECK(n < kPicks / 4 + 200);
  }
}

}  // namespace alternatives_interpreter_test
