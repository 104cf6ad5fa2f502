// The fuzz targets' bodies: one input through one reader. They abort() when an oracle fails
// (a formatted file that does not parse back the same, a card lost by a move); everything
// else a hostile input does must end in a diagnostic. The libFuzzer mains in this folder call
// them, and so does the regression test that replays every saved input.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rulebook::fuzz {

// A rule file: parse, format (the result must parse, and format to itself), check, lower,
// and play a few moves of a game with the fewest players.
void rules_one(const std::uint8_t* data, std::size_t size);
// A game log, replayed against each shipped ruleset.
void replay_one(const std::uint8_t* data, std::size_t size);
// A game of a shipped ruleset: the bytes pick the ruleset, the players, the seed and then
// each move; every card is somewhere after every move.
void apply_one(const std::uint8_t* data, std::size_t size);

}  // namespace rulebook::fuzz
