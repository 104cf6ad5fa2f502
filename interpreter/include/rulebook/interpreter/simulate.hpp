// Playing whole games with agents, one at a time or many in parallel, with the same results
// for any number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

struct GameResult {
  std::uint64_t seed = 0;
  std::vector<PlayerId> winners;
  std::int64_t rounds = 0;
  std::int64_t moves = 0;
  bool capped = false;                 // stopped at the move cap
  std::optional<Fault> fault;
  std::string fault_state;             // with a fault: a summary of the state it stopped in
  std::vector<std::uint32_t> reached;  // per rule label: how often it started
  std::vector<std::uint32_t> fired;    // per rule label: how often it started and then acted
  std::vector<std::vector<std::int64_t>> scores;
  std::vector<std::vector<Rational>> payoffs;  // by payoff, then player; a game that ended by its rules
  std::vector<bool> automated;         // per player at the start
};

// The seed of game `index` of a run seeded with `seed`: SplitMix64 of key + index, where the key
// is SplitMix64 of seed. Runs with different seeds share no games (but by a 64-bit coincidence).
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

// The seed of the random agent of a game: its choices never disturb the game's generator.
inline std::uint64_t agent_seed(std::uint64_t game_seed) { return game_seed ^ 0x5eed0a9e47ULL; }

// Plays one game with random agents (each seeded from the game's seed) up to `max_moves`
// decisions. `sink` (optional) receives the game's events.
GameResult play_random_game(const Machine& machine, const GameConfig& config, std::int64_t max_moves,
                            EventSink* sink = nullptr);

// Plays `games` games on `jobs` threads; results are in game order. `progress` (optional)
// is called from the calling thread with the number of games done. Stops early after the
// first game with a rule fault (the results end with it), or when `cancel` (optional) is
// set: no game starts after that, the games under way finish, and the results are the games
// 0 to N-1 that started. The games are numbered from `first` (their seeds follow the
// number), so that a long run can be played in batches with the same results.
std::vector<GameResult> simulate(const Machine& machine, const GameConfig& config, std::int64_t games,
                                 std::int64_t max_moves, int jobs,
                                 const std::function<void(std::int64_t)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr, std::int64_t first = 0);

}  // namespace rulebook::interpreter
