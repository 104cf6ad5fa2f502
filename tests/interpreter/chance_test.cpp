// `choose ... at random`: the machine draws with the game's generator, never asks a player;
// the draws are fixed by the seed and uniform among the legal options.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"

namespace ri = rulebook::interpreter;
using rulebook::test::Game;
using rulebook::test::start_game;

namespace interpreter_chance_test {  // this file's own names (unity builds put several files in one)
namespace {

// Four seats; the round draws `draws` players at random and counts each draw per player.
std::string counting_game(int draws) {
  return fmt::format(
      "game \"chance\"\nplayers 4\ncards {{ standard52 }}\nzone deck: pile public\n"
      "var hits(p): int = 0\nvar last: int = 0\n"
      "round {{\n  repeat {} {{\n    rule pick: choose x in players at random\n    add 1 to hits(x)\n"
      "    set last := (last * 4 + (if x == seat 1 then 1 else if x == seat 2 then 2 else if x == seat 3 then 3 else 0)) % 999999937\n"
      "  }}\n  end game\n}}\n",
      draws);
}

std::vector<std::int64_t> hits(const Game& g) {
  std::vector<std::int64_t> out;
  for (int p = 0; p < 4; ++p) out.push_back(g.int_var("hits", p));
  return out;
}

}  // namespace

TEST_CASE("chance: a random choice is no decision, the game runs to its end", "[chance]") {
  Game g = start_game(counting_game(10), 0, 7);
  CHECK(g.state.finished);
  CHECK_FALSE(g.state.fault.has_value());
  CHECK_FALSE(g.state.decision.has_value());
  CHECK(g.state.moves == 0);  // a draw is not a player's move
  std::int64_t total = 0;
  for (const std::int64_t h : hits(g)) total += h;
  CHECK(total == 10);
}

TEST_CASE("chance: the same seed draws the same, other seeds draw otherwise", "[chance]") {
  const std::string text = counting_game(12);
  const Game a = start_game(text, 0, 42);
  const Game b = start_game(text, 0, 42);
  CHECK(a.var("last") == b.var("last"));
  CHECK(hits(a) == hits(b));
  int differ = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    if (start_game(text, 0, seed).var("last") != a.var("last")) ++differ;
  }
  CHECK(differ >= 9);  // 12 draws among 4: two seeds agree with chance 4^-12
}

TEST_CASE("chance: draws are uniform among the legal options (chi-square)", "[chance]") {
  // 4000 draws among 4 players, seed fixed: chi-square with 3 degrees of freedom stays far
  // below 30 for a uniform draw (p < 1e-5 above it).
  const Game g = start_game(counting_game(4000), 0, 2026);
  double chi = 0;
  for (const std::int64_t h : hits(g)) chi += static_cast<double>((h - 1000) * (h - 1000)) / 1000.0;
  INFO("chi-square " << chi);
  CHECK(chi < 30.0);
}

TEST_CASE("chance: the filter restricts the draw, every legal option comes up", "[chance]") {
  const std::string text =
      "game \"chance\"\nplayers 2\ncards { standard52 }\nzone deck: pile public\n"
      "var seen(p): int = 0\nvar bad: int = 0\n"
      "round {\n  repeat 400 {\n    choose c in box at random where rank(c) == 7\n"
      "    if rank(c) != 7 { add 1 to bad }\n    if suit(c) == hearts { add 1 to seen(seat 0) }\n"
      "    if suit(c) == spades { add 1 to seen(seat 1) }\n  }\n  end game\n}\n";
  const Game g = start_game(text, 0, 3);
  CHECK(g.int_var("bad") == 0);
  CHECK(g.int_var("seen", 0) > 50);
  CHECK(g.int_var("seen", 1) > 50);
}

TEST_CASE("chance: a random choice with no legal option is the fault of a choice with none", "[chance]") {
  const std::string text =
      "game \"chance\"\nplayers 2\ncards { standard52 }\nzone deck: pile public\n"
      "round {\n  rule pick: choose c in deck at random\n  end game\n}\n";
  const Game g = start_game(text, 0, 1);
  REQUIRE(g.state.fault.has_value());
  CHECK(g.state.fault->kind == ri::FaultKind::kNoLegalChoice);
  CHECK(g.state.fault->message.find("rule 'pick'") != std::string::npos);
}

TEST_CASE("chance: rules without a random choice draw from the generator as before", "[chance]") {
  // A shuffle after a random choice sees the generator the draw left; with no random choice
  // the shuffle is the one it always was (shipped rulesets' simulations stay the same).
  const std::string plain =
      "game \"chance\"\nplayers 2\ncards { standard52 }\nzone deck: pile public\n"
      "setup {\n  move box to deck\n  shuffle deck\n}\nround {\n  end game\n}\n";
  const Game a = start_game(plain, 0, 5);
  const Game b = start_game(plain, 0, 5);
  CHECK(a.zone_text("deck") == b.zone_text("deck"));
  const std::string drawn =
      "game \"chance\"\nplayers 2\ncards { standard52 }\nzone deck: pile public\n"
      "setup {\n  choose p in players at random\n  move box to deck\n  shuffle deck\n}\nround {\n  end game\n}\n";
  CHECK(start_game(drawn, 0, 5).zone_text("deck") != a.zone_text("deck"));
}

}  // namespace interpreter_chance_test
