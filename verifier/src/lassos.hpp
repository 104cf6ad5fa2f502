// Loops of the program and concrete evidence that one need not end: a lasso (moves after
// which the game is in exactly the state it was in before them, so they can repeat
// forever), or a game the interpreter stopped for running without a decision. Every piece
// of evidence is a game the interpreter replays; termination.cpp decides what it refutes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "context.hpp"
#include "counterexample.hpp"

namespace rulebook::verifier {

struct Loop {
  std::int32_t head = 0;  // the test at the top
  std::int32_t back = 0;  // the jump back
  std::int32_t label = -1;
  bool game = false;      // the round loop
};

// Every backward jump of the program, with the test it goes back to.
std::vector<Loop> find_loops(const ir::Ir& ir);

inline bool inside(const Loop& loop, std::int32_t pc) { return pc >= loop.head && pc <= loop.back; }

// The states the depth-first lasso search from a sampled game may visit, and its depth.
inline constexpr std::int64_t kLassoNodes = 200000;
std::int64_t lasso_depth(const Context& ctx);

// From the first decision inside `loop` of a sampled game, a depth-first search for moves
// that lead back to exactly that state, staying inside the loop.
std::optional<Counterexample> sampled_lasso(const Context& ctx, const Loop& loop);

// A lasso of the exhaustive search (ctx.search) that stays inside the loop (for the round
// loop: any), made exact.
std::optional<Counterexample> search_lasso(const Context& ctx, const Loop& loop);

// A game of the random agent, with chance fixed (chance_lassos.cpp), that comes back inside
// `loop` to a state it was in, card by card, shuffles and random draws on the way; the log
// records their outcomes, so the cycle replays.
std::optional<Counterexample> chance_lasso(const Context& ctx, const Loop& loop);

// A game (sampled, or found by the search) that the interpreter stopped for running
// 50,000,000 instructions without a decision: its fault message and its log.
std::optional<std::pair<std::string, Counterexample>> looped_game(const Context& ctx);

}  // namespace rulebook::verifier
