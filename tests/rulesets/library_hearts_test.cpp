// Hearts (rulesets/library/hearts.rules) scenarios: each test deals explicit hands (no seed
// decides anything), plays explicit cards and checks what Bicycle's rule text demands. Test
// names quote the rule text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/rational.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_hearts_test {  // this file's own names (unity builds put several files in one)
namespace {

// The hands after the pass of the first hand (seat 0 deals, passes go left), and the three
// cards each seat passes: passes[p] goes to seat p + 1, so it must be part of hands[p + 1].
struct HeartsDeal {
  std::array<Strings, 4> hands;
  std::array<Strings, 4> passes;
};

bool contains(const Strings& s, const std::string& c) { return std::find(s.begin(), s.end(), c) != s.end(); }

// Seat 0 takes every trick of this deal: it leads AC, KC, QC, then ten hearts.
HeartsDeal moon_deal() {
  HeartsDeal d;
  d.hands = {Strings{"AC", "KC", "QC", "AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H"},
             Strings{"2C", "QS", "4H", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD"},
             Strings{"3C", "2H", "QD", "KD", "AD", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"},
             Strings{"4C", "3H", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "10S", "JS", "KS", "AS"}};
  for (std::size_t p = 0; p < 4; ++p) {
    const Strings& next = d.hands[(p + 1) % 4];
    d.passes[p] = Strings(next.end() - 3, next.end());
  }
  return d;
}

// As moon_deal, but seat 2 has no club (its 3C and seat 3's 10S change places).
HeartsDeal void_deal() {
  HeartsDeal d = moon_deal();
  std::replace(d.hands[2].begin(), d.hands[2].end(), std::string("3C"), std::string("10S"));
  std::replace(d.hands[3].begin(), d.hands[3].end(), std::string("10S"), std::string("3C"));
  for (std::size_t p = 0; p < 4; ++p) {
    const Strings& next = d.hands[(p + 1) % 4];
    d.passes[p] = Strings(next.end() - 3, next.end());
  }
  return d;
}

// The shuffled deck (bottom to top) that deals the hands before the pass: one card at a
// time, clockwise from seat 1 (on the left of the first dealer, seat 0).
Strings deck_for(const HeartsDeal& d) {
  std::array<Strings, 4> before;
  for (std::size_t p = 0; p < 4; ++p) {
    const Strings& received = d.passes[(p + 3) % 4];
    for (const std::string& c : received) REQUIRE(contains(d.hands[p], c));
    for (const std::string& c : d.hands[p]) {
      if (!contains(received, c)) before[p].push_back(c);
    }
    before[p].insert(before[p].end(), d.passes[p].begin(), d.passes[p].end());
    REQUIRE(before[p].size() == 13);
  }
  Strings top_first;
  for (std::size_t k = 0; k < 13; ++k) {
    for (std::size_t j = 0; j < 4; ++j) top_first.push_back(before[(1 + j) % 4][k]);
  }
  std::reverse(top_first.begin(), top_first.end());
  return top_first;
}

Game start_hearts(const HeartsDeal& d, const std::map<std::string, std::string>& options = {}) {
  Game g;
  g.machine = rulebook::test::machine_for_file("rulesets/library/hearts.rules");
  ri::GameConfig config;
  config.players = 4;
  config.seed = 1;
  config.options = options;
  ri::ScriptedShuffles shuffles({deck_for(d)});
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

// Every seat passes its three cards, clockwise from seat 1.
void pass_all(Game& g, const HeartsDeal& d) {
  for (const int p : {1, 2, 3, 0}) {
    for (const std::string& c : d.passes[static_cast<std::size_t>(p)]) {
      INFO("seat " << p << " passes " << c);
      REQUIRE(rule_to_move(g) == "pass_card");
      REQUIRE(to_move(g) == p);
      g.choose(c);
    }
  }
}

void play(Game& g, const Strings& cards) {
  for (const std::string& c : cards) {
    INFO("playing " << c);
    REQUIRE(rule_to_move(g) == "play_card");
    g.choose(c);
  }
}

Strings sorted(Strings s) {
  std::sort(s.begin(), s.end());
  return s;
}

// At the start of the last trick of the first hand (any play so far), the cards are laid out
// anew: seat `leader` leads 2D, the others hold 3D, 4D and 5D in turn (seat leader + 3 wins
// the trick), and the tricks taken so far are `taken`; every other card is in seat 2's tricks.
void last_trick_with(Game& g, const std::array<Strings, 4>& taken) {
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("tricks") == 12; });
  REQUIRE(rule_to_move(g) == "play_card");
  const int leader = to_move(g);
  const Strings last{"2D", "3D", "4D", "5D"};
  std::array<Strings, 4> layout = taken;
  Strings placed = last;
  for (const Strings& t : taken) placed.insert(placed.end(), t.begin(), t.end());
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const char* rank : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
      const std::string c = std::string(rank) + suit;
      if (!contains(placed, c)) layout[2].push_back(c);
    }
  }
  for (int p = 0; p < 4; ++p) {
    Strings down;
    for (const std::string& c : layout[static_cast<std::size_t>(p)]) down.push_back(c + "*");
    rulebook::test::stack(g, "taken", p, down);
  }
  for (int i = 0; i < 4; ++i) rulebook::test::stack(g, "hand", (leader + i) % 4, {last[static_cast<std::size_t>(i)] + "*"});
  g.refresh();
  for (int p = 0; p < 4; ++p) REQUIRE(g.zone("hand", p).size() == 1);
  play(g, {"2D", "3D", "4D", "5D"});
}

