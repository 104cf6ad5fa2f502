// Replay: a game log (recorded by the tool or written by hand) re-run through a ruleset
// without the random number generator, every step checked. Shuffles come from the log;
// deals, rounds, automated decisions and the end are compared with what the rules do.
// See docs/log-format.md for the format and how to write a log by hand.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

struct ReplayResult;

struct ReplayOptions {
  // Option values that override (or add to) the ones the log's header records.
  std::map<std::string, std::string> options;
  bool strict = false;   // a log written for other rule files (hash) is an error, not a warning
  bool partial = false;  // a log may stop before the game ends (a game in progress)
  bool trace = false;    // keep every step in the result
  bool round_scores = false;  // keep the scores at the end of every round (ReplayResult::round_ends)
  // Keep copies of the state for `--show-state`: at every decision the rules wait for (and
  // at the end), or at the end of every round.
  enum class Snapshots { kNone, kStep, kRound };
  Snapshots snapshots = Snapshots::kNone;
  // Called before each step is recorded (`next_step`: its number), with the result so far:
  // every step, round end and snapshot of a smaller number is in it, complete. The caller may
  // print them and take them out, so that a long log's trace and states are not all kept in
  // memory (`replay --trace`, `--show-state`).
  std::function<void(ReplayResult& so_far, std::int64_t next_step)> drain;
};

enum class ReplayOutcome {
  kOk,       // every step legal, and the log agrees with the rules to its end
  kIllegal,  // a step the rules do not allow, or a result the rules do not give
  kFault,    // the rules stopped with a rule fault (whether or not the log records it)
  kBadLog,   // the log itself is malformed or contradicts itself: bad input
};

// One decision of the log, for --trace.
struct ReplayStep {
  std::int64_t step = 0;         // 1-based count of decisions
  std::uint32_t line = 0;        // line of the log
  std::string player;            // by name when the log names seats, else the number
  std::string choice;            // in log notation (`7H`, `Ann`, `[1,3]`)
  std::string rule;              // label of the rule that asked, or "" when unlabelled
  std::string at;                // file:line of the choice in the rules
  bool by_policy = false;        // an automated seat's decision
  // Who could not see the choice when it was made, for a trace shown as one player sees the
  // game: bit p for player p when the choice holds a card p could not see, bit 63 for the
  // table; `secret` when it was made inside `simultaneous` (the others learn it later).
  std::uint64_t unseen_by = 0;
  bool secret = false;
};

// The end of a round: the scores as it left them, before the next round's reset.
struct RoundEnd {
  std::int64_t round = 0;
  std::int64_t after_step = 0;   // the steps taken when it ended
  bool game_ended = false;       // the last round: the game ended with it
  std::vector<std::vector<ScoreValue>> scores;  // by declared score, then by player
};

// The state at a point of the replay (ReplayOptions::snapshots).
struct ReplaySnapshot {
  std::int64_t after_step = 0;   // the steps taken; 0: before the first
  bool round_end = false;        // taken at the end of round `state.rounds`
  State state;
};

struct ReplayResult {
  ReplayOutcome outcome = ReplayOutcome::kOk;
  // Warnings, and the one problem that stopped the replay (an error) with its notes: the
  // rule's source line, the legal moves. Spans point into the log and the rule files.
  grammar::Diagnostics diagnostics;
  std::int64_t steps = 0;        // decisions checked (moves and automated decisions)
  bool ended = false;            // the game ended by its rules
  std::optional<std::string> stopped;  // the log says the game was stopped from outside (why)
  std::vector<std::string> seat_names;  // per player identity: its name in the log, or `player 2`
  std::optional<State> final_state;     // where the replay stopped (absent if the game never started)
  // A log that stops before the game ends (--partial): what the rules wait for next, and
  // the legal choices when that is a move (log notation).
  std::string waiting;
  std::string waiting_player;
  std::string waiting_rule;
  std::vector<std::string> waiting_legal;
  std::vector<ReplayStep> trace;
  std::vector<RoundEnd> round_ends;        // with ReplayOptions::round_scores
  std::vector<ReplaySnapshot> snapshots;   // with ReplayOptions::snapshots, in order
};

// Replays the log `log_file` of `sources` against `machine`. Never throws for bad input:
// everything wrong with the log is in the result.
ReplayResult replay(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
                    const ReplayOptions& options);

}  // namespace rulebook::interpreter
