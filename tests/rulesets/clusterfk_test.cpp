// Clusterf**k! scenarios: an explicit deal (the note deck in a fixed order), explicit passes
// and explicit hookup choices, checking the scores and winners the rulebook demands. Test
// names cite the section of rulebooks/clusterfk.txt.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "interpreter/game_fixture.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_clusterfk_test {  // this file's own names (unity builds put several files in one)
namespace {

// A game whose note deck is note1..noteN from the bottom (no seed decides anything).
Game start_clusterfk(int players, std::map<std::string, std::string> options = {},
                     const std::string& ruleset = "rulesets/clusterfk.rules") {
  Game g;
  g.machine = rulebook::test::machine_for_file(ruleset);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  config.options = options;
  const int notes = options.count("notes") != 0 ? std::stoi(options.at("notes")) : 40;
  Strings order;
  for (int i = 1; i <= notes; ++i) order.push_back(fmt::format("note{}", i));
  ri::ScriptedShuffles shuffles({order});
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

// The player to move passes `card` to `receiver`.
void pass(Game& g, const std::string& card, int receiver) {
  REQUIRE(rule_to_move(g) == "pass_or_slam");
  g.choose("pass");
  g.choose(card);
  g.choose(fmt::format("player {}", receiver));
}

// The player to move slams; nobody passes a last note.
void slam_and_skip_last_notes(Game& g) {
  REQUIRE(rule_to_move(g) == "pass_or_slam");
  g.choose("slam");
  while (rule_to_move(g) == "last_pass") g.choose("false");
}

struct Gesture {
  std::string kind;      // point, finger, ogle
  std::vector<int> at;   // the players pointed at
};

std::string players_text(const std::vector<int>& players) {
  Strings names;
  for (const int p : players) names.push_back(fmt::format("player {}", p));
  return fmt::format("{{{}}}", fmt::join(names, ", "));
}

// Every player's secret gesture, in seat order.
void hookup(Game& g, const std::vector<Gesture>& gestures) {
  for (std::size_t p = 0; p < gestures.size(); ++p) {
    INFO("player " << p);
    REQUIRE(rule_to_move(g) == "choose_gesture");
    REQUIRE(to_move(g) == static_cast<int>(p));
    g.choose(gestures[p].kind);
    REQUIRE(rule_to_move(g) == "choose_targets");
    g.choose(players_text(gestures[p].at));
  }
}

Gesture point(std::vector<int> at) { return {"point", std::move(at)}; }
Gesture finger(int at) { return {"finger", {at}}; }
Gesture ogle(int at) { return {"ogle", {at}}; }

std::vector<std::int64_t> points(const Game& g, int players) {
  std::vector<std::int64_t> out;
  for (int p = 0; p < players; ++p) out.push_back(g.int_var("points", p));
  return out;
}

using Points = std::vector<std::int64_t>;

}  // namespace

// ---- SETUP --------------------------------------------------------------------------------

TEST_CASE("clusterfk SETUP: the SCORE! and Chlamydia cards are removed and four notes dealt to each player",
          "[clusterfk][scenario]") {
  const Game g = start_clusterfk(5);
  CHECK(g.zone("score_supply").size() == 8);
  CHECK(g.zone("aside") == Strings{"chlamydia_card1"});
  for (int p = 0; p < 5; ++p) CHECK(g.zone("hand", p).size() == 4);
  CHECK(g.zone("deck").size() == 20);  // 40 notes by default
  CHECK(g.zone("hand", 0) == Strings{"note37", "note38", "note39", "note40"});
}

TEST_CASE("clusterfk SETUP: the number of note cards is an option", "[clusterfk][scenario]") {
  const Game g = start_clusterfk(8, {{"notes", "60"}});
  CHECK(g.zone("deck").size() == 28);
  CHECK(g.state.cards->size() == 69);  // 60 notes, 8 SCORE! cards, the Chlamydia card
}

TEST_CASE("clusterfk Optional Rule: Chlamydia: the starting player holds it and draws up to four",
          "[clusterfk][scenario]") {
  const Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  const Strings hand = g.zone("hand", 0);
  CHECK(hand.size() == 4);
  CHECK(std::count(hand.begin(), hand.end(), "chlamydia_card1") == 1);
  CHECK(g.zone("aside").empty());
}

TEST_CASE("clusterfk Optional Rule: Chlamydia needs six or more players", "[clusterfk][scenario]") {
  const Game g = start_clusterfk(5, {{"chlamydia", "true"}});
  CHECK(g.zone("aside") == Strings{"chlamydia_card1"});
}

// ---- PASSING CARDS ------------------------------------------------------------------------

TEST_CASE("clusterfk Passing Cards: the first player passes a note face down to anyone else, then clockwise",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  CHECK(to_move(g) == 0);
  CHECK(g.legal() == Strings{"pass", "slam"});
  g.choose("pass");
  g.choose("note40");
  CHECK(g.legal() == Strings{"player 1", "player 2", "player 3"});  // not to oneself
  g.choose("player 2");
  CHECK(g.zone("hand", 2).size() == 5);
  CHECK(g.zone("hand", 0).size() == 3);
  CHECK(g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, "note40"))] == 0);
  CHECK(to_move(g) == 1);
}