// The payoff `share` per player, as written in logs (`-1`, `1/2`).
Strings shares(const Game& g) {
  REQUIRE(g.state.payoffs.size() == 1);
  Strings out;
  for (const ri::Rational& r : g.state.payoffs[0]) out.push_back(ri::to_string(r));
  return out;
}

Strings hearts_but(const Strings& left_out) {
  Strings out;
  for (const char* rank : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
    const std::string c = std::string(rank) + "H";
    if (!contains(left_out, c)) out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("hearts: \"Deal 13 cards each\", one at a time from the dealer's left", "[library][hearts]") {
  const HeartsDeal d = moon_deal();
  const Game g = start_hearts(d);
  CHECK(g.zone("deck").empty());
  for (int p = 0; p < 4; ++p) CHECK(g.zone("hand", p).size() == 13);
  // The first decision: the player on the dealer's left passes first.
  CHECK(rule_to_move(g) == "pass_card");
  CHECK(to_move(g) == 1);
}

TEST_CASE("hearts: \"each player chooses three cards and passes them face down to the left-hand opponent\" on the first "
          "hand",
          "[library][hearts]") {
  const HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  for (std::size_t p = 0; p < 4; ++p) CHECK(sorted(g.zone("hand", static_cast<int>(p))) == sorted(d.hands[p]));
}

TEST_CASE("hearts: interpretation: a passed card is not picked up before its receiver has passed", "[library][hearts]") {
  const HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  for (const std::string& c : d.passes[1]) g.choose(c);  // seat 1 passes to seat 2
  REQUIRE(to_move(g) == 2);
  const Strings legal = g.legal();
  CHECK(legal.size() == 13);
  for (const std::string& c : d.passes[1]) CHECK_FALSE(contains(legal, c));
  CHECK(g.zone("outgoing", 1).size() == 3);
}

TEST_CASE("hearts: \"On the second hand each player passes 3 cards to the player on their right, on the third hand, to the "
          "player across, on the fourth hand no cards are passed\"",
          "[library][hearts]") {
  Game g = start_hearts(moon_deal());
  for (const std::int64_t hand : {2, 3}) {
    rulebook::test::play_first_moves_until(g, [&](const Game& x) { return x.int_var("hand_number") == hand; });
    REQUIRE(rule_to_move(g) == "pass_card");
    std::map<int, Strings> passed;
    for (int i = 0; i < 12; ++i) {
      const int p = to_move(g);
      const std::string c = g.legal().front();
      passed[p].push_back(c);
      g.choose(c);
    }
    for (const auto& [p, cards] : passed) {
      const int receiver = hand == 2 ? (p + 3) % 4 : (p + 2) % 4;
      const Strings held = g.zone("hand", receiver);
      for (const std::string& c : cards) CHECK(contains(held, c));
    }
  }
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("hand_number") == 4; });
  CHECK(rule_to_move(g) == "play_card");  // no pass
  CHECK(g.legal() == Strings{"2C"});
}

TEST_CASE("hearts: \"The player holding the 2 of clubs after the pass makes the opening lead\"", "[library][hearts]") {
  HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  CHECK(to_move(g) == 1);
  CHECK(g.legal() == Strings{"2C"});
}

TEST_CASE("hearts: \"Each player must follow suit if possible\"", "[library][hearts]") {
  HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  play(g, {"2C", "3C"});
  CHECK(to_move(g) == 3);
  CHECK(g.legal() == Strings{"4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC"});
}

