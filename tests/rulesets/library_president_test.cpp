// President scenarios (rulesets/library/president.rules): each test deals from a stacked deck
// (no seed decides anything), sets small hands where the scenario needs them, plays the
// players' decisions and checks what Pagat's rules demand. Test names cite the rule text.
#include <catch2/catch.hpp>

#include <algorithm>

#include "interpreter/game_fixture.hpp"
#include "support.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_president_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kRules = "rulesets/library/president.rules";

Strings full_deck() {
  Strings out;
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const char* r : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
      out.push_back(std::string(r) + suit);
    }
  }
  return out;
}

// The deck after a shuffle, bottom to top, with `top_first` coming off the top in order and
// the other cards under them in card order (2C next).
Strings stacked(Strings top_first) {
  const Strings all = full_deck();
  for (const std::string& c : all) {
    if (std::find(top_first.begin(), top_first.end(), c) == top_first.end()) top_first.push_back(c);
  }
  REQUIRE(top_first.size() == all.size());
  std::reverse(top_first.begin(), top_first.end());
  return top_first;
}

// A game whose first deal puts the 3 of clubs in seat 0's hand (seat 0 leads).
Game start_president(int players, int deals = 1) {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  config.options = {{"deals", std::to_string(deals)}};
  ri::ScriptedShuffles shuffles({stacked({"3C"})});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

// Replaces every hand (the old cards go to the cleared tricks).
void rehand(Game& g, const std::vector<Strings>& hands) {
  for (std::size_t p = 0; p < hands.size(); ++p) rulebook::test::empty_into(g, "hand", static_cast<int>(p), "played");
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

// The player to move makes the play `move`: the set's size and one of its cards ("pair 5C").
void play(Game& g, const std::string& move) {
  REQUIRE(rule_to_move(g) == "play_or_pass");
  g.choose(move);
}

// Sets player p's points (as if from earlier deals).
void set_points(Game& g, int p, std::int64_t value) {
  const auto& vars = g.machine->ir().vars;
  const auto it = std::find_if(vars.begin(), vars.end(), [](const auto& v) { return v.name == "points"; });
  REQUIRE(it != vars.end());
  g.state.vars[static_cast<std::size_t>(it->first_slot + p)].scalar = value;
}

// The legal moves in sorted order (the decision lists them alternative by alternative).
Strings sorted_legal(const Game& g) {
  Strings out = g.legal();
  std::sort(out.begin(), out.end());
  return out;
}

// Makes the move `choice` with `sink` deciding the shuffles that follow (the next deal's).
void choose_with(Game& g, const std::string& choice, ri::EventSink* sink) {
  const Strings options = g.legal();
  const auto it = std::find(options.begin(), options.end(), choice);
  REQUIRE(it != options.end());
  g.machine->apply(g.state, static_cast<std::size_t>(it - options.begin()), sink);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
}

void pass(Game& g) {
  REQUIRE(rule_to_move(g) == "play_or_pass");
  g.choose("pass");
}

}  // namespace

TEST_CASE("president THE DEAL: all the cards are dealt one at a time, the holder of the 3 of clubs leads",
          "[library][president]") {
  const Game g = start_president(3);
  CHECK(g.zone("hand", 0).size() == 18);
  CHECK(g.zone("hand", 1).size() == 17);
  CHECK(g.zone("hand", 2).size() == 17);
  CHECK(g.zone("deck").empty());
  CHECK(to_move(g) == 0);
  CHECK(rule_to_move(g) == "play_or_pass");
  // The leader of a trick must play: any single of the hand, no pass.
  const Strings legal = g.legal();
  CHECK(std::find(legal.begin(), legal.end(), "pass") == legal.end());
  CHECK(std::find(legal.begin(), legal.end(), "single 3C") != legal.end());
}

TEST_CASE("president RANKING: the 2 is the highest card, above the ace", "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"AC", "3D"}, {"2D", "KD"}, {"4H", "5H"}});
  play(g, "single AC");
  REQUIRE(to_move(g) == 1);
  CHECK(sorted_legal(g) == Strings{"pass", "single 2D"});
  g.choose("single 2D");
  // Nothing beats a 2: the next player may only pass.
  CHECK(to_move(g) == 2);
  CHECK(g.legal() == Strings{"pass"});
}

TEST_CASE("president THE PLAY: the leader may play a single, a pair, three or four of a kind",
          "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"9C", "9D", "9H", "3D"}, {"5C", "KD"}, {"4H", "5H"}});
  CHECK(sorted_legal(g) == Strings{"pair 9C", "pair 9D", "pair 9H", "single 3D", "single 9C", "single 9D",
                                   "single 9H", "triple 9C", "triple 9D", "triple 9H"});
  g.choose("triple 9D");
  CHECK(g.zone("trick").size() == 3);
  CHECK(g.zone("hand", 0) == Strings{"3D"});
  CHECK(g.int_var("trick_size") == 3);
}

TEST_CASE("president THE PLAY: a pair is beaten only by a higher pair", "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"4C", "4D", "9C"}, {"5C", "5D", "KD"}, {"6C", "AD", "AH"}});
  play(g, "pair 4C");
  REQUIRE(to_move(g) == 1);
  CHECK(sorted_legal(g) == Strings{"pair 5C", "pair 5D", "pass"});  // the single king cannot beat a pair
  g.choose("pair 5C");
  CHECK(g.zone("hand", 1) == Strings{"KD"});  // the pair is 5C and 5D
  REQUIRE(to_move(g) == 2);
  CHECK(sorted_legal(g) == Strings{"pair AD", "pair AH", "pass"});
}

TEST_CASE("president PASSING: when all the others pass, the last player to play leads a new trick",
          "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"4C", "9C"}, {"5C", "KD"}, {"6C", "AD"}});
  play(g, "single 4C");
  pass(g);
  pass(g);
  CHECK(g.zone("trick").empty());
  CHECK(g.zone("played").back() == "4C");
  CHECK(to_move(g) == 0);
  CHECK(g.int_var("trick_size") == 0);
  CHECK(g.legal() == Strings{"single 9C"});
}

TEST_CASE("president PASSING: a player who passed may play again later in the same trick",
          "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"4C", "9C", "3C"}, {"5C", "KD", "6D"}, {"7C", "8D", "10H"}});
  play(g, "single 4C");
  pass(g);                // player 1
  play(g, "single 7C");   // player 2
  pass(g);                // player 0
  REQUIRE(to_move(g) == 1);
  CHECK(sorted_legal(g) == Strings{"pass", "single KD"});
  play(g, "single KD");
  CHECK(g.zone("trick") == Strings{"4C", "7C", "KD"});
}

TEST_CASE("president GOING OUT: the first out is the President, the last holding cards the Scum",
          "[library][president]") {
  Game g = start_president(3);
  rehand(g, {{"3C", "4C"}, {"KC"}, {"5C", "6C"}});
  play(g, "single 4C");
  play(g, "single KC");  // player 1 is out: the President
  CHECK(g.int_var("place", 1) == 1);
  // The trick's last player is out: it ends when both players with cards pass, and the next
  // player holding cards leads.
  REQUIRE(to_move(g) == 2);
  pass(g);
  pass(g);
  CHECK(g.zone("trick").empty());
  REQUIRE(to_move(g) == 2);
  play(g, "single 5C");
  pass(g);  // player 0 cannot beat a 5 with a 3
  play(g, "single 6C");
  REQUIRE(g.state.finished);
  CHECK(g.int_var("place", 2) == 2);
  CHECK(g.int_var("place", 0) == 3);
  CHECK(g.int_var("points", 1) == 2);
  CHECK(g.int_var("points", 2) == 1);
  CHECK(g.int_var("points", 0) == 0);
  CHECK(g.state.winners == std::vector<rulebook::interpreter::PlayerId>{1});
}

TEST_CASE("president THE EXCHANGE: the Scum gives the two best cards, the President gives back any two",
          "[library][president]") {
  Game g = start_president(3, 2);
  rehand(g, {{"3C", "4C"}, {"KC"}, {"5C", "6C"}});
  play(g, "single 4C");
  play(g, "single KC");
  pass(g);
  pass(g);
  play(g, "single 5C");
  pass(g);
  // Deal 2 comes off the deck in card order. The Scum (player 0) deals from the left: card k
  // goes to player (k + 1) % 3, so player 0 was dealt the 2 and the ace of hearts, its best.
  ri::ScriptedShuffles second({stacked({})});
  choose_with(g, "single 6C", &second);
  REQUIRE_FALSE(g.state.finished);
  REQUIRE(g.int_var("deal_no") == 2);
  REQUIRE(rule_to_move(g) == "give_scum");
  CHECK(to_move(g) == 1);
  const Strings president = g.zone("hand", 1);
  CHECK(president.size() == 18 + 2);
  CHECK(std::count(president.begin(), president.end(), "2H") == 1);
  CHECK(std::count(president.begin(), president.end(), "AH") == 1);
  CHECK(g.zone("hand", 0).size() == 17 - 2);
  g.choose("5C");
  g.choose("8C");
  // With three players nobody else exchanges; the Scum leads the first trick.
  CHECK(g.zone("hand", 0).size() == 17);
  CHECK(g.zone("hand", 1).size() == 18);
  const Strings scum = g.zone("hand", 0);
  CHECK(std::count(scum.begin(), scum.end(), "5C") == 1);
  CHECK(to_move(g) == 0);
  CHECK(rule_to_move(g) == "play_or_pass");
}

TEST_CASE("president THE EXCHANGE: with four players the Vice-Scum gives the Vice-President one card",
          "[library][president]") {
  Game g = start_president(4, 2);
  rehand(g, {{"3C", "4C", "8C"}, {"KC"}, {"5C", "6C"}, {"QC"}});
  play(g, "single 4C");
  play(g, "single KC");  // player 1 out: President
  pass(g);        // player 2
  pass(g);        // player 3
  pass(g);        // player 0: the trick clears, player 2 leads
  REQUIRE(to_move(g) == 2);
  play(g, "single 6C");
  play(g, "single QC");  // player 3 out: Vice-President
  pass(g);        // player 0
  pass(g);        // player 2: the trick clears, player 0 leads
  REQUIRE(to_move(g) == 0);
  play(g, "single 3C");
  ri::ScriptedShuffles second({stacked({})});
  choose_with(g, "single 5C", &second);  // player 2 out: Vice-Scum; player 0 is the Scum
  REQUIRE(g.int_var("deal_no") == 2);
  REQUIRE(rule_to_move(g) == "give_scum");
  CHECK(to_move(g) == 1);
  g.choose(g.legal().front());
  g.choose(g.legal().front());
  REQUIRE(rule_to_move(g) == "give_vice_scum");
  CHECK(to_move(g) == 3);
  CHECK(g.zone("hand", 3).size() == 13 + 1);
  CHECK(g.zone("hand", 2).size() == 13 - 1);
}

TEST_CASE("president: the example log replays and the ruleset checks clean", "[library][president][replay]") {
  const auto c = rulebook::test::run_rulebook("check '" + rulebook::test::source_path(kRules) + "'");
  CHECK(c.exit_code == 0);
  CHECK(c.err.empty());
  const auto r = rulebook::test::run_rulebook("replay '" + rulebook::test::source_path(kRules) + "' '" +
                                              rulebook::test::source_path("rulesets/library/examples/president.jsonl") +
                                              "'");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
}

TEST_CASE("president THE PLAY: only the leader picks the size, the others play sets of the trick's size",
          "[library][president]") {
  // Each size is an alternative whose guard asks for as many cards of the rank and, after the
  // lead, the trick's size and a higher rank.
  Game g = start_president(3);
  rehand(g, {{"4C", "9C"}, {"5C", "5D", "5H", "KD"}, {"6C", "AD"}});
  play(g, "single 4C");
  REQUIRE(to_move(g) == 1);
  CHECK(sorted_legal(g) == Strings{"pass", "single 5C", "single 5D", "single 5H", "single KD"});
  play(g, "single 5H");
  CHECK(g.zone("trick") == Strings{"4C", "5H"});
  CHECK(g.zone("hand", 1) == Strings{"5C", "5D", "KD"});
}

TEST_CASE("president: the most points win, players tied on the most points all win", "[library][president]") {
  // One deal as in GOING OUT (player 1 first, player 2 second, player 0 the Scum: 2, 1 and 0
  // points), after points from earlier deals set by hand: 1, 0 and 1.
  Game g = start_president(3);
  rehand(g, {{"3C", "4C"}, {"KC"}, {"5C", "6C"}});
  set_points(g, 0, 1);
  set_points(g, 2, 1);
  play(g, "single 4C");
  play(g, "single KC");
  pass(g);
  pass(g);
  play(g, "single 5C");
  pass(g);
  play(g, "single 6C");
  REQUIRE(g.state.finished);
  // points: player 0 1 + 0, player 1 0 + 2, player 2 1 + 1: players 1 and 2 tie on 2.
  CHECK(g.state.winners == std::vector<rulebook::interpreter::PlayerId>{1, 2});
}

TEST_CASE("president: without --players four play (players 3..7 default 4)", "[library][president][cli]") {
  const auto r = rulebook::test::run_rulebook("simulate '" + rulebook::test::source_path(kRules) +
                                              "' --games 2 --seed 1");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("President: 2 games, 4 players, seed 1") != std::string::npos);
}

}  // namespace rulesets_library_president_test