TEST_CASE("clusterfk Passing Cards: passing goes round the table until somebody slams", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  pass(g, "note40", 1);
  pass(g, "note40", 2);  // player 1 passes on the note it received
  pass(g, "note40", 3);
  pass(g, "note40", 0);
  CHECK(to_move(g) == 0);  // a second trip
  CHECK(rule_to_move(g) == "pass_or_slam");
}

TEST_CASE("clusterfk Passing Cards: a player with an empty hand can only slam", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  rulebook::test::empty_into(g, "hand", 0, "discard");
  g.refresh();
  CHECK(g.legal() == Strings{"slam"});
}

TEST_CASE("clusterfk Passing Cards: after a slam each other player may pass one more note", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  pass(g, "note40", 2);
  g.choose("slam");  // player 1 slams
  CHECK(rule_to_move(g) == "last_pass");
  CHECK(to_move(g) == 2);  // clockwise from the slammer's left
  g.choose("true");
  g.choose("note40");
  g.choose("player 3");
  CHECK(to_move(g) == 3);
  g.choose("false");
  CHECK(to_move(g) == 0);
  g.choose("false");
  CHECK(rule_to_move(g) == "choose_gesture");  // then it's time to hook up
  CHECK(g.zone("hand", 3).size() == 5);
}

TEST_CASE("clusterfk Optional Rule: Chlamydia: the card can be passed like any other", "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  pass(g, "chlamydia_card1", 4);
  const Strings hand = g.zone("hand", 4);
  CHECK(std::count(hand.begin(), hand.end(), "chlamydia_card1") == 1);
}

// ---- HOOKING UP ---------------------------------------------------------------------------

TEST_CASE("clusterfk Hooking Up: point at one or two players, or give one the middle finger", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  CHECK(g.legal() == Strings{"point", "finger"});
  g.choose("point");
  CHECK(g.legal().size() == 6);  // 3 single players, 3 pairs
  Game f = start_clusterfk(4);
  slam_and_skip_last_notes(f);
  f.choose("finger");
  CHECK(f.legal() == Strings{"{player 1}", "{player 2}", "{player 3}"});
}

TEST_CASE("clusterfk Optional Rule: Ogling adds binoculars at one player", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4, {{"ogling", "true"}});
  slam_and_skip_last_notes(g);
  CHECK(g.legal() == Strings{"point", "finger", "ogle"});
}

TEST_CASE("clusterfk Hooking Up: choices are secret until everyone has chosen", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  g.choose("point");
  g.choose("{player 1}");
  CHECK(g.var("gesture_of", 0) == "none");  // not revealed yet
  CHECK(g.state.decision->secret);
}

// ---- SCORING ------------------------------------------------------------------------------

TEST_CASE("clusterfk Scoring: a monogamous twosome: each gets one SCORE! card", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({0}), point({3}), finger(0)});
  CHECK(points(g, 4) == Points{1, 1, 0, 0});
  CHECK_FALSE(g.state.finished);
}

TEST_CASE("clusterfk Scoring: pointing at two players is no twosome", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0}), point({3}), point({2})});
  CHECK(points(g, 4) == Points{0, 0, 1, 1});
}

