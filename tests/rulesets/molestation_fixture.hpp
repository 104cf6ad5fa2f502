// Explicit deals for Molestation Game scenarios: which role each seat gets, the role deck
// after the deal, the hands, and the order of the draws. The deal is turned into the two
// shuffle results of the round's setup (social deck, then the role cards above the bottom
// joker), so that the ruleset's own setup rules deal it.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "interpreter/game_fixture.hpp"

namespace rulebook::test {

struct MolestationDeal {
  // The role dealt to each seat (seat 0 is the first dealer; roles are dealt from seat 1).
  std::array<std::string, 4> roles;
  // The role deck from the top after the deal: the first is the next available role. The
  // rest of the 17 shuffled role cards follow in an arbitrary order; JK1 is at the bottom.
  std::vector<std::string> next_roles;
  // Each seat's hand: 3 cards for a human; for an air dummy, its 9 cards in the order it
  // will play them.
  std::array<std::vector<std::string>, 4> hands;
  // The social deck from the top after the deal: the cards drawn, in order.
  std::vector<std::string> draws;
};

// Starts a game (round 1, dealer seat 0) with this deal.
Game start_molestation(const MolestationDeal& deal, int players = 4,
                       const std::string& ruleset = "rulesets/molestation-game.rules");

// The card names of the shuffles that produce `deal` (exposed for tests of the fixture).
std::vector<std::vector<std::string>> molestation_shuffles(const MolestationDeal& deal, int players);

// Plays the chat: the players to move choose these cards, in order (dummies play by
// themselves). Fails the test if a card is not a legal move.
void chat(Game& game, const std::vector<std::string>& cards);

// The player whose decision is pending, by seat.
int seat_to_move(const Game& game);

// The player (identity) at a seat.
int at_seat(const Game& game, int seat);

}  // namespace rulebook::test
