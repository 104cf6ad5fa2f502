// Old Maid (rulesets/library/old-maid.rules) scenarios: each test deals explicit hands and
// scripts the blind draws (random choices, so no seed decides anything but in the tests of the
// generator's draw) and checks what Bicycle's rule text demands. Test names quote the rule text.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"
#include "rulebook/interpreter/rational.hpp"

using rulebook::test::Game;
using Strings = std::vector<std::string>;
using Ints = std::vector<int>;
namespace ri = rulebook::interpreter;

namespace rulesets_library_oldmaid_test {  // this file's own names (unity builds put several files in one)
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

// Fixes the deal (the first shuffle) and the blind draws (`rule draw: choose c in hand(giver)
// at random`), each by the drawn card's name, in order; at the first draw past the script the
// game stops, before that draw, with its options kept (the giver's hand). No player decides
// anything in Old Maid, so a scenario is a deal and a list of draws.
class ScriptedDraws : public ri::ScriptedShuffles {
 public:
  ScriptedDraws(const ri::Machine& machine, Strings deck, Strings draws)
      : ScriptedShuffles({std::move(deck)}), machine_(machine), draws_(std::move(draws)) {}

  [[nodiscard]] ri::SinkVerdict verdict() const override {
    return stopped_ ? ri::SinkVerdict::kStop : ri::SinkVerdict::kContinue;
  }

  bool draw_result(const ri::State& state, std::int32_t rule, const std::vector<ri::Value>& options,
                   std::size_t& index) override {
    rules.push_back(rule >= 0 ? machine_.ir().labels[static_cast<std::size_t>(rule)] : "");
    Strings texts;
    for (const ri::Value& v : options) texts.push_back(machine_.value_text(state, v));
    if (next_ == draws_.size()) {
      pending = texts;
      stopped_ = true;
      return false;
    }
    const auto it = std::find(texts.begin(), texts.end(), draws_[next_]);
    if (it == texts.end()) {
      not_drawable = draws_[next_];
      pending = texts;
      stopped_ = true;
      return false;
    }
    ++next_;
    index = static_cast<std::size_t>(it - texts.begin());
    return true;
  }

  Strings pending;       // the options of the draw the game stopped before
  Strings rules;         // the label of every draw asked for
  std::string not_drawable;  // a scripted card that was not in the hand drawn from

 private:
  const ri::Machine& machine_;
  Strings draws_;
  std::size_t next_ = 0;
  bool stopped_ = false;
};

struct Played {
  Game game;
  Strings pending;  // the cards the next draw would take from (empty when the game is over)
};

// A game of these hands (as dealt) with these draws; it stops before the next draw, if any.
Played play_old_maid(const std::vector<Strings>& hands, const Strings& draws = {}) {
  Played out;
  Game& g = out.game;
  g.machine = rulebook::test::machine_for_file("rulesets/library/old-maid.rules");
  ri::GameConfig config;
  config.players = static_cast<std::int64_t>(hands.size());
  config.seed = 1;
  ScriptedDraws sink(*g.machine, deck_for(hands), draws);
  g.state = g.machine->start(config, &sink);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  INFO("the hand drawn from: " << fmt::format("{}", fmt::join(sink.pending, " ")));
  if (!sink.not_drawable.empty()) FAIL("cannot draw " << sink.not_drawable);
  for (const std::string& r : sink.rules) CHECK(r == "draw");
  // Nobody decides anything: the game waits for no player.
  CHECK_FALSE(g.state.decision);
  out.pending = sink.pending;
  return out;
}

Ints winners(const Game& g) { return Ints(g.state.winners.begin(), g.state.winners.end()); }

// The payoff `stake` per player, as written in logs (`-1`, `1/2`).
Strings stakes(const Game& g) {
  REQUIRE(g.state.payoffs.size() == 1);
  Strings out;
  for (const ri::Rational& r : g.state.payoffs[0]) out.push_back(ri::to_string(r));
  return out;
}

// Three players; after the pairs are gone seat 0 holds 5C, 7C, 9C, 10C and QD, seat 1 holds
// 5D and seat 2 holds 7D, 9D and 10D.
std::vector<Strings> three_singles() { return deal_with({{"5C", "7C", "9C", "10C", "QD"}, {"5D"}, {"7D", "9D", "10D"}}, 3); }

}  // namespace

