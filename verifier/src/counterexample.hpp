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
// of it when negative), then the decisions `then` (indexes into the legal moves).
Counterexample replay_game(const ri::Machine& machine, const ri::GameConfig& config, std::int64_t random_moves,
                           const std::vector<std::size_t>& then, const Layout& layout, const CardClasses& classes,
                           std::string violation);

}  // namespace rulebook::verifier
