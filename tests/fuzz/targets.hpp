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
// The same, returning the instructions the game ran (0 when the file does not check).
std::int64_t rules_one_steps(const std::uint8_t* data, std::size_t size);

// Instructions the game of a checked rule file may run in all. A mutated file loops for ever
// as often as not, and the interpreter stops such a loop only after
// Machine::kMaxStepsBetweenDecisions instructions: 3.6 s in the release build, 33 s under the
// sanitizers and libFuzzer's coverage, past the fuzzer's 10-second limit for one input (the
// fuzz test failed so in CI). What a loop's first instructions reach, its later ones reach again.
inline constexpr std::int64_t kRulesGameSteps = 200'000;
// A game log, replayed against each shipped ruleset.
void replay_one(const std::uint8_t* data, std::size_t size);
// A game of a shipped ruleset: the bytes pick the ruleset, the players, the seed and then
// each move; every card is somewhere after every move.
void apply_one(const std::uint8_t* data, std::size_t size);

}  // namespace rulebook::fuzz
