// `replay --format json` for long logs: the trace, the round scores and the states of a log
// are serialized as the replay goes (ReplayOptions::drain) into text, and spliced into the
// log's report at its end, where the report's other members are known. Holding them as JSON
// values took ten to thirty times the log (a 574 MB log ran out of 4 GB, and nlohmann's
// destructor, allocating as it freed, then aborted the process); text takes about the size of
// the output. The output is the same, byte for byte, as a dump of the whole document.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "rulebook/logs/replay.hpp"

namespace rulebook::cli {

class JsonReplayReport {
 public:
  JsonReplayReport(const interpreter::Machine& machine, std::string path, std::string as, bool states)
      : machine_(machine), path_(std::move(path)), as_(std::move(as)), states_(states) {}
  void drain(interpreter::ReplayResult& result, std::int64_t next_step);
  // The viewer of the states once the log's players are known; nothing for none (or a bad --as).
  [[nodiscard]] std::optional<interpreter::PlayerId> viewer() const { return viewer_; }
  [[nodiscard]] bool viewer_failed() const { return viewer_failed_; }
  // Prints `before`, then the log's report: `report` with the kept arrays spliced in, as it
  // stands in the `logs` array of the output (indented by 4). `report` has none of `trace`,
  // `round_scores`, `states`.
  void finish(interpreter::ReplayResult& result, nlohmann::json report, const std::string& before);

 private:
  bool ready(interpreter::ReplayResult& result);
  void take(interpreter::ReplayResult& result, std::int64_t before);

  const interpreter::Machine& machine_;
  std::string path_;
  std::string as_;
  bool states_;
  bool resolved_ = false;
  bool viewer_failed_ = false;
  bool any_state_ = false;  // a state was kept: choices are shown as the viewer saw them
  std::optional<interpreter::PlayerId> viewer_;
  std::string trace_, round_scores_, states_text_;  // elements, indented, joined by ",\n"
  std::size_t traced_ = 0;
};

// The whole output's head and tail around the log reports (the document `{"logs": [...],
// "ruleset": TITLE}` as json_text(..., 2) writes it).
std::string json_report_head(bool any_log);
// A report that needs no splicing (a log that could not be read), as it stands in `logs`.
std::string json_report_entry(const nlohmann::json& entry);
std::string json_report_tail(const std::string& title, bool any_log);

}  // namespace rulebook::cli
