// Ground truth by exhaustive play: every decision, every random draw and every shuffle order
// of a small game, played by the interpreter alone (nothing of the verifier is used), with the
// facts each property is about. Where the exploration is complete the facts are the truth;
// where it is not (a budget ran out), what it found still happened in a real game.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rulebook/interpreter/machine.hpp"

namespace rulebook::differential {

struct ExploreLimits {
  std::int64_t max_states = 20000;          // distinct states (decisions and ends)
  std::int64_t max_runs_per_move = 4096;    // combinations of draws and shuffle orders of one move
  std::int64_t max_chance_events = 24;      // draws and shuffles within one move
  std::int64_t max_shuffled_cards = 5;      // a shuffle of more cards is tried in one order only
  std::int64_t steps_without_decision = 300000;  // then the move is played once without it
  double seconds = 20;
  // The walk for knowable moves follows every game without merging states: at most this many
  // decisions, this many moves deep.
  std::int64_t max_observed_nodes = 20000;
  std::int32_t max_observed_depth = 8;
};

// A fault some game reaches, and the moves (with draws) that lead there, as text.
struct SeenFault {
  interpreter::FaultKind kind{};
  std::string property;  // of ir::kFaultKinds
  std::string message;
  std::string where;     // file:line
};

struct Truth {
  bool complete = false;
  std::string incomplete;  // why not, when not
  std::int64_t states = 0;
  std::int64_t runs = 0;   // moves played (each combination of chance counts once)
  std::vector<SeenFault> faults;           // one per fault kind and place
  std::vector<bool> fired;                 // by rule label: it fired in some game
  std::vector<bool> won;                   // by player: it is among the winners of some game
  std::vector<bool> invariant_broken;      // by declared invariant: false where the game waits or at its end
  bool game_cycle = false;                 // a reachable state can come back: a game need not end
  bool round_cycle = false;                // ... without a round starting: a loop of a round need not end
  bool endless_loop = false;               // the interpreter stopped a game for running without a decision
  bool endless_in_round = false;           // ... inside one round (not by rounds without decisions)
  // The loops (file:line of their head) that can go round for ever within a round: the
  // innermost loop holding a cycle of decisions, the loop an endless-loop fault names.
  std::vector<std::string> looping;
  bool long_moves = false;                 // some move ran past ExploreLimits::steps_without_decision
  // Two games that a chooser cannot tell apart (the same views, moves and draws so far), in
  // which its options differ: its moves are not knowable. Found by a bounded walk, so false
  // proves nothing.
  bool knowable_conflict = false;
  std::string knowable_example;
  [[nodiscard]] bool has_fault_of(const std::string& property) const;
};

Truth explore(const interpreter::Machine& machine, const interpreter::GameConfig& config, const ExploreLimits& limits = {});

}  // namespace rulebook::differential
