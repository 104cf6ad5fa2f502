#include "rulesets/molestation_fixture.hpp"

#include <algorithm>
#include <set>

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace rulebook::test {

namespace ri = rulebook::interpreter;

namespace {

std::vector<std::string> all_of(const std::vector<std::string>& ranks) {
  std::vector<std::string> out;
  for (const char* suit : {"C", "D", "H", "S"}) {
    for (const std::string& r : ranks) out.push_back(r + suit);
  }
  return out;
}

// `top_first` followed by the unused cards of `pool`, returned bottom to top.
std::vector<std::string> complete(std::vector<std::string> top_first, const std::vector<std::string>& pool) {
  std::set<std::string> used;
  for (const std::string& c : top_first) {
    INFO("card " << c);
    REQUIRE(std::find(pool.begin(), pool.end(), c) != pool.end());
    REQUIRE(used.insert(c).second);
  }
  for (const std::string& c : pool) {
    if (used.count(c) == 0) top_first.push_back(c);
  }
  std::reverse(top_first.begin(), top_first.end());
  return top_first;
}

bool automated_seat(int seat, int players) {
  // Seat order after setup: 2 players sit in seats 0 and 2 (the dummies opposite each
  // other in seats 1 and 3); 3 players in seats 0 to 2.
  if (players == 2) return seat == 1 || seat == 3;
  return seat >= players;
}

}  // namespace

std::vector<std::vector<std::string>> molestation_shuffles(const MolestationDeal& deal, int players) {
  std::vector<std::string> social;
  for (const int seat : {1, 2, 3, 0}) {
    const auto& hand = deal.hands[static_cast<std::size_t>(seat)];
    if (automated_seat(seat, players)) {
      REQUIRE(hand.size() == 9);
      social.insert(social.end(), hand.rbegin(), hand.rend());  // the first dealt ends at the bottom
    } else {
      REQUIRE(hand.size() == 3);
      social.insert(social.end(), hand.begin(), hand.end());
    }
  }
  social.insert(social.end(), deal.draws.begin(), deal.draws.end());
  std::vector<std::string> roles;
  for (const int seat : {1, 2, 3, 0}) roles.push_back(deal.roles[static_cast<std::size_t>(seat)]);
  roles.insert(roles.end(), deal.next_roles.begin(), deal.next_roles.end());
  std::vector<std::string> role_pool = all_of({"J", "Q", "K", "A"});
  role_pool.push_back("JK2");
  return {complete(social, all_of({"2", "3", "4", "5", "6", "7", "8", "9", "10"})), complete(roles, role_pool)};
}

Game start_molestation(const MolestationDeal& deal, int players, const std::string& ruleset) {
  Game g;
  g.machine = machine_for_file(ruleset);
  ri::GameConfig config;
  config.players = players;
  config.seed = 1;
  ri::ScriptedShuffles shuffles(molestation_shuffles(deal, players));
  g.state = g.machine->start(config, &shuffles);
  if (g.state.fault) FAIL("fault: " << g.state.fault->message);
  return g;
}

void chat(Game& game, const std::vector<std::string>& cards) {
  for (const std::string& card : cards) {
    REQUIRE(game.state.decision);
    INFO("playing " << card);
    REQUIRE(game.machine->ir().labels[static_cast<std::size_t>(game.state.decision->rule)] == "talk_dirty");
    game.choose(card);
  }
}

int seat_to_move(const Game& game) {
  REQUIRE(game.state.decision);
  return game.state.seat_of[static_cast<std::size_t>(game.state.decision->player)];
}

int at_seat(const Game& game, int seat) { return game.state.player_at[static_cast<std::size_t>(seat)]; }

}  // namespace rulebook::test
