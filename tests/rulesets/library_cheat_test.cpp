// Cheat scenarios (rulesets/library/cheat.rules): each test deals from a stacked deck (no
// seed decides anything), sets small hands where the scenario needs them, plays the players'
// decisions and checks what Pagat's rules demand. Test names cite the rule text.
#include <catch2/catch.hpp>

#include <algorithm>

#include "interpreter/game_fixture.hpp"
#include "support.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_cheat_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kRules = "rulesets/library/cheat.rules";

Strings full_deck() {
  Strings out;
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const char* r : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
      out.push_back(std::string(r) + suit);
    }
  }
  return out;
}

// A game whose deck comes off the top in card order (2C to player 1, 3C to player 2, ...).
Game start_cheat(int players) {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  Strings order = full_deck();
  std::reverse(order.begin(), order.end());
  ri::ScriptedShuffles shuffles({order});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

// Replaces every hand (the old cards go back to the empty deck, out of play).
void rehand(Game& g, const std::vector<Strings>& hands) {
  for (std::size_t p = 0; p < hands.size(); ++p) rulebook::test::empty_into(g, "hand", static_cast<int>(p), "deck");
  for (std::size_t p = 0; p < hands.size(); ++p) {
    Strings down;
    for (const std::string& c : hands[p]) down.push_back(c + "*");
    rulebook::test::stack(g, "hand", static_cast<int>(p), down);
  }
  g.refresh();
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

// The player to move plays these cards face down.
void play(Game& g, const Strings& cards) {
  REQUIRE(rule_to_move(g) == "claim_count");
  g.choose(std::to_string(cards.size()));
  for (const std::string& c : cards) {
    REQUIRE(rule_to_move(g) == "play_card");
    g.choose(c);
  }
}

// The next players asked, in order, answer: true to doubt.
void answer(Game& g, const std::vector<std::pair<int, bool>>& answers) {
  for (const auto& [player, doubts] : answers) {
    REQUIRE(rule_to_move(g) == "doubt_or_accept");
    REQUIRE(to_move(g) == player);
    g.choose(doubts ? "doubt" : "accept");
  }
}

}  // namespace

TEST_CASE("cheat THE DEAL: the whole pack is dealt, one at a time from the dealer's left", "[library][cheat]") {
  const Game g = start_cheat(3);
  CHECK(g.zone("deck").empty());
  CHECK(g.zone("hand", 1).size() == 18);
  CHECK(g.zone("hand", 2).size() == 17);
  CHECK(g.zone("hand", 0).size() == 17);
  CHECK(g.zone("hand", 1).front() == "2C");
  // The player on the dealer's left plays first, and aces are due.
  CHECK(to_move(g) == 1);
  CHECK(g.int_var("wanted") == 14);
}

TEST_CASE("cheat THE PLAY: one to four cards, never more than the hand, with no passing", "[library][cheat]") {
  Game g = start_cheat(3);
  CHECK(g.legal() == Strings{"1", "2", "3", "4"});
  rehand(g, {{"5C", "6C"}, {"AC", "7D"}, {"9H", "9S"}});
  CHECK(g.legal() == Strings{"1", "2"});
}

TEST_CASE("cheat THE PLAY: the cards go face down on the pile and the claimed count is public", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"AC", "7D", "8D"}, {"9H", "9S"}});
  play(g, {"AC", "7D"});
  CHECK(g.zone("discards") == Strings{"AC", "7D"});
  CHECK_FALSE(face_up(g, "AC"));
  CHECK_FALSE(face_up(g, "7D"));
  CHECK(g.int_var("claimed") == 2);
  CHECK(g.zone("hand", 1) == Strings{"8D"});
}

TEST_CASE("cheat CHALLENGES: the others are asked from the player's left, with no doubt the next player plays",
          "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"AC", "7D", "8D"}, {"9H", "9S"}});
  play(g, {"7D"});
  answer(g, {{2, false}, {0, false}});
  CHECK(g.zone("discards") == Strings{"7D"});
  CHECK(to_move(g) == 2);
  CHECK(g.int_var("wanted") == 2);  // after aces, twos are due
}

