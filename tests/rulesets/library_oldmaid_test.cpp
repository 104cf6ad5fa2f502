// Old Maid (rulesets/library/old-maid.rules) scenarios: each test deals explicit hands (no
// seed decides anything), makes explicit draws and checks what Bicycle's rule text demands.
// Test names quote the rule text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
using Ints = std::vector<int>;
namespace ri = rulebook::interpreter;

namespace {

const Strings kRanks{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

bool contains(const Strings& s, const std::string& c) { return std::find(s.begin(), s.end(), c) != s.end(); }
std::string rank_of(const std::string& card) { return card.substr(0, card.size() - 1); }

// The hands as dealt (before pairs are removed) for `players` players: seat 0 deals, the
// first card goes to seat 1. `given` names some cards of each seat; the other cards of the
// 51 are filled in as pairs of one rank, each to a seat holding no card of that rank, so
// that they pair off at once.
std::vector<Strings> deal_with(const std::vector<Strings>& given, int players) {
  const auto n = static_cast<std::size_t>(players);
  std::vector<std::size_t> size(n, 0);
  for (std::size_t i = 0; i < 51; ++i) ++size[(1 + i) % n];
  std::vector<Strings> hands = given;
  hands.resize(n);
  Strings used;
  for (const Strings& h : hands) used.insert(used.end(), h.begin(), h.end());
  // The ranks some seat was given first (they have the fewest seats to go to), each pair to
  // the seat with the most room left.
  Strings ranks;
  for (const std::string& r : kRanks) {
    if (std::any_of(used.begin(), used.end(), [&](const std::string& c) { return rank_of(c) == r; })) ranks.push_back(r);
  }
  for (const std::string& r : kRanks) {
    if (!contains(ranks, r)) ranks.push_back(r);
  }
  for (const std::string& r : ranks) {
    Strings left;
    for (const char* suit : {"C", "D", "H", "S"}) {
      const std::string c = r + suit;
      if (c != "QC" && !contains(used, c)) left.push_back(c);
    }
    REQUIRE(left.size() % 2 == 0);
    for (std::size_t i = 0; i < left.size(); i += 2) {
      std::size_t best = n;
      for (std::size_t p = 0; p < n; ++p) {
        const bool holds_rank = std::any_of(hands[p].begin(), hands[p].end(), [&](const std::string& c) { return rank_of(c) == r; });
        if (holds_rank || hands[p].size() + 2 > size[p]) continue;
        if (best == n || size[p] - hands[p].size() > size[best] - hands[best].size()) best = p;
      }
      INFO("rank " << r);
      REQUIRE(best < n);
      hands[best].push_back(left[i]);
      hands[best].push_back(left[i + 1]);
    }
  }
  for (std::size_t p = 0; p < n; ++p) REQUIRE(hands[p].size() == size[p]);
  return hands;
}

// The shuffle result (bottom to top) that deals these hands, one card at a time from seat 1.
Strings deck_for(const std::vector<Strings>& hands) {
  const std::size_t n = hands.size();
  std::vector<std::size_t> next(n, 0);
  Strings top_first;
  for (std::size_t i = 0; i < 51; ++i) {
    const std::size_t p = (1 + i) % n;
    top_first.push_back(hands[p][next[p]++]);
  }
  std::reverse(top_first.begin(), top_first.end());
  return top_first;
}

Game start_old_maid(const std::vector<Strings>& hands) {
  Game g;
  g.machine = rulebook::test::machine_for_file("rulesets/library/old-maid.rules");
  ri::GameConfig config;
  config.players = static_cast<std::int64_t>(hands.size());
  config.seed = 1;
  ri::ScriptedShuffles shuffles({deck_for(hands)});
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

int to_move(const Game& g) {
  REQUIRE(g.state.decision);
  return g.state.decision->player;
}

Ints winners(const Game& g) { return Ints(g.state.winners.begin(), g.state.winners.end()); }

// Three players; after the pairs are gone seat 0 holds 5C, 7C, 9C, 10C and QD, seat 1 holds
// 5D and seat 2 holds 7D, 9D and 10D.
std::vector<Strings> three_singles() { return deal_with({{"5C", "7C", "9C", "10C", "QD"}, {"5D"}, {"7D", "9D", "10D"}}, 3); }

}  // namespace

TEST_CASE("old maid: \"one of the four queens is removed, leaving a total of 51 cards\"", "[library][oldmaid]") {
  const Game g = start_old_maid(three_singles());
  CHECK(g.zone("aside") == Strings{"QC"});
  std::size_t in_play = g.zone("discards").size();
  for (int p = 0; p < 3; ++p) in_play += g.zone("hand", p).size();
  CHECK(in_play == 51);
}

TEST_CASE("old maid: \"deals them around, one at a time to each player, as far as they will go. The cards need not come "
          "out even\"",
          "[library][oldmaid]") {
  // One card of each rank per seat: no pairs, so the hands stay as dealt.
  Strings clubs;
  Strings diamonds;
  Strings hearts;
  Strings spades;
  for (const std::string& r : kRanks) {
    if (r != "Q") clubs.push_back(r + "C");
    diamonds.push_back(r + "D");
    hearts.push_back(r + "H");
    spades.push_back(r + "S");
  }
  const Game g = start_old_maid({clubs, diamonds, hearts, spades});
  CHECK(g.zone("hand", 0).size() == 12);  // the dealer gets the last card round
  for (int p = 1; p < 4; ++p) CHECK(g.zone("hand", p).size() == 13);
  CHECK(g.zone("discards").empty());
}

TEST_CASE("old maid: \"Each player removes all pairs from his hand face down\"; four of a kind are two pairs",
          "[library][oldmaid]") {
  const Game g = start_old_maid(three_singles());
  CHECK(g.zone("hand", 0) == Strings{"5C", "7C", "9C", "10C", "QD"});
  CHECK(g.zone("hand", 1) == Strings{"5D"});
  CHECK(g.zone("hand", 2) == Strings{"7D", "9D", "10D"});
  CHECK(g.zone("discards").size() == 42);
  for (const std::string& c : g.zone("discards")) {
    CHECK(g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, c))] == 0);
  }
}