TEST_CASE("hearts: \"if a player has no clubs when the first trick is led, a heart or the queen of spades cannot be "
          "discarded\"",
          "[library][hearts]") {
  HeartsDeal d = void_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  play(g, {"2C"});
  CHECK(to_move(g) == 2);
  const Strings legal = g.legal();
  CHECK(legal.size() == 12);
  CHECK_FALSE(contains(legal, "2H"));
  CHECK(contains(legal, "AD"));
}

TEST_CASE("hearts: \"The highest card of the suit led wins a trick and the winner of that trick leads next\"",
          "[library][hearts]") {
  HeartsDeal d = void_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  play(g, {"2C", "AD", "4C", "QC"});  // AD is higher but not of the suit led
  CHECK(to_move(g) == 0);
  CHECK(g.int_var("tricks") == 1);
  CHECK(g.zone("taken", 0).size() == 4);
}

TEST_CASE("hearts: \"Hearts may not be led until a heart or the queen of spades has been discarded\"",
          "[library][hearts]") {
  HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  play(g, {"2C", "3C", "4C", "AC"});
  REQUIRE(to_move(g) == 0);
  CHECK(g.legal() == Strings{"QC", "KC"});  // seat 0 holds hearts, but they are not broken
  play(g, {"KC", "QS", "2H", "5C"});        // seat 1 discards the queen of spades
  CHECK(g.var("broken") == "true");
  play(g, {"QC", "4H", "2S", "6C"});
  REQUIRE(to_move(g) == 0);
  CHECK(g.legal().size() == 10);  // only hearts left, and they may be led now
}

TEST_CASE("hearts: \"each heart 1 point, queen 13 points\"", "[library][hearts]") {
  Game g = start_hearts(moon_deal());
  last_trick_with(g, {Strings{"QS", "AH", "KH", "QH"}, hearts_but({"AH", "KH", "QH"}), Strings{}, Strings{}});
  REQUIRE(g.int_var("hand_number") == 2);
  CHECK(g.int_var("points", 0) == 16);
  CHECK(g.int_var("points", 1) == 10);
  CHECK(g.int_var("points", 2) == 0);
  CHECK(g.int_var("points", 3) == 0);
}

TEST_CASE("hearts: shooting the moon: \"that player scores zero and each of his opponents score an additional 26 points\"",
          "[library][hearts]") {
  HeartsDeal d = moon_deal();
  Game g = start_hearts(d);
  pass_all(g, d);
  play(g, {"2C", "3C", "4C", "AC", "KC", "QS", "2H", "5C", "QC", "4H", "2S", "6C"});
  // Seat 0 leads its ten hearts and takes every trick.
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("hand_number") == 2; });
  CHECK(g.int_var("points", 0) == 0);
  for (int p = 1; p < 4; ++p) CHECK(g.int_var("points", p) == 26);
}

TEST_CASE("hearts: the game is played to 100 points (an option), interpretation: the fewest points win, ties all win",
          "[library][hearts]") {
  Game g = start_hearts(moon_deal(), {{"target", "10"}});
  last_trick_with(g, {Strings{"QS", "AH", "KH", "QH"}, hearts_but({"AH", "KH", "QH"}), Strings{}, Strings{}});
  REQUIRE(g.state.finished);
  CHECK(std::vector<int>(g.state.winners.begin(), g.state.winners.end()) == std::vector<int>{2, 3});
  // interpretation: the winners share 1, the others -1.
  CHECK(shares(g) == Strings{"-1/2", "-1/2", "1/2", "1/2"});
  Game below = start_hearts(moon_deal(), {{"target", "17"}});
  last_trick_with(below, {Strings{"QS", "AH", "KH", "QH"}, hearts_but({"AH", "KH", "QH"}), Strings{}, Strings{}});
  CHECK_FALSE(below.state.finished);
}

TEST_CASE("hearts: \"The player with the fewest points wins\", interpretation: three tied winners share 1, the loser "
          "pays it",
          "[library][hearts]") {
  // Seat 0 takes the queen and ten hearts (23 points); seats 1, 2 and 3 one heart each.
  Game g = start_hearts(moon_deal(), {{"target", "10"}});
  last_trick_with(g, {Strings{"QS", "AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H"}, Strings{"4H"}, Strings{},
                      Strings{"3H"}});
  REQUIRE(g.state.finished);
  for (int p = 1; p < 4; ++p) CHECK(g.int_var("points", p) == 1);
  CHECK(g.int_var("points", 0) == 23);
  CHECK(std::vector<int>(g.state.winners.begin(), g.state.winners.end()) == std::vector<int>{1, 2, 3});
  CHECK(shares(g) == Strings{"-1", "1/3", "1/3", "1/3"});
}

