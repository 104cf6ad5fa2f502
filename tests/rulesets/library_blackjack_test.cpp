// Blackjack scenarios (rulesets/library/blackjack.rules): each test stacks the deck (no seed
// decides anything), makes the players' decisions and checks what Bicycle's rules demand.
// Test names cite the section of the rule text. The counters keep money in half-units (a bet
// is 2); the payoff `money` gives it in units, exactly.
#include <catch2/catch.hpp>

#include <algorithm>

#include "interpreter/game_fixture.hpp"
#include "support.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_blackjack_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kRules = "rulesets/library/blackjack.rules";

Strings full_deck() {
  Strings out;
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const char* r : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
      out.push_back(std::string(r) + suit);
    }
  }
  return out;
}

// The deck after the shuffle, bottom to top, with `top_first` coming off the top in order.
Strings stacked(Strings top_first) {
  const Strings all = full_deck();
  for (const std::string& c : top_first) REQUIRE(std::find(all.begin(), all.end(), c) != all.end());
  for (const std::string& c : all) {
    if (std::find(top_first.begin(), top_first.end(), c) == top_first.end()) top_first.push_back(c);
  }
  std::reverse(top_first.begin(), top_first.end());
  return top_first;
}

// One deal (option deals = 1) with the deck coming off the top as `top_first`: the first card
// of each player, the dealer's up card, the second card of each player, the hole card, then
// the draws.
Game start_blackjack(int players, const Strings& top_first) {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  config.options = {{"deals", "1"}};
  ri::ScriptedShuffles shuffles({stacked(top_first)});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

std::string rule_to_move(const Game& g) {
  REQUIRE(g.state.decision);
  return g.machine->ir().labels[static_cast<std::size_t>(g.state.decision->rule)];
}

int to_move(const Game& g) {
  REQUIRE(g.state.decision);
  return g.state.decision->player;
}

bool face_up(const Game& g, const std::string& card) {
  return g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, card))] != 0;
}

std::int64_t net(const Game& g, int p) { return g.int_var("net", p); }

// The payoff `money` (the ruleset's only payoff) of player p once the game is over.
ri::Rational money(const Game& g, int p) {
  REQUIRE(g.state.payoffs.size() == 1);
  return g.state.payoffs[0].at(static_cast<std::size_t>(p));
}

}  // namespace

TEST_CASE("blackjack THE DEAL: two cards face up to each player, the dealer one up and one down",
          "[library][blackjack]") {
  const Game g = start_blackjack(2, {"5C", "6D", "KH", "9S", "7C", "2D"});
  CHECK(g.zone("hand", 0) == Strings{"5C", "9S"});
  CHECK(g.zone("hand", 1) == Strings{"6D", "7C"});
  CHECK(g.zone("dealer") == Strings{"KH", "2D"});
  CHECK(face_up(g, "KH"));
  CHECK_FALSE(face_up(g, "2D"));
  CHECK(to_move(g) == 0);  // the player on the dealer's left plays first
  CHECK(rule_to_move(g) == "hit_or_stand");
}

TEST_CASE("blackjack NATURALS: a player's natural is paid one and a half times the bet at once",
          "[library][blackjack]") {
  // Player 0: A + K; player 1: 10 + 7; dealer 9 up (no peek), 8 in the hole.
  Game g = start_blackjack(2, {"AS", "10D", "9C", "KS", "7H", "8D"});
  CHECK(net(g, 0) == 3);
  CHECK(to_move(g) == 1);  // the natural does not play
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(net(g, 0) == 3);
  CHECK(net(g, 1) == 0);  // 17 against 17: a stand-off
}

TEST_CASE("blackjack NATURALS: a dealer's natural collects every bet but a natural's (a stand-off)",
          "[library][blackjack]") {
  // Dealer: A up, K in the hole. Player 0 has a natural, player 1 has 20.
  Game g = start_blackjack(2, {"AH", "KD", "AC", "QH", "10S", "KC"});
  REQUIRE(g.state.finished);  // nobody plays
  CHECK(net(g, 0) == 0);
  CHECK(net(g, 1) == -2);
  CHECK(face_up(g, "KC"));
}

