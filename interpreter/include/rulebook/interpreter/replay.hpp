// Replay: a game log (recorded by the tool or written by hand) re-run through a ruleset
// without the random number generator, every step checked. Shuffles come from the log;
// deals, rounds, automated decisions and the end are compared with what the rules do.
// See docs/log-format.md for the format and how to write a log by hand.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rulebook/grammar/diagnostic.hpp"
#include "rulebook/grammar/source.hpp"
#include "rulebook/interpreter/machine.hpp"

namespace rulebook::interpreter {

struct ReplayOptions {
  // Option values that override (or add to) the ones the log's header records.
  std::map<std::string, std::string> options;
  bool strict = false;   // a log written for other rule files (hash) is an error, not a warning
  bool partial = false;  // a log may stop before the game ends (a game in progress)
  bool trace = false;    // keep every step in the result
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
};

// Replays the log `log_file` of `sources` against `machine`. Never throws for bad input:
// everything wrong with the log is in the result.
ReplayResult replay(const Machine& machine, const grammar::SourceManager& sources, grammar::FileId log_file,
                    const ReplayOptions& options);

}  // namespace rulebook::interpreter
