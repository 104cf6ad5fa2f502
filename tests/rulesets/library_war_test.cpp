// War (rulesets/library/war.rules) scenarios: each test stacks the deck (no seed decides
// anything) and checks what Bicycle's rule text demands. Nobody decides anything in War, so
// a game runs to its end when it starts; the `max_battles` option stops it after a given
// number of battles to look at the table in between. Test names quote the rule text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_war_test {  // this file's own names (unity builds put several files in one)
namespace {

const char* const kRules = "rulesets/library/war.rules";

std::vector<std::string> full_deck() {
  Strings out;
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const char* rank : {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}) {
      out.push_back(std::string(rank) + suit);
    }
  }
  return out;
}

int rank_of(const std::string& card) {
  const std::string r = card.substr(0, card.size() - 1);
  if (r == "J") return 11;
  if (r == "Q") return 12;
  if (r == "K") return 13;
  if (r == "A") return 14;
  return std::stoi(r);
}

// The shuffled deck that deals these stacks, each given from the top down (the first card
// is turned up first). Seat 1 gets the first card dealt, so a stack's top is its last card
// dealt. Cards left out are filled in so that seat 0's card beats seat 1's in every battle
// after the given ones (seat 0 keeps the high cards).
Strings deck_for(Strings seat0, Strings seat1) {
  Strings rest;
  for (const std::string& c : full_deck()) {
    if (std::find(seat0.begin(), seat0.end(), c) == seat0.end() && std::find(seat1.begin(), seat1.end(), c) == seat1.end()) {
      rest.push_back(c);
    }
  }
  std::stable_sort(rest.begin(), rest.end(), [](const std::string& a, const std::string& b) { return rank_of(a) > rank_of(b); });
  const std::size_t need0 = 26 - seat0.size();
  REQUIRE(rest.size() == need0 + 26 - seat1.size());
  seat0.insert(seat0.end(), rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(need0));
  seat1.insert(seat1.end(), rest.begin() + static_cast<std::ptrdiff_t>(need0), rest.end());
  Strings top_first(52);
  for (std::size_t i = 0; i < 26; ++i) {
    top_first[51 - 2 * i] = seat0[i];
    top_first[50 - 2 * i] = seat1[i];
  }
  std::reverse(top_first.begin(), top_first.end());  // the shuffle result is bottom to top
  return top_first;
}

Game start_war(const Strings& deck, int max_battles = 0) {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = 2;
  config.seed = 1;
  config.options = {{"max_battles", std::to_string(max_battles)}};
  ri::ScriptedShuffles shuffles({deck});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

bool face_up(const Game& g, const std::string& card) {
  return g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, card))] != 0;
}

// The top `n` cards of a stack, from the top down.
Strings top_down(const Game& g, int player, std::size_t n) {
  Strings s = g.zone("stack", player);
  std::reverse(s.begin(), s.end());
  s.resize(std::min(n, s.size()));
  return s;
}

using Ints = std::vector<int>;
Ints winners(const Game& g) { return Ints(g.state.winners.begin(), g.state.winners.end()); }

Strings bottom_up(const Game& g, int player, std::size_t n) {
  Strings s = g.zone("stack", player);
  s.resize(std::min(n, s.size()));
  return s;
}

}  // namespace

TEST_CASE("war: \"The deck is divided evenly, with each player receiving 26 cards, dealt one at a time, face down\"",
          "[library][war]") {
  // Cap at one battle won by seat 0 (AS over 2D): the rest of each stack is as dealt.
  const Game g = start_war(deck_for({"AS", "KS"}, {"2D", "3D"}), 1);
  CHECK(g.state.finished);
  CHECK(top_down(g, 0, 1) == Strings{"KS"});
  CHECK(top_down(g, 1, 1) == Strings{"3D"});
  CHECK(g.zone("stack", 0).size() == 27);
  CHECK(g.zone("stack", 1).size() == 25);
  CHECK(g.zone("deck").empty());
  for (const std::string& c : g.zone("stack", 1)) CHECK_FALSE(face_up(g, c));
}

TEST_CASE("war: \"the player with the higher card takes both cards and puts them, face down, on the bottom of his stack\"",
          "[library][war]") {
  const Game g = start_war(deck_for({"9C"}, {"10H"}), 1);
  // The winner's card goes under first, then the other's under it.
  CHECK(bottom_up(g, 1, 2) == Strings{"9C", "10H"});
  CHECK_FALSE(face_up(g, "10H"));
  CHECK_FALSE(face_up(g, "9C"));
  CHECK(g.zone("stack", 1).size() == 27);
  CHECK(g.zone("table", 0).empty());
  CHECK(g.zone("table", 1).empty());
}

TEST_CASE("war: aces are high: an ace beats a king and a two", "[library][war]") {
  const Game a = start_war(deck_for({"KH"}, {"AC"}), 1);
  CHECK(a.zone("stack", 1).size() == 27);
  const Game b = start_war(deck_for({"AH"}, {"2C"}), 1);
  CHECK(b.zone("stack", 0).size() == 27);
}