TEST_CASE("blackjack THE PLAY: a player over 21 is bust and loses at once, even when the dealer busts",
          "[library][blackjack]") {
  // Player 0: 10 + 6, hits a king: 26. Dealer 10 up, 6 in the hole, draws the 9: 25.
  Game g = start_blackjack(1, {"10C", "10H", "6C", "6H", "KS", "9D"});
  g.choose("hit");
  REQUIRE(g.state.finished);
  CHECK(g.zone("hand", 0) == Strings{"10C", "6C", "KS"});
  CHECK(net(g, 0) == -2);
  // The dealer does not play when no bet is open.
  CHECK(g.zone("dealer") == Strings{"10H", "6H"});
}

TEST_CASE("blackjack THE PLAY: an ace counts 1 or 11, a player may hit until standing or reaching 21",
          "[library][blackjack]") {
  // Player 0: A + 3 (soft 14), hits 5 (soft 19), hits 9: hard 18, stands. Dealer 10 + 7.
  Game g = start_blackjack(1, {"AC", "10D", "3C", "7D", "5H", "9S"});
  CHECK(g.legal() == Strings{"hit", "stand"});
  g.choose("hit");
  g.choose("hit");
  REQUIRE_FALSE(g.state.finished);  // 18 with the ace as 1: not bust
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(net(g, 0) == 2);  // 18 beats 17
}

TEST_CASE("blackjack THE PLAY: reaching exactly 21 ends the player's turn", "[library][blackjack]") {
  // Player 0: 5 + 6, hits a king: 21; player 1 plays next.
  Game g = start_blackjack(2, {"5C", "9D", "10D", "6C", "8D", "7S", "KS"});
  g.choose("hit");
  CHECK(to_move(g) == 1);
}

TEST_CASE("blackjack DOUBLING DOWN: on 9, 10 or 11 the bet doubles and exactly one card is dealt",
          "[library][blackjack]") {
  // Player 0: 6 + 4 = 10, doubles, gets a 9: 19. Dealer 10 + 8 = 18.
  Game g = start_blackjack(1, {"6C", "10H", "4D", "8S", "9C"});
  CHECK(g.legal() == Strings{"hit", "stand", "double"});
  g.choose("double");
  REQUIRE(g.state.finished);
  CHECK(g.zone("hand", 0) == Strings{"6C", "4D", "9C"});
  CHECK(net(g, 0) == 4);
  CHECK(g.int_var("bet", 0) == 4);
}

TEST_CASE("blackjack DOUBLING DOWN: not on other totals, and not after a hit", "[library][blackjack]") {
  // Player 0: 2 + 3 = 5: no double; hits a 4: 9 with three cards, still no double.
  Game g = start_blackjack(1, {"2C", "10H", "3D", "8S", "4C"});
  CHECK(g.legal() == Strings{"hit", "stand"});
  g.choose("hit");
  CHECK(g.legal() == Strings{"hit", "stand"});
}

TEST_CASE("blackjack THE DEALER'S PLAY: draws at 16 or under and stands at 17 or more",
          "[library][blackjack]") {
  // Player 0 stands on 19. Dealer 10 + 2 = 12: draws 4 (16), draws 3 (19), stands.
  Game g = start_blackjack(1, {"10C", "10H", "9C", "2H", "4S", "3S", "5D"});
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(g.zone("dealer") == Strings{"10H", "2H", "4S", "3S"});
  CHECK(net(g, 0) == 0);  // 19 against 19: a stand-off
}

TEST_CASE("blackjack THE DEALER'S PLAY: an ace that makes 17 counts 11 (the dealer stands on soft 17)",
          "[library][blackjack]") {
  // Dealer 6 up, ace in the hole: soft 17, stands. Player 0 stands on 18 and wins.
  Game g = start_blackjack(1, {"10C", "6H", "8C", "AD", "2S"});
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(g.zone("dealer") == Strings{"6H", "AD"});
  CHECK(net(g, 0) == 2);
}

