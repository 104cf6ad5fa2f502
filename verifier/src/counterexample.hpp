// Counterexamples as games: a game is played again (the same seed, the same random agent,
// then, for a lasso, the given moves) with a log writer and a recorder of what each move
// changed in the abstract state, so that the log replays and the table explains it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "layout.hpp"
#include "rulebook/interpreter/machine.hpp"
#include "rulebook/verifier/verify.hpp"

namespace rulebook::verifier {

// Plays the game with `config.seed` by the random agent for `random_moves` decisions (all
// of it when negative), then the decisions `then` (indexes into the legal moves); the random
// choices after `then[m]` draw `then_draws[m]` when given (the search's draws), else the seed's.
Counterexample replay_game(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t random_moves,
                           const std::vector<std::size_t>& then, const Layout& layout, const CardClasses& classes,
                           std::string violation, const std::vector<std::vector<std::size_t>>& then_draws = {});

}  // namespace rulebook::verifier