TEST_CASE("war: \"If the cards are the same rank, it is War. Each player turns up one card face down and one card face "
          "up. The player with the higher cards takes both piles (six cards)\"",
          "[library][war]") {
  // 7C and 7D tie; 2C and 2D go face down; QD beats JC.
  const Game g = start_war(deck_for({"7C", "2C", "JC"}, {"7D", "2D", "QD"}), 1);
  CHECK(g.zone("stack", 1).size() == 29);
  CHECK(g.zone("stack", 0).size() == 23);
  // Seat 1's own three cards go under first, then seat 0's under them, each pile in the
  // order it was put down.
  CHECK(bottom_up(g, 1, 6) == Strings{"7C", "2C", "JC", "7D", "2D", "QD"});
}

TEST_CASE("war: \"If the turned-up cards are again the same rank, each player places another card face down and turns "
          "another card face up. The player with the higher card takes all 10 cards\"",
          "[library][war]") {
  const Game g = start_war(deck_for({"7C", "2C", "JC", "3C", "AD"}, {"7D", "2D", "JD", "3D", "KD"}), 1);
  CHECK(g.zone("stack", 0).size() == 31);
  CHECK(g.zone("stack", 1).size() == 21);
}

TEST_CASE("war: \"The game ends when one player has won all the cards\"", "[library][war]") {
  // Seat 0 wins every battle: 26 battles, seat 0 holds the 52 cards.
  const Game g = start_war(deck_for({}, {}));
  REQUIRE(g.state.finished);
  CHECK(winners(g) == Ints{0});
  CHECK(g.zone("stack", 0).size() == 52);
  CHECK(g.state.rounds == 26);
}

TEST_CASE("war: interpretation: a player who cannot put down the cards of a war loses", "[library][war]") {
  // Seat 0 wins the first 25 battles; the 26th is a tie (6C against 6D) and seat 1 has no
  // card left for the war.
  Strings seat0;
  Strings seat1;
  const Strings high{"AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS", "QC", "QD", "QH", "QS", "JC",
                     "JD", "JH", "JS", "10C", "10D", "10H", "10S", "9C", "9D", "9H", "9S", "8C"};
  const Strings low{"2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D", "4H", "4S", "5C",
                    "5D", "5H", "5S", "7C", "7D", "7H", "7S", "8D", "8H", "8S", "6H", "6S"};
  seat0 = high;
  seat0.push_back("6C");
  seat1 = low;
  seat1.push_back("6D");
  const Game g = start_war(deck_for(seat0, seat1));
  REQUIRE(g.state.finished);
  CHECK(winners(g) == Ints{0});
  CHECK(g.state.rounds == 26);
  CHECK(g.zone("stack", 1).empty());
  CHECK(g.zone("table", 0) == Strings{"6C"});  // the tied battle was not taken
}

TEST_CASE("war: interpretation: at the cap on battles the player with more cards wins, equal stacks nobody",
          "[library][war]") {
  const Game one = start_war(deck_for({"AS"}, {"2D"}), 1);
  CHECK(winners(one) == Ints{0});
  // Seat 0 wins the first battle, seat 1 the second: 26 cards each after two battles.
  const Game two = start_war(deck_for({"AS", "2C"}, {"2D", "AH"}), 2);
  REQUIRE(two.state.finished);
  CHECK(two.state.rounds == 2);
  CHECK(two.state.winners.empty());
}

TEST_CASE("war: nobody decides anything: the shuffle decides the whole game", "[library][war]") {
  const Game g = start_war(deck_for({"7C", "2C", "JC"}, {"7D", "2D", "QD"}));
  CHECK(g.state.finished);
  CHECK(g.state.moves == 0);
}

// ---- three or four players ----------------------------------------------------------------
// The rule for more players (musicmindgames.com, "War", More Than Two Players): "Divide the
// cards among three players and play normally. When two of the three players have equal card
// values larger than the third player's card, only they have a war."