TEST_CASE("clusterfk Scoring: a third player pointing at a member does not spoil a twosome", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({0}), point({0}), point({0})});
  CHECK(points(g, 4) == Points{1, 1, 0, 0});
}

TEST_CASE("clusterfk Scoring: two twosomes in one round", "[clusterfk][scenario]") {
  Game g = start_clusterfk(5);
  slam_and_skip_last_notes(g);
  hookup(g, {point({2}), point({4}), point({0}), point({0}), point({1})});
  CHECK(points(g, 5) == Points{1, 1, 1, 0, 1});
}

TEST_CASE("clusterfk Scoring: a perfectly coordinated threesome wins the game at once", "[clusterfk][scenario]") {
  Game g = start_clusterfk(5);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 3}), point({0, 3}), point({4}), point({0, 1}), point({2})});
  CHECK(g.state.finished);
  CHECK_FALSE(g.state.fault);
  CHECK(g.state.winners == std::vector<int>{0, 1, 3});
  CHECK(points(g, 5) == Points{0, 0, 0, 0, 0});  // the twosome 2-4 does not matter any more
}

TEST_CASE("clusterfk Scoring: three players who do not all point at each other are no threesome",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 3}), point({2})});
  CHECK_FALSE(g.state.finished);
  CHECK(points(g, 4) == Points{0, 0, 0, 0});
}

TEST_CASE("clusterfk Scoring: without a winner everyone discards the hand and draws back up to four",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  pass(g, "note40", 1);  // player 1 now holds 5 notes, player 0 three
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({2}), point({3}), point({0})});
  CHECK_FALSE(g.state.finished);
  for (int p = 0; p < 4; ++p) CHECK(g.zone("hand", p).size() == 4);
  CHECK(g.zone("discard").size() == 16);
  CHECK(g.state.rounds == 2);
  CHECK(to_move(g) == 1);  // the next round starts left of the last starter
}

TEST_CASE("clusterfk Overview: the first player (or players) with three or more points wins", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4);
  for (int round = 0; round < 3; ++round) {
    slam_and_skip_last_notes(g);
    hookup(g, {point({1}), point({0}), point({3}), point({2})});
  }
  CHECK(g.state.finished);
  CHECK(g.state.winners == std::vector<int>{0, 1, 2, 3});
  CHECK(points(g, 4) == Points{3, 3, 3, 3});
}

TEST_CASE("clusterfk Scoring: when the note deck runs out the discards are shuffled into a new one",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(8);  // 40 notes: 32 dealt, 8 left
  slam_and_skip_last_notes(g);
  std::vector<Gesture> fingers(8, finger(1));
  fingers[1] = finger(0);
  hookup(g, fingers);
  CHECK(g.state.fault == std::nullopt);
  for (int p = 0; p < 8; ++p) CHECK(g.zone("hand", p).size() == 4);
  CHECK(g.zone("deck").size() + g.zone("discard").size() == 8);
}

// ---- BUSTING A THREESOME ------------------------------------------------------------------

TEST_CASE("clusterfk Busting a Threesome: a middle finger at a member busts it: 2 SCORE! cards for each buster",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(5);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), finger(1), finger(2)});
  CHECK_FALSE(g.state.finished);  // the ill-fated threesome scores nothing
  CHECK(points(g, 5) == Points{0, 0, 0, 2, 2});
}

TEST_CASE("clusterfk Busting a Threesome: a middle finger at a non-member does nothing", "[clusterfk][scenario]") {
  Game g = start_clusterfk(5);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({0}), point({4}), finger(2), finger(0)});
  CHECK(points(g, 5) == Points{1, 1, 0, 0, 0});
}

// ---- Optional Rule: Chlamydia ---------------------------------------------------------------

TEST_CASE("clusterfk Chlamydia: its holder scores, its partner does not", "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  slam_and_skip_last_notes(g);  // player 0 holds the Chlamydia card
  hookup(g, {point({1}), point({0}), point({3}), point({2}), finger(0), finger(0)});
  CHECK(points(g, 6) == Points{1, 0, 1, 1, 0, 0});
}

