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

// Plays the decisions `moves` (indexes into the legal moves) from the start; the random
// choices before the first decision draw `draws[0]`, those after move m `draws[m + 1]`, and
// the shuffles put the cards in the orders `shuffles` (bottom to top, in the order the game
// shuffles; past the list, the seed's). For two games that differ only where nobody looks.
Counterexample replay_moves(const ri::Machine& machine, const ri::GameConfig& config,
                            const std::vector<std::size_t>& moves, const std::vector<std::vector<std::size_t>>& draws,
                            const std::vector<std::vector<ri::CardId>>& shuffles, const Layout& layout,
                            const CardClasses& classes, std::string violation);

}  // namespace rulebook::verifier