TEST_CASE("old maid: \"If a player has three of a kind, he removes only two of those three cards\"", "[library][oldmaid]") {
  const Game g = start_old_maid(deal_with({{"9C", "9D", "9H", "QD", "5C"}, {"9S", "QH", "5D"}, {"QS"}}, 3));
  // interpretation: the two lowest in card order go.
  CHECK(g.zone("hand", 0) == Strings{"5C", "QD", "9H"});
  CHECK(g.zone("hand", 1) == Strings{"5D", "QH", "9S"});
}

TEST_CASE("old maid: \"The dealer then offers his hand, spread out face down, to the player on his left, who draws one "
          "card from it\"",
          "[library][oldmaid]") {
  const Game g = start_old_maid(three_singles());
  CHECK(to_move(g) == 1);
  CHECK(g.legal() == Strings{"5C", "7C", "9C", "10C", "QD"});
  // The hand is the dealer's own: the drawer sees none of its faces.
  const ri::View view = g.machine->view(g.state, 1);
  const auto hand = std::find_if(view.zones.begin(), view.zones.end(),
                                 [](const ri::ZoneView& z) { return z.name.find("hand") == 0 && z.cards.size() == 5; });
  REQUIRE(hand != view.zones.end());
  for (const auto& c : hand->cards) CHECK_FALSE(c.has_value());
}

TEST_CASE("old maid: \"This player discards any pair that may have been formed by the drawn card\"", "[library][oldmaid]") {
  Game g = start_old_maid(three_singles());
  g.choose("5C");
  CHECK(g.zone("hand", 1).empty());
  CHECK(g.zone("hand", 0) == Strings{"7C", "9C", "10C", "QD"});
  CHECK(g.zone("discards").size() == 44);
}

TEST_CASE("old maid: \"He then offers his own hand to the player on his left\"", "[library][oldmaid]") {
  Game g = start_old_maid(three_singles());
  g.choose("7C");  // no pair for seat 1
  CHECK(g.zone("hand", 1) == Strings{"7C", "5D"});
  CHECK(to_move(g) == 2);
  CHECK(g.legal() == Strings{"7C", "5D"});
}

TEST_CASE("old maid: interpretation: a player with no cards is out; the next player on the left still in offers",
          "[library][oldmaid]") {
  Game g = start_old_maid(three_singles());
  g.choose("5C");  // seat 1 pairs its only card and is out
  // Seat 1 would offer next; seat 2 offers instead, to seat 0 on its left.
  CHECK(to_move(g) == 0);
  CHECK(g.legal() == Strings{"7D", "9D", "10D"});
  g.choose("7D");
  // Seat 0 offers; seat 1 on its left is out, so seat 2 draws.
  CHECK(to_move(g) == 2);
  CHECK(g.legal() == Strings{"9C", "10C", "QD"});
}

TEST_CASE("old maid: \"the player who has that card is the Old Maid\"; interpretation: everyone else wins",
          "[library][oldmaid]") {
  Game g = start_old_maid(three_singles());
  for (const char* c : {"5C", "7D", "9C", "10D"}) g.choose(c);
  REQUIRE(g.state.finished);
  CHECK(g.zone("hand", 0) == Strings{"QD"});
  CHECK(winners(g) == Ints{1, 2});
}

TEST_CASE("old maid: a dealer dealt only pairs is out before the first draw", "[library][oldmaid]") {
  // Four players: the dealer gets 12 cards, all in pairs, and the player on its left offers.
  const Game g = start_old_maid(deal_with({{}, {"QD"}, {"5C"}, {"5D"}}, 4));
  CHECK(g.zone("hand", 0).empty());
  CHECK(to_move(g) == 2);
  CHECK(g.legal() == Strings{"QD"});
}