TEST_CASE("clusterfk Chlamydia: never discarded, its holder draws only three and plays first next round",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  pass(g, "chlamydia_card1", 3);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({2}), point({3}), point({4}), point({5}), point({0})});
  const Strings hand = g.zone("hand", 3);
  CHECK(hand.size() == 4);
  CHECK(std::count(hand.begin(), hand.end(), "chlamydia_card1") == 1);
  CHECK(to_move(g) == 3);
}

TEST_CASE("clusterfk Chlamydia: a threesome with the holder is won by the holder alone", "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), point({4}), point({3}), finger(3)});
  CHECK(g.state.finished);
  CHECK(g.state.winners == std::vector<int>{0});
}

TEST_CASE("clusterfk Chlamydia: a bust of a threesome that includes the holder pays the busters only",
          "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"chlamydia", "true"}});
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), finger(0), point({5}), point({4})});
  CHECK_FALSE(g.state.finished);
  CHECK(points(g, 6) == Points{0, 0, 0, 2, 1, 1});
}

// ---- Optional Rule: Ogling ------------------------------------------------------------------

TEST_CASE("clusterfk Ogling: ogling a player who scores gives one SCORE! card", "[clusterfk][scenario]") {
  Game g = start_clusterfk(4, {{"ogling", "true"}});
  slam_and_skip_last_notes(g);
  hookup(g, {point({1}), point({0}), ogle(0), ogle(2)});
  CHECK(points(g, 4) == Points{1, 1, 1, 0});
}

TEST_CASE("clusterfk Ogling: watching a busted player gives nothing, watching a buster pays", "[clusterfk][scenario]") {
  Game g = start_clusterfk(6, {{"ogling", "true"}});
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), finger(2), ogle(1), ogle(3)});
  CHECK(points(g, 6) == Points{0, 0, 0, 2, 0, 1});
}

TEST_CASE("clusterfk Scoring: two twosomes and a threesome in one round: the threesome wins", "[clusterfk][scenario]") {
  Game g = start_clusterfk(8);
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), point({4}), point({3}), point({6}), point({5}),
             point({0})});
  CHECK(g.state.finished);
  CHECK(g.state.winners == std::vector<int>{0, 1, 2});
}

// ---- variants ---------------------------------------------------------------------------------

TEST_CASE("clusterfk variant literal: a point takes a SCORE! card, and an empty supply is a rule fault",
          "[clusterfk][variant]") {
  Game g = start_clusterfk(8, {}, "rulesets/variants/clusterfk-literal.rules");
  // Two rounds of four twosomes: 8 cards, then none left for the third round.
  const std::vector<Gesture> pairs{point({1}), point({0}), point({3}), point({2}),
                                   point({5}), point({4}), point({7}), point({6})};
  slam_and_skip_last_notes(g);
  hookup(g, pairs);
  CHECK(g.zone("score_supply").size() == 0);
  CHECK(g.zone("scored", 0) == Strings{"score_card8"});
  // A bust pays 2 cards to a buster: the supply is empty.
  g.choose("slam");
  while (rule_to_move(g) == "last_pass") g.choose("false");
  hookup(g, {point({1, 2}), point({0, 2}), point({0, 1}), finger(0), point({5}), point({4}), point({7}),
             point({6})});
  REQUIRE(g.state.fault);
  CHECK(g.fault_rule() == "award_points");
}

TEST_CASE("clusterfk variant one-trip: passing ends after one trip round the table", "[clusterfk][variant]") {
  Game g = start_clusterfk(4, {}, "rulesets/variants/clusterfk-one-trip.rules");
  for (int p = 0; p < 4; ++p) pass(g, fmt::format("note{}", 40 - 4 * p), (p + 1) % 4);
  CHECK(rule_to_move(g) == "choose_gesture");
}

TEST_CASE("clusterfk variant threesome-points: a threesome scores three points and wins with the three-point rule",
          "[clusterfk][variant]") {
  Game g = start_clusterfk(5, {}, "rulesets/variants/clusterfk-threesome-points.rules");
  slam_and_skip_last_notes(g);
  hookup(g, {point({1, 3}), point({0, 3}), point({4}), point({0, 1}), point({2})});
  CHECK(g.state.finished);
  CHECK(g.state.winners == std::vector<int>{0, 1, 3});
  CHECK(points(g, 5) == Points{3, 3, 1, 3, 1});
}

}  // namespace rulesets_clusterfk_test