TEST_CASE("old maid: \"one of the four queens is removed, leaving a total of 51 cards\"", "[library][oldmaid]") {
  const Game g = play_old_maid(three_singles()).game;
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
  const Game g = play_old_maid({clubs, diamonds, hearts, spades}).game;
  CHECK(g.zone("hand", 0).size() == 12);  // the dealer gets the last card round
  for (int p = 1; p < 4; ++p) CHECK(g.zone("hand", p).size() == 13);
  CHECK(g.zone("discards").empty());
}

TEST_CASE("old maid: \"Each player removes all pairs from his hand face down\", four of a kind are two pairs",
          "[library][oldmaid]") {
  const Game g = play_old_maid(three_singles()).game;
  CHECK(g.zone("hand", 0) == Strings{"5C", "7C", "9C", "10C", "QD"});
  CHECK(g.zone("hand", 1) == Strings{"5D"});
  CHECK(g.zone("hand", 2) == Strings{"7D", "9D", "10D"});
  CHECK(g.zone("discards").size() == 42);
  for (const std::string& c : g.zone("discards")) {
    CHECK(g.state.card_face_up[static_cast<std::size_t>(g.machine->card_by_name(g.state, c))] == 0);
  }
}

TEST_CASE("old maid: \"If a player has three of a kind, he removes only two of those three cards\"", "[library][oldmaid]") {
  const Game g = play_old_maid(deal_with({{"9C", "9D", "9H", "QD", "5C"}, {"9S", "QH", "5D"}, {"QS"}}, 3)).game;
  // interpretation: the two lowest in card order go.
  CHECK(g.zone("hand", 0) == Strings{"5C", "QD", "9H"});
  CHECK(g.zone("hand", 1) == Strings{"5D", "QH", "9S"});
}

TEST_CASE("old maid: \"The dealer then offers his hand, spread out face down, to the player on his left, who draws one "
          "card from it\"",
          "[library][oldmaid]") {
  const Played before = play_old_maid(three_singles());
  // The first draw takes from the dealer's hand.
  CHECK(before.game.var("giver") == "player 0");
  CHECK(before.pending == Strings{"5C", "7C", "9C", "10C", "QD"});
  // The hand is the dealer's own: the drawer on its left sees none of its faces.
  const ri::View view = before.game.machine->view(before.game.state, 1);
  const auto hand = std::find_if(view.zones.begin(), view.zones.end(),
                                 [](const ri::ZoneView& z) { return z.name.find("hand") == 0 && z.cards.size() == 5; });
  REQUIRE(hand != view.zones.end());
  for (const auto& c : hand->cards) CHECK_FALSE(c.has_value());
  // The card goes to the player on the dealer's left.
  const Game after = play_old_maid(three_singles(), {"7C"}).game;
  CHECK(after.zone("hand", 1) == Strings{"7C", "5D"});
  CHECK(after.zone("hand", 0) == Strings{"5C", "9C", "10C", "QD"});
}

TEST_CASE("old maid: \"This player discards any pair that may have been formed by the drawn card\"", "[library][oldmaid]") {
  const Game g = play_old_maid(three_singles(), {"5C"}).game;
  CHECK(g.zone("hand", 1).empty());
  CHECK(g.zone("hand", 0) == Strings{"7C", "9C", "10C", "QD"});
  CHECK(g.zone("discards").size() == 44);
}

TEST_CASE("old maid: \"He then offers his own hand to the player on his left\"", "[library][oldmaid]") {
  const Played p = play_old_maid(three_singles(), {"7C"});  // no pair for seat 1
  CHECK(p.game.var("giver") == "player 1");
  CHECK(p.pending == Strings{"7C", "5D"});
  const Game g = play_old_maid(three_singles(), {"7C", "5D"}).game;
  CHECK(g.zone("hand", 2) == Strings{"5D", "7D", "9D", "10D"});
}

TEST_CASE("old maid: interpretation: a player with no cards is out, the next player on the left still in offers",
          "[library][oldmaid]") {
  // Seat 1 pairs its only card and is out; seat 2 offers instead, to seat 0 on its left.
  const Played out = play_old_maid(three_singles(), {"5C"});
  CHECK(out.pending == Strings{"7D", "9D", "10D"});
  const Game drawn = play_old_maid(three_singles(), {"5C", "7D"}).game;
  CHECK(drawn.zone("hand", 0) == Strings{"9C", "10C", "QD"});  // 7D paired with 7C
  // Seat 0 offers; seat 1 on its left is out, so seat 2 draws.
  const Played next = play_old_maid(three_singles(), {"5C", "7D"});
  CHECK(next.game.var("giver") == "player 0");
  CHECK(next.pending == Strings{"9C", "10C", "QD"});
  const Game g = play_old_maid(three_singles(), {"5C", "7D", "9C"}).game;
  CHECK(g.zone("hand", 2) == Strings{"10D"});
}