TEST_CASE("hearts: \"The player with the fewest points wins\", interpretation: a single winner takes 1, the others pay a "
          "third each",
          "[library][hearts]") {
  Game g = start_hearts(moon_deal(), {{"target", "10"}});
  last_trick_with(g, {Strings{"QS"}, Strings{"AH", "KH"}, Strings{}, Strings{"QH"}});
  REQUIRE(g.state.finished);
  // Seat 2 takes the ten hearts left (10 points); 13, 2 and 1 for the others.
  CHECK(g.int_var("points", 2) == 10);
  CHECK(std::vector<int>(g.state.winners.begin(), g.state.winners.end()) == std::vector<int>{3});
  CHECK(shares(g) == Strings{"-1/3", "-1/3", "-1/3", "1"});
}

// ---- three or five players -----------------------------------------------------------------
// The usual rule for other counts (yourgametips.com, "Can you play hearts with 3 people?"):
// "In a 3-player game, the 2 of diamonds is removed, and each player gets 17 cards. In a
// 5-player game, the two of diamonds and two of clubs are removed; each player gets 10
// cards". With five, the lowest club in play, the three, leads (an interpretation).

namespace {

Game start_hearts_with(int players, std::uint64_t seed = 1) {
  Game g;
  g.machine = rulebook::test::machine_for_file("rulesets/library/hearts.rules");
  ri::GameConfig config;
  config.players = players;
  config.seed = seed;
  g.state = g.machine->start(config);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

}  // namespace

TEST_CASE("hearts, three players: \"the 2 of diamonds is removed, and each player gets 17 cards\"", "[library][hearts]") {
  for (const std::uint64_t seed : {1u, 2u, 3u}) {
    const Game g = start_hearts_with(3, seed);
    CHECK(g.zone("aside") == Strings{"2D"});
    CHECK(g.zone("deck").empty());
    for (int p = 0; p < 3; ++p) CHECK(g.zone("hand", p).size() == 17);
  }
}

TEST_CASE("hearts, five players: \"the two of diamonds and two of clubs are removed, each player gets 10 cards\", and "
          "interpretation: the 3 of clubs leads",
          "[library][hearts]") {
  Game g = start_hearts_with(5);
  CHECK(sorted(g.zone("aside")) == Strings{"2C", "2D"});
  for (int p = 0; p < 5; ++p) CHECK(g.zone("hand", p).size() == 10);
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.state.decision && rule_to_move(x) == "play_card"; });
  CHECK(g.legal() == Strings{"3C"});
  CHECK(contains(g.zone("hand", to_move(g)), "3C"));
  // Ten tricks a hand: after nine, each player holds one card.
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("tricks") == 9; });
  for (int p = 0; p < 5; ++p) CHECK(g.zone("hand", p).size() == 1);
}

TEST_CASE("hearts, three players: interpretation: nobody sits across, so the passes go left, right, then none",
          "[library][hearts]") {
  Game g = start_hearts_with(3);
  for (const std::int64_t hand : {1, 2, 4}) {
    rulebook::test::play_first_moves_until(g, [&](const Game& x) { return x.int_var("hand_number") == hand; });
    REQUIRE(rule_to_move(g) == "pass_card");
    std::map<int, Strings> passed;
    for (int i = 0; i < 9; ++i) {
      const int p = to_move(g);
      const std::string c = g.legal().front();
      passed[p].push_back(c);
      g.choose(c);
    }
    REQUIRE(rule_to_move(g) == "play_card");
    for (const auto& [p, cards] : passed) {
      const int receiver = hand == 2 ? (p + 2) % 3 : (p + 1) % 3;
      for (const std::string& c : cards) CHECK(contains(g.zone("hand", receiver), c));
    }
    if (hand == 2) {
      rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("hand_number") == 3; });
      CHECK(rule_to_move(g) == "play_card");  // the third hand: no pass
      CHECK(g.legal() == Strings{"2C"});
    }
  }
}

TEST_CASE("hearts, three players: 17 tricks a hand, and the queen and the 13 hearts still cost 26 points in all",
          "[library][hearts]") {
  Game g = start_hearts_with(3);
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("tricks") == 16; });
  for (int p = 0; p < 3; ++p) CHECK(g.zone("hand", p).size() == 1);
  rulebook::test::play_first_moves_until(g, [](const Game& x) { return x.int_var("hand_number") == 2; });
  const std::int64_t total = g.int_var("points", 0) + g.int_var("points", 1) + g.int_var("points", 2);
  CHECK((total == 26 || total == 52));  // 52: someone shot the moon
}

}  // namespace rulesets_library_hearts_test
