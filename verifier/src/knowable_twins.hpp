// Refuting knowable-moves with two games. A player's options must depend only on what the
// player can see; two real games in which a chooser has seen exactly the same and has
// different options show that they do not. The twin of a sampled game is the same game with
// two cards of one shuffle traded (nobody sees a shuffle's order), played with the same moves
// (by what they say: `play 7H`) and the same random draws.
//
// What a player has seen, in both games: after every event (a deal, a move, a flip, a
// shuffle, a round's start and end, a swap of seats) and at every decision, its view (the
// cards it may know and the facing of every card, the number of cards in every zone, the
// seats, the round, who decides and by which rule), every score (shown at the table), and
// every move and random draw anyone made, as text. That is at least what it sees at the table (moves and draws are more), so
// two games it cannot tell apart by it are games it cannot tell apart at the table. Variables
// are not part of it: the language keeps no variable on the table (knowable.cpp reads a
// variable written from hidden cards as hidden for the same reason).
#pragma once

#include <optional>
#include <string>

#include "context.hpp"

namespace rulebook::verifier {

struct KnowableConflict {
  Counterexample game;  // the sampled game, up to the decision
  Counterexample twin;  // its twin, up to the same decision
  std::string message;  // who decides where, and the two sets of options
};

// Looks for a conflict in the first `games` sampled games (their seeds), trying the twins
// of each shuffle within `seconds`. Found conflicts are checked once more on the exact texts
// of what the chooser saw (the search compares hashes), so a conflict returned is real.
std::optional<KnowableConflict> find_knowable_conflict(const Context& ctx, std::int64_t games, double seconds);

}  // namespace rulebook::verifier