namespace {

// The shuffled deck that deals these stacks to `players` players, each stack given from the
// top down and complete (the deal goes one card at a time clockwise from seat 1 until the
// deck is out, so with three seat 1 has 18 cards and the others 17).
Strings deck_for_seats(const std::vector<Strings>& stacks) {
  const std::size_t n = stacks.size();
  std::vector<Strings> dealt(n);
  std::size_t total = 0;
  for (std::size_t s = 0; s < n; ++s) {
    dealt[s] = Strings(stacks[s].rbegin(), stacks[s].rend());  // the top card is dealt last
    total += dealt[s].size();
  }
  REQUIRE(total == 52);
  Strings top_first;
  std::vector<std::size_t> next(n, 0);
  for (std::size_t k = 0; top_first.size() < 52; ++k) {
    const std::size_t seat = (1 + k) % n;
    REQUIRE(next[seat] < dealt[seat].size());
    top_first.push_back(dealt[seat][next[seat]++]);
  }
  std::reverse(top_first.begin(), top_first.end());  // the shuffle result is bottom to top
  return top_first;
}

// Stacks whose tops are the given cards; the cards left over fill the stacks below them in
// deck order, to 17 cards each and 18 for seat 1 (three players) or 13 each (four).
std::vector<Strings> stacks_with_tops(std::vector<Strings> tops) {
  const std::size_t n = tops.size();
  Strings used;
  for (const Strings& t : tops) used.insert(used.end(), t.begin(), t.end());
  std::size_t seat = 0;
  for (const std::string& c : full_deck()) {
    if (std::find(used.begin(), used.end(), c) != used.end()) continue;
    auto size_of = [&](std::size_t s) { return 52 / n + (s == 1 && n == 3 ? 1 : 0); };
    while (tops[seat].size() >= size_of(seat)) seat = (seat + 1) % n;
    tops[seat].push_back(c);
  }
  return tops;
}

Game start_war_with(int players, const std::vector<Strings>& stacks, int max_battles) {
  Game g;
  g.machine = rulebook::test::machine_for_file(kRules);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  config.options = {{"max_battles", std::to_string(max_battles)}};
  ri::ScriptedShuffles shuffles({deck_for_seats(stacks)});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

}  // namespace

TEST_CASE("war, three players: \"Divide the cards among three players\": 18, 17 and 17, seat 1 first", "[library][war]") {
  // One battle: AS beats 2D and 3D.
  const Game g = start_war_with(3, stacks_with_tops({{"AS"}, {"2D"}, {"3D"}}), 1);
  REQUIRE(g.state.finished);
  CHECK(g.zone("deck").empty());
  CHECK(g.zone("stack", 0).size() == 19);
  CHECK(g.zone("stack", 1).size() == 17);
  CHECK(g.zone("stack", 2).size() == 16);
  CHECK(winners(g) == Ints{0});  // the most cards at the cap
}

TEST_CASE("war, three players: \"When two of the three players have equal card values larger than the third player's "
          "card, only they have a war\"",
          "[library][war]") {
  // Seats 1 and 2 tie with kings over seat 0's five; they each put one card face down and one
  // up, seat 2's ace beats seat 1's queen and takes all seven cards. Seat 0 puts down no more.
  const Game g = start_war_with(3, stacks_with_tops({{"5C"}, {"KC", "2S", "QC"}, {"KD", "3S", "AD"}}), 1);
  REQUIRE(g.state.finished);
  CHECK(g.zone("stack", 0).size() == 16);
  CHECK(g.zone("stack", 1).size() == 15);
  CHECK(g.zone("stack", 2).size() == 21);
  // The winner's own pile goes under first, then the others' in seat order from him, each
  // under the one before: from the bottom up, seat 1's, seat 0's, then seat 2's own.
  CHECK(bottom_up(g, 2, 7) == Strings{"KC", "2S", "QC", "5C", "KD", "3S", "AD"});
  for (int p = 0; p < 3; ++p) CHECK(g.zone("table", p).empty());
}

TEST_CASE("war, three players: \"If all three players have cards of equal value, they all have a war\"",
          "[library][war]") {
  const Game g = start_war_with(3, stacks_with_tops({{"9C", "2C", "KC"}, {"9D", "2D", "QD"}, {"9H", "2H", "3H"}}), 1);
  REQUIRE(g.state.finished);
  CHECK(g.zone("stack", 0).size() == 23);
  CHECK(g.zone("stack", 1).size() == 15);
  CHECK(g.zone("stack", 2).size() == 14);
}

TEST_CASE("war, four players: a player out of cards is out, interpretation: a tied player who cannot put down both cards "
          "of a war drops out of it",
          "[library][war]") {
  // Seat 0 wins the first twelve battles; in the thirteenth its AH ties with seat 3's last
  // card, AS. Seat 3 has no card left for the war and drops out; seat 0 puts down two cards
  // and takes the table: it then holds all 52 cards and wins.
  const std::vector<Strings> stacks{
      {"AC", "AD", "KC", "KD", "KH", "KS", "QC", "QD", "QH", "QS", "JC", "JD", "AH"},
      {"JH", "5C", "5D", "5H", "5S", "6C", "6D", "6H", "6S", "7C", "7D", "7H", "7S"},
      {"JS", "8C", "8D", "8H", "8S", "9C", "9D", "9H", "9S", "10C", "10D", "10H", "10S"},
      {"2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D", "4H", "4S", "AS"}};
  const Game g = start_war_with(4, stacks, 0);
  REQUIRE(g.state.finished);
  CHECK(g.state.rounds == 13);
  CHECK(winners(g) == Ints{0});
  CHECK(g.zone("stack", 0).size() == 52);
  for (int p = 0; p < 4; ++p) CHECK(g.zone("table", p).empty());
}

}  // namespace rulesets_library_war_test