TEST_CASE("old maid: \"the player who has that card is the Old Maid\", interpretation: everyone else wins, the Old Maid "
          "pays 1 and the others share it",
          "[library][oldmaid]") {
  const Played p = play_old_maid(three_singles(), {"5C", "7D", "9C", "10D"});
  const Game& g = p.game;
  REQUIRE(g.state.finished);
  CHECK(p.pending.empty());
  CHECK(g.zone("hand", 0) == Strings{"QD"});
  CHECK(winners(g) == Ints{1, 2});
  CHECK(stakes(g) == Strings{"-1", "1/2", "1/2"});
  CHECK(g.state.moves == 0);  // four draws, and not one decision
}

TEST_CASE("old maid: a dealer dealt only pairs is out before the first draw", "[library][oldmaid]") {
  // Four players: the dealer gets 12 cards, all in pairs, and the player on its left offers.
  const Played p = play_old_maid(deal_with({{}, {"QD"}, {"5C"}, {"5D"}}, 4));
  CHECK(p.game.zone("hand", 0).empty());
  CHECK(p.game.var("giver") == "player 1");
  CHECK(p.pending == Strings{"QD"});
  const Game g = play_old_maid(deal_with({{}, {"QD"}, {"5C"}, {"5D"}}, 4), {"QD"}).game;
  CHECK(g.zone("hand", 2) == Strings{"5C", "QD"});
}

TEST_CASE("old maid: interpretation: the blind draw is a random choice: every card of the hand offered can come out",
          "[library][oldmaid]") {
  // No draw scripted: the game's generator draws, seeded by the game's seed. Stopping before
  // the second draw shows which card the first took.
  const Strings offered{"5C", "7C", "9C", "10C", "QD"};
  std::map<std::string, int> first;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Game g;
    g.machine = rulebook::test::machine_for_file("rulesets/library/old-maid.rules");
    ri::GameConfig config;
    config.players = 3;
    config.seed = seed;
    // Only the first draw runs on the generator; the sink stops the game before the second.
    struct FirstDraw : ri::ScriptedShuffles {
      using ScriptedShuffles::ScriptedShuffles;
      int draws = 0;
      [[nodiscard]] ri::SinkVerdict verdict() const override {
        return draws > 1 ? ri::SinkVerdict::kStop : ri::SinkVerdict::kContinue;
      }
      bool draw_result(const ri::State&, std::int32_t, const std::vector<ri::Value>&, std::size_t&) override {
        ++draws;
        return false;
      }
    } sink({deck_for(three_singles())});
    g.state = g.machine->start(config, &sink);
    REQUIRE_FALSE(g.state.fault);
    REQUIRE(sink.draws == 2);
    const Strings left = g.zone("hand", 0);
    for (const std::string& c : offered) {
      if (!contains(left, c)) ++first[c];
    }
  }
  // Each of the five cards is drawn first in some game (about 40 in 200 each).
  CHECK(first.size() == 5);
  for (const auto& [card, n] : first) {
    INFO(card);
    CHECK(n >= 20);
  }
}

TEST_CASE("old maid: interpretation: four players without --players, the loser pays 1, the others share it", "[library][oldmaid]") {
  // A whole game on the generator, with the ruleset's default player count.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Game g;
    g.machine = rulebook::test::machine_for_file("rulesets/library/old-maid.rules");
    ri::GameConfig config;
    config.seed = seed;
    g.state = g.machine->start(config);
    REQUIRE_FALSE(g.state.fault);
    CHECK(g.state.num_players == 4);
    REQUIRE(g.state.finished);  // nobody decides: the game runs to its end at once
    CHECK(g.state.moves == 0);
    Strings expected;
    for (int p = 0; p < 4; ++p) expected.push_back(g.zone("hand", p).empty() ? "1/3" : "-1");
    CHECK(stakes(g) == expected);
    CHECK(std::count(expected.begin(), expected.end(), "-1") == 1);
  }
}

}  // namespace rulesets_library_oldmaid_test
