// What `replay --trace` and `--show-state` print between the steps: the scores at the end of
// every round and the table view (interpreter/table_view.hpp) after steps or rounds, as one
// player or the table sees it; and the same as JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rulebook/logs/replay.hpp"
#include "rulebook/logs/table_view.hpp"

namespace rulebook::cli {

// `--as`: `table`, a player's name in the log, or a player's number. Nothing (and `error`
// set) when the log has no such player.
std::optional<interpreter::PlayerId> viewer_named(const std::string& as, const std::vector<std::string>& names,
                                                  std::string& error);

// A step's choice as `viewer` saw it, where states are shown (without a viewer, the log's).
std::string choice_seen_as(const interpreter::ReplayResult& result, const interpreter::ReplayStep& step,
                           std::optional<interpreter::PlayerId> viewer);

// A step's choice as `viewer` saw it when it was made: a card it could not see and a choice
// made in secret by another player are hidden. Without a viewer (no --show-state), the log's.
std::string choice_seen(const interpreter::ReplayResult& result, const interpreter::ReplayStep& step,
                        std::optional<interpreter::PlayerId> viewer);

// Prints the steps (with --trace), each round's end with its scores, and the states kept, in
// the order they happened: while the replay goes (ReplayOptions::drain) and at its end. What
// is printed is taken out of the result, so that the output of a long log is not all held in
// memory (a 137 MB log's states took 3.9 GB). `as`: who sees the states (`--as`), resolved
// against the log's players once its header is read.
class TracePrinter {
 public:
  TracePrinter(const interpreter::Machine& machine, std::string path, std::string as, bool states)
      : machine_(machine), path_(std::move(path)), as_(std::move(as)), states_(states) {}
  // Thrown out of drain and finish when `--as` names no player of the log (said on stderr):
  // the caller stops that log there and prints nothing more of it (it went on to print the
  // replay without the states asked for: the eighth probe).
  struct ViewerRefused {};
  void drain(interpreter::ReplayResult& result, std::int64_t next_step);
  void finish(interpreter::ReplayResult& result);
  // Finds the viewer `--as` names once the log's header is read; throws ViewerRefused.
  void resolve_viewer(const interpreter::ReplayResult& result);

 private:
  bool started(interpreter::ReplayResult& result);
  void flush(interpreter::ReplayResult& result, std::int64_t steps);
  void print_steps(interpreter::ReplayResult& result, std::int64_t before);

  const interpreter::Machine& machine_;
  std::string path_;
  std::string as_;
  bool states_;
  bool resolved_ = false;  // the viewer is known (or failed)
  bool started_ = false;   // output has begun (after the legend, when there are states)
  bool flushed_zero_ = false;
  interpreter::PlayerId viewer_ = interpreter::kTableViewer;
};

// `{"round": 1, "after_step": 23, "game_ended": false, "scores": {"score_cards": [0, 1]}}` per round.
// One score's seats for JSON: a number each, or {"fault": MESSAGE} where its expression faults.
nlohmann::json score_json(const std::vector<interpreter::ScoreValue>& seats);

// One round's end and one kept state, as JSON (`replay --format json`, replay_json.hpp).
nlohmann::json round_end_json(const interpreter::Machine& machine, const interpreter::RoundEnd& end);
// The state as `viewer` sees it: hidden cards are null, counts are kept.
nlohmann::json snapshot_json(const interpreter::Machine& machine, const interpreter::ReplaySnapshot& snapshot,
                             const std::vector<std::string>& names, interpreter::PlayerId viewer);

}  // namespace rulebook::cli