TEST_CASE("cheat CHALLENGES: a doubted false claim sends the whole pile to the player", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C", "2D"}, {"AC", "7D", "8D"}, {"9H", "9S", "3S"}});
  play(g, {"AC"});
  answer(g, {{2, false}, {0, false}});
  play(g, {"9H"});  // player 2 claims a 2: a lie
  answer(g, {{0, false}, {1, true}});
  CHECK(g.zone("discards").empty());
  CHECK(g.zone("hand", 2) == Strings{"AC", "9H", "3S", "9S"});  // in card order
  CHECK(g.int_var("caught", 2) == 1);
  CHECK(g.int_var("lies", 2) == 1);
  CHECK(to_move(g) == 0);  // play goes on to the left of the player who was challenged
  CHECK(g.int_var("wanted") == 3);
}

TEST_CASE("cheat CHALLENGES: a doubted true claim sends the whole pile to the challenger", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C", "2D"}, {"AC", "AD", "8D"}, {"9H", "9S", "3S"}});
  play(g, {"AC", "AD"});
  answer(g, {{2, true}});  // the first to doubt is the challenger: player 0 is not asked
  CHECK(g.zone("discards").empty());
  CHECK(g.zone("hand", 2) == Strings{"AC", "AD", "9H", "3S", "9S"});
  CHECK(g.int_var("caught", 1) == 0);
  CHECK(g.int_var("lies", 1) == 0);
  CHECK(to_move(g) == 2);
}

TEST_CASE("cheat THE PLAY: the rank due goes up by one each turn, from the king back to the ace",
          "[library][cheat]") {
  Game g = start_cheat(3);
  for (int turn = 0; turn < 13; ++turn) {
    CHECK(g.int_var("wanted") == (turn == 0 ? 14 : turn + 1));
    g.choose("1");
    g.choose(g.legal().front());
    answer(g, {{(to_move(g)), false}, {(to_move(g) + 1) % 3, false}});
  }
  CHECK(g.int_var("wanted") == 14);
  CHECK(g.zone("discards").size() == 13);
}

TEST_CASE("cheat WINNING: the first player to run out of cards, unchallenged, wins", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"3C"}, {"9H", "9S"}});
  play(g, {"3C"});  // a lie, but nobody doubts it
  answer(g, {{2, false}, {0, false}});
  REQUIRE(g.state.finished);
  CHECK(g.state.winners == std::vector<rulebook::interpreter::PlayerId>{1});
}

TEST_CASE("cheat WINNING: a last play caught cheating takes the pile and the game goes on", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"3C"}, {"9H", "9S"}});
  play(g, {"3C"});
  answer(g, {{2, true}});
  REQUIRE_FALSE(g.state.finished);
  CHECK(g.zone("hand", 1) == Strings{"3C"});
  CHECK(to_move(g) == 2);
}

TEST_CASE("cheat WINNING: a last play that was true wins even when doubted", "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"AS"}, {"9H", "9S"}});
  play(g, {"AS"});
  answer(g, {{2, true}});
  REQUIRE(g.state.finished);
  CHECK(g.state.winners == std::vector<rulebook::interpreter::PlayerId>{1});
  CHECK(g.zone("hand", 2) == Strings{"9H", "9S", "AS"});
}

TEST_CASE("cheat: the example log replays and the ruleset checks clean", "[library][cheat][replay]") {
  const auto c = rulebook::test::run_rulebook("check '" + rulebook::test::source_path(kRules) + "'");
  CHECK(c.exit_code == 0);
  CHECK(c.err.empty());
  const auto r = rulebook::test::run_rulebook("replay '" + rulebook::test::source_path(kRules) + "' '" +
                                              rulebook::test::source_path("rulesets/library/examples/cheat.jsonl") +
                                              "'");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("cheat CHALLENGES: each player asked has two moves, doubt or accept, neither with a card",
          "[library][cheat]") {
  Game g = start_cheat(3);
  rehand(g, {{"5C", "6C"}, {"AC", "7D", "8D"}, {"9H", "9S"}});
  play(g, {"7D"});
  REQUIRE(rule_to_move(g) == "doubt_or_accept");
  CHECK(g.legal() == Strings{"doubt", "accept"});
  g.choose("accept");
  CHECK(to_move(g) == 0);  // accepting passes the question on
  CHECK(g.legal() == Strings{"doubt", "accept"});
}

TEST_CASE("cheat: without --players four play (players 3..6 default 4)", "[library][cheat][cli]") {
  const auto r = rulebook::test::run_rulebook("simulate '" + rulebook::test::source_path(kRules) +
                                              "' --games 2 --seed 1");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Cheat: 2 games, 4 players, seed 1") != std::string::npos);
}

}  // namespace rulesets_library_cheat_test