TEST_CASE("blackjack SETTLEMENT: a dealer bust pays every player still in, a lower total loses",
          "[library][blackjack]") {
  // Player 0 stands on 12, player 1 on 20; dealer 10 + 6 draws the queen: 26.
  Game g1 = start_blackjack(2, {"10C", "10D", "10H", "2C", "10S", "6H", "QC"});
  g1.choose("stand");
  g1.choose("stand");
  REQUIRE(g1.state.finished);
  CHECK(net(g1, 0) == 2);
  CHECK(net(g1, 1) == 2);
  // Player 0 stands on 15; dealer 10 + 8 = 18 stands: the bet is lost.
  Game g2 = start_blackjack(1, {"10C", "10H", "5C", "8H"});
  g2.choose("stand");
  REQUIRE(g2.state.finished);
  CHECK(net(g2, 0) == -2);
}

TEST_CASE("blackjack: a game is the option's number of deals, the players ahead win", "[library][blackjack]") {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = 1;
  config.seed = 1;
  config.options = {{"deals", "2"}};
  // Deal 1: a natural (+3); deal 2: 15 against 18 (-2).
  ri::ScriptedShuffles shuffles({stacked({"AC", "9H", "KC", "8H"}), stacked({"10C", "10H", "5C", "8H"})});
  g.state = g.machine->start(config, &shuffles);
  REQUIRE_FALSE(g.state.fault);
  REQUIRE(g.int_var("deal_no") == 2);
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(net(g, 0) == 1);
  CHECK(g.state.winners == std::vector<rulebook::interpreter::PlayerId>{0});
}

TEST_CASE("blackjack: the example log replays and the ruleset checks clean", "[library][blackjack][replay]") {
  const auto c = rulebook::test::run_rulebook("check '" + rulebook::test::source_path(kRules) + "'");
  CHECK(c.exit_code == 0);
  CHECK(c.err.empty());
  const auto r = rulebook::test::run_rulebook("replay '" + rulebook::test::source_path(kRules) + "' '" +
                                              rulebook::test::source_path("rulesets/library/examples/blackjack.jsonl") +
                                              "'");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("blackjack NATURALS: the payoff money pays a natural 3 to 2 exactly, in units", "[library][blackjack]") {
  // Player 0: A + K (a natural, +3/2); player 1: 10 + 7 stands against 10 + 8 (-1).
  Game g = start_blackjack(2, {"AS", "10D", "10C", "KS", "7H", "8D"});
  g.choose("stand");
  REQUIRE(g.state.finished);
  CHECK(money(g, 0) == ri::Rational{3, 2});
  CHECK(money(g, 1) == ri::Rational{-1, 1});
}

TEST_CASE("blackjack DOUBLING DOWN: the double alternative's guard: two cards totalling 9 to 11, never soft",
          "[library][blackjack]") {
  // Player 0: A + 8 is 19 with the ace as 11: no double. Player 1: 5 + 4 = 9: double; a
  // doubled win is 2 units.
  Game g = start_blackjack(2, {"AC", "5D", "10H", "8C", "4D", "7S", "10S"});
  CHECK(g.legal() == Strings{"hit", "stand"});
  g.choose("stand");
  CHECK(g.legal() == Strings{"hit", "stand", "double"});
  g.choose("double");
  REQUIRE(g.state.finished);
  CHECK(g.zone("hand", 1) == Strings{"5D", "4D", "10S"});
  CHECK(money(g, 0) == ri::Rational{1, 1});  // 19 beats 17
  CHECK(money(g, 1) == ri::Rational{2, 1});  // 19 beats 17, the bet doubled
}

TEST_CASE("blackjack: without --players one player sits at the table (players 1..7 default 1)",
          "[library][blackjack][cli]") {
  const auto r = rulebook::test::run_rulebook("simulate '" + rulebook::test::source_path(kRules) +
                                              "' --games 2 --seed 1");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Blackjack: 2 games, 1 players, seed 1") != std::string::npos);
}

}  // namespace rulesets_library_blackjack_test
